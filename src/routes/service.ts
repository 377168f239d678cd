/** The contract itself (as JSON), its documentation page and the health probe. */
import document from '../contract/generated/openapi.json' with { type: 'json' };
import document30 from '../contract/generated/openapi-3.0.json' with { type: 'json' };
import type { HealthService } from '../services/health.js';
import type { OperationHandlers, Reply } from '../contract/handlers.js';

/** Written once: the served document is the generated one, byte for byte the same at every request. */
const documentText = JSON.stringify(document);
const document30Text = JSON.stringify(document30);

export function serviceHandlers(
  health: HealthService,
): Pick<OperationHandlers, 'getOpenApiDocument' | 'getOpenApi30Document' | 'getDocsPage' | 'getHealth'> {
  return {
    async getOpenApiDocument(_request, reply) {
      return reply.type('application/json; charset=utf-8').send(documentText);
    },

    async getOpenApi30Document(_request, reply) {
      return reply.type('application/json; charset=utf-8').send(document30Text);
    },

    // The page and its files come from plugins/docs-page.ts (swagger-ui-dist).
    async getDocsPage(request, reply) {
      return reply.type('text/html; charset=utf-8').send(request.server.docsPage);
    },

    async getHealth() {
      return health.check() satisfies Promise<Reply<'getHealth', 200>>;
    },
  };
}
