/**
 * The Go verifier of test/log/verifier/ (golang.org/x/mod/sumdb/note and tlog), built once per test file into a
 * scratch folder. `undefined` where Go is not installed: the tests that need it then skip, saying so.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Scratch } from '../helpers/server.js';

const run = promisify(execFile);
const SOURCE = fileURLToPath(new URL('verifier/', import.meta.url));

/** The `go` command: on PATH, or where the official installer puts it. */
export function findGo(): string | undefined {
  for (const candidate of [
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'go')),
    '/usr/local/go/bin/go',
  ]) {
    try {
      if (existsSync(candidate) && execFileSync(candidate, ['version'], { encoding: 'utf8' }).startsWith('go version'))
        return candidate;
    } catch {
      // Not a working go: try the next.
    }
  }
  return undefined;
}

interface VerifierRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The summary a successful run prints. */
  summary?: { origin: string; size: number; root: string; revisions: number };
}

export type Verifier = (args: string[]) => Promise<VerifierRun>;

/** Builds the verifier (this Go, modules as go.mod and go.sum pin them). */
export async function buildVerifier(go: string, scratch: Scratch): Promise<Verifier> {
  const out = join(await scratch.dir('log-verifier-'), 'verifier');
  const env = {
    ...process.env,
    PATH: `${dirname(go)}${delimiter}${process.env.PATH ?? ''}`,
    GOTOOLCHAIN: 'local',
    GOFLAGS: '-mod=mod',
  };
  await run(go, ['build', '-o', out, '.'], { cwd: SOURCE, env, timeout: 280_000 });
  return async (args) => {
    try {
      const { stdout, stderr } = await run(out, args, { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
      return { code: 0, stdout, stderr, summary: JSON.parse(stdout) };
    } catch (error) {
      const { code, stdout = '', stderr = '' } = error as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof code === 'number' ? code : -1, stdout, stderr };
    }
  };
}
