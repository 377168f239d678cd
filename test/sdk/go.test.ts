/**
 * A Go user's first client: oapi-codegen, run as docs/clients.md says, generates a package from the served document;
 * `go vet` and `go build` pass, and fixtures/go/main.go carries out the README's flow with it. Go's own caches keep
 * what the first run downloads. Skipped, saying so, only where Go is not installed.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { KEYS, useScratch, useServer } from '../helpers/server.js';
import { createAsset, toPending } from '../helpers/fixtures.js';
import { command, readmeCreateBody } from './sdk-project.js';

/** The generator's version, as the command of docs/clients.md names it. */
const OAPI_CODEGEN = 'github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('fixtures/go/', import.meta.url));

/** The `go` command: on PATH, or where the official installer puts it. */
function findGo(): string | undefined {
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

const go = findGo();

it("docs/clients.md's Go command is the one tested here", async () => {
  const page = await readFile(join(ROOT, 'docs', 'clients.md'), 'utf8');
  expect(page).toContain(`go run ${OAPI_CODEGEN} -generate types,client -package registry -o registry/registry.gen.go`);
});

if (go === undefined) {
  it.skip('Go client (oapi-codegen): skipped because Go is not installed here (no `go` on PATH or in /usr/local/go/bin)', () => {});
} else {
  const goBinary = go;
  const server = useServer({}, { via: 'http' });
  const { broker } = server;
  const scratch = useScratch();
  let dir: string;
  // This Go, never a downloaded toolchain; modules as go.mod and go.sum pin them.
  const env = {
    PATH: `${dirname(goBinary)}${delimiter}${process.env.PATH ?? ''}`,
    GOTOOLCHAIN: 'local',
    GOFLAGS: '-mod=mod',
  };
  const goCommand = (args: string[]) => command(dir, goBinary, args, env, 280_000);

  describe('oapi-codegen (Go), generated from the served document', () => {
    beforeAll(async () => {
      dir = await scratch.dir('sdk-go-');
      await mkdir(join(dir, 'registry'));
      for (const name of ['main.go', 'go.mod', 'go.sum']) await copyFile(join(FIXTURES, name), join(dir, name));
      // Fetched first, so that on a machine with an empty module cache `go vet` says nothing of the downloads.
      await goCommand(['mod', 'download']);
      const document = `${server.url}/api/0.1/openapi.json`;
      await goCommand([
        'run',
        OAPI_CODEGEN,
        '-generate',
        'types,client',
        '-package',
        'registry',
        '-o',
        'registry/registry.gen.go',
        document,
      ]);
    }, 300_000);

    it('the generated package and the program pass go vet and go build', async () => {
      await expect(goCommand(['vet', './...'])).resolves.toMatchObject({ stderr: '' });
      await goCommand(['build', '-o', 'client', '.']);
    }, 300_000);

    it("the program carries out the README's flow on the registry, the feed followed page by page", async () => {
      for (let n = 0; n < 3; n++) {
        const { id, token } = await createAsset(broker);
        await toPending(broker, id, token);
      }
      const { stdout } = await command(dir, join(dir, 'client'), [], {
        REGISTRY_API: `${server.url}/api/0.1`,
        REGISTRY_KEY: KEYS.broker,
      });
      const seen = JSON.parse(stdout) as Record<string, any>;
      expect(seen.sent).toEqual(await readmeCreateBody());
      expect(seen.created.status).toBe('draft');
      expect(seen.published).toBe('pending');
      expect(seen.read).toMatchObject({ id: seen.created.id, status: 'pending', title: seen.sent.data.title });
      expect(seen.listed).toEqual({ id: seen.created.id, dateModified: seen.read.dateModified });
      expect(seen.pages).toBe(2);
    }, 120_000);
  });
}
