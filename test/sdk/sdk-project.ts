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
import { beforeAll, describe, expect, it } from 'vitest';
import { KEYS, useScratch, useServer, type Scratch } from '../helpers/server.js';
import { createAsset, toPending } from '../helpers/fixtures.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('fixtures/', import.meta.url));

/** Strict, library checks on (errors in generated code count); the DOM library, as fetch clients written for browsers and Node expect. */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
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
export async function command(
  cwd: string,
  file: string,
  args: string[],
  env: Record<string, string> = {},
  timeout = 100_000,
): Promise<Output> {
  try {
    // Stopped before the test's own time runs out, so that a hang fails with what the command printed.
    return await run(file, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024, timeout });
  } catch (error) {
    const { stdout = '', stderr = '', signal } = error as { stdout?: string; stderr?: string; signal?: string | null };
    const how = signal ? `was stopped (${signal})` : 'failed';
    throw new Error(`${[file, ...args].join(' ')} ${how}:\n${stdout}${stderr}`);
  }
}

/** A node script of a package of the project (its CLI), run with this Node. */
export function packageScript(cwd: string, script: string, args: string[]): Promise<Output> {
  return command(cwd, process.execPath, [join(ROOT, 'node_modules', script), ...args]);
}

/** A fresh client project: an ES module package with the fixtures named, `node_modules` linked to the project's. */
async function clientProject(scratch: Scratch, prefix: string, fixtures: string[]): Promise<string> {
  const dir = await scratch.dir(prefix);
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  for (const name of fixtures) await copyFile(join(FIXTURES, name), join(dir, name));
  return dir;
}

/** `tsc --noEmit` on the whole project (generated code and program); resolves to tsc's output, rejects on errors. */
function typecheck(dir: string): Promise<Output> {
  return packageScript(dir, 'typescript/bin/tsc', ['-p', 'tsconfig.json']);
}

/** Runs the program with tsx and parses the one JSON line it prints. */
async function runProgram(dir: string, program: string, env: Record<string, string>): Promise<Record<string, any>> {
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

/** The fetch wrapper for the cluster cookie that docs/clients.md gives: the page's first TypeScript block. */
export async function documentedClusterFetch(): Promise<string> {
  const page = await readFile(join(ROOT, 'docs', 'clients.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(page);
  if (!block) throw new Error('docs/clients.md: no ```ts block');
  return block[1]!;
}

/** A fixture's text. */
export const fixtureText = (name: string): Promise<string> => readFile(join(FIXTURES, name), 'utf8');

export interface Generator {
  /** What the suite is called. */
  title: string;
  /** The client program, a fixture: it imports the generated code and ./cluster-fetch.js. */
  program: string;
  /** Writes the SDK into the client project `dir` from the document at `documentUrl`. */
  generate(dir: string, documentUrl: string): Promise<unknown>;
}

/**
 * The suite of one generator: the SDK generated from the document a real registry serves, the generated code and
 * the program type-checked with `tsc --strict`, then the program run through the README's flow on that registry.
 */
export function describeGenerator(generator: Generator): void {
  const server = useServer({}, { via: 'http' });
  const { broker } = server;
  const scratch = useScratch();
  let dir: string;

  describe(generator.title, () => {
    beforeAll(async () => {
      dir = await clientProject(scratch, 'sdk-client-', [generator.program, 'cluster-fetch.ts']);
      await generator.generate(dir, `${server.url}/api/0.1/openapi.json`);
    }, 120_000);

    it('the generated code and the client program pass tsc --strict', async () => {
      await expect(typecheck(dir)).resolves.toMatchObject({ stdout: '' });
    }, 120_000);

    it("the program carries out the README's flow on the registry, the feed and the history followed page by page", async () => {
      // Three listed assets before the program's own: with two entries a page, the feed is read on with `offset`.
      for (let n = 0; n < 3; n++) {
        const { id, token } = await createAsset(broker);
        await toPending(broker, id, token);
      }
      const seen = await runProgram(dir, generator.program, {
        REGISTRY_API: `${server.url}/api/0.1`,
        REGISTRY_KEY: KEYS.broker,
      });
      expect(seen.sent).toEqual(await readmeCreateBody());
      expect(seen.created.status).toBe('draft');
      expect(seen.published).toBe('pending');
      expect(seen.read).toMatchObject({ id: seen.created.id, status: 'pending', title: seen.sent.data.title });
      expect(seen.listed).toEqual({ id: seen.created.id, dateModified: seen.read.dateModified });
      expect(seen.pages).toBe(2);
      // Its history: the creation and the move to pending, by the key's holder; the draft as created at revision 1.
      expect(seen.revisions).toEqual([
        { rev: 1, author: 'broker', date: seen.atFirstRevision.dateModified },
        { rev: 2, author: 'broker', date: seen.read.dateModified },
      ]);
      expect(seen.atFirstRevision.status).toBe('draft');
    }, 120_000);
  });
}
