/** Prism (the npm package @stoplight/prism-cli) as a child process: `prism proxy` or `prism mock` on a free port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { freePort } from '../../scripts/bench/ports.js';

const PRISM = createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');

export interface RunningPrism {
  url: string;
  /** What Prism printed so far, for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

/** Starts Prism with `args` (its command and document first) and resolves once it listens. */
export async function startPrism(args: string[]): Promise<RunningPrism> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [PRISM, ...args, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
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
