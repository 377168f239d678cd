/** Liveness for load balancers and orchestrators: 200 while the store answers, 503 when it does not. */
import type { FastifyInstance } from 'fastify';
import type { AssetStore } from '../store/types.js';
import { ApiError } from '../domain/errors.js';
import { API_PREFIX } from './assets.js';

export default async function healthRoutes(app: FastifyInstance, options: { store: AssetStore }): Promise<void> {
  app.get(`${API_PREFIX}/health`, { config: { rateLimit: false } }, async (request) => {
    try {
      await options.store.ping();
    } catch (error) {
      request.log.error({ err: error }, 'store unreachable');
      throw ApiError.one(503, 'url', 'store', 'The store does not answer');
    }
    return { status: 'ok' };
  });
}
