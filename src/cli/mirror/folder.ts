/** Written beside, then renamed over: a reader (or a crash) never sees half a file. */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KeptCheckpoint } from './log.js';

export interface MirrorState {
  from: string;
  mode: string | null;
  /** The last event id (a `dateModified`) whose asset is written; absent: from the start of the feed. */
  position?: string;
  /** With `--log-vkey`: the last checkpoint of the registry's transparency log the mirror verified. */
  log?: KeptCheckpoint;
}

export class MirrorFolder {
  private readonly stateFile: string;

  constructor(private readonly path: string) {
    mkdirSync(path, { recursive: true });
    this.stateFile = join(path, '.mirror-state.json');
  }

  /** The saved state, else `fresh`; a folder that mirrors another registry or mode is refused. */
  readState(fresh: MirrorState): MirrorState {
    let saved: MirrorState;
    try {
      saved = JSON.parse(readFileSync(this.stateFile, 'utf8')) as MirrorState;
    } catch {
      return fresh;
    }
    if (saved.from !== fresh.from || saved.mode !== fresh.mode) {
      throw new Error(
        `${this.stateFile} belongs to another registry or mode (${saved.from}, ${saved.mode ?? 'real'}); use another folder`,
      );
    }
    return saved;
  }

  saveState(state: MirrorState): void {
    writeAtomically(this.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  }

  writeAsset(id: string, text: string): void {
    writeAtomically(join(this.path, `${id}.json`), text);
  }
}

function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}
