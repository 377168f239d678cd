/** The contract itself (as JSON), its documentation page and the health probe. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import document from '../generated/openapi.json' with { type: 'json' };
import type { HealthService } from '../services/health.js';
import type { OperationHandlers, Reply } from './types.js';

/** Written once: the served document is the generated one, byte for byte the same at every request. */
const documentText = JSON.stringify(document);

/** The checkout's root (the folder with package.json), found from this module whether it runs from src/ or dist/. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the service routes module');
    dir = parent;
  }
  return dir;
}

const docsPage = readFileSync(join(projectRoot(), 'src', 'generated', 'docs.html'), 'utf8');

export function serviceHandlers(health: HealthService): Pick<OperationHandlers, 'getOpenApiDocument' | 'getDocsPage' | 'getHealth'> {
  return {
    async getOpenApiDocument(_request, reply) {
      return reply.type('application/json; charset=utf-8').send(documentText);
    },

    async getDocsPage(_request, reply) {
      return reply.type('text/html; charset=utf-8').send(docsPage);
    },

    async getHealth() {
      return health.check() satisfies Promise<Reply<'getHealth', 200>>;
    },
  };
}
