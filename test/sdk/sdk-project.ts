/**
 * A client project as an SDK user sets one up: a folder with the code a generator wrote from the served document,
 * the user's program (a fixture of this folder) and a strict tsconfig; type-checked with the real `tsc` and run
 * with tsx against a real registry. The folder reaches the project's packages through a `node_modules` link.
 */
import { execFile } from 'node:child_process';
import { copyFile, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Scratch } from '../helpers/server.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('fixtures/', import.meta.url));

/** The strictest settings a user is likely to pick, and the library checks on: errors in generated code count. */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
  },
  include: ['**/*.ts'],
  exclude: ['node_modules'],
};

export interface Output {
  stdout: string;
  stderr: string;
}

/** Runs a command in `cwd`; a non-zero exit is an error whose message holds the command's output. */
async function command(cwd: string, file: string, args: string[], env: Record<string, string> = {}): Promise<Output> {
  try {
    return await run(file, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${[file, ...args].join(' ')} failed:\n${stdout}${stderr}`);
  }
}

/** A node script of a package of the project (its CLI), run with this Node. */
export function packageScript(cwd: string, script: string, args: string[]): Promise<Output> {
  return command(cwd, process.execPath, [join(ROOT, 'node_modules', script), ...args]);
}

/** A fresh client project: an ES module package with the fixtures named, `node_modules` linked to the project's. */
export async function clientProject(scratch: Scratch, prefix: string, fixtures: string[]): Promise<string> {
  const dir = await scratch.dir(prefix);
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  for (const name of fixtures) await copyFile(join(FIXTURES, name), join(dir, name));
  return dir;
}

/** `tsc --noEmit` on the whole project (generated code and program); resolves to tsc's output, rejects on errors. */
export function typecheck(dir: string): Promise<Output> {
  return packageScript(dir, 'typescript/bin/tsc', ['-p', 'tsconfig.json']);
}

/** Runs the program with tsx and parses the one JSON line it prints. */
export async function runProgram(dir: string, program: string, env: Record<string, string>): Promise<Record<string, any>> {
  const { stdout } = await command(dir, process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), program], env);
  return JSON.parse(stdout) as Record<string, any>;
}

/** The README's minimal create body: the JSON of the `curl` that creates an asset in "The API in five requests". */
export async function readmeCreateBody(): Promise<unknown> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const create = /"\$API\/assets" -d '(\{[\s\S]*?\})'\n/.exec(readme);
  if (!create) throw new Error('README: the create request of "The API in five requests" not found');
  return JSON.parse(create[1]!);
}

/** The README's fetch wrapper for the cluster cookie: the TypeScript block of "Generate a client". */
export async function readmeClusterFetch(): Promise<string> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## Generate a client$/m)[1]?.split(/^## /m)[0] ?? '';
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README: no ```ts block in "Generate a client"');
  return block[1]!;
}

export const fixture = (name: string): Promise<string> => readFile(join(FIXTURES, name), 'utf8');
