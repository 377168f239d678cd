/** Prism (the npm package @stoplight/prism-cli) as a child process: `prism proxy` or `prism mock` on a free port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../bench/ports.js';

const PRISM = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');

export interface RunningPrism {
  url: string;
  /** What Prism printed so far, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * The document a registry serves, saved to a file for Prism: Prism 5.14 cannot download it itself on Node 24 (its
 * HTTP resolver's AbortSignal polyfill is refused by Node's own fetch), so it reads a file, as docs/clients.md says.
 */
export async function servedDocumentFile(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  const file = join(await mkdtemp(join(tmpdir(), 'prism-')), 'openapi.json');
  await writeFile(file, await response.text());
  return file;
}

/** Starts Prism with `args` (its command and document first) and resolves once it listens. */
export async function startPrism(args: string[]): Promise<RunningPrism> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [PRISM, ...args, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const listening = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Prism is listening')) resolve();
    };
    child.stdout!.on('data', listening);
    child.stderr!.on('data', listening);
    child.once('exit', (code) => reject(new Error(`prism exited with ${code}:\n${log}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    log: () => log,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}
