/**
 * The contract and its documentation: GET /api/0.1/openapi.json (openapi/openapi.yaml as JSON) and
 * GET /api/0.1/docs (the page of plugins/docs-page.ts, which also serves the page's files). The YAML is read when
 * the routes register and parsed on the first request for it (parsing takes a good part of a start-up otherwise).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { parse } from 'yaml';

/** The checkout's root (the folder with package.json), found from this module whether it runs from src/ or dist/. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the openapi routes module');
    dir = parent;
  }
  return dir;
}

export default async function openapiRoutes(app: FastifyInstance): Promise<void> {
  const root = projectRoot();
  const yamlText = await readFile(join(root, 'openapi', 'openapi.yaml'), 'utf8');
  let document: string | undefined;

  app.get('/api/0.1/openapi.json', async (_request, reply) => {
    document ??= JSON.stringify(parse(yamlText));
    return reply.type('application/json; charset=utf-8').send(document);
  });
  app.get('/api/0.1/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(app.docsPage));
}
