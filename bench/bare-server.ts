/**
 * The references the registry is measured against: a bare Fastify server (no plugins, no logger) with two kinds
 * of route.
 *
 * - `/bytes/:name` — the limit: it answers bytes the registry answered, as they are. The bench first
 *   captures one response of a scenario (`PUT /bytes/:name`, the body as sent, its status in `x-status` and its
 *   media type in `x-type`); `GET`, `POST` and `PATCH` then answer those bytes with that status. `POST` and
 *   `PATCH` receive the scenario's request body and parse it as JSON first, as any JSON route must.
 * - `/asset` — the older reference: a seeded asset as an object, `{ "data": <asset> }`, serialised per
 *   request as Fastify does by default. Reported beside the limit, not used for the targets.
 *
 *   PORT=... BENCH_BARE_BODY=<file with the asset JSON> node --import tsx bench/bare-server.ts
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

interface Captured {
  bytes: Buffer;
  status: number;
  type: string;
}

const asset: unknown = JSON.parse(readFileSync(process.env.BENCH_BARE_BODY ?? '', 'utf8'));
const captured = new Map<string, Captured>();

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

app.get('/asset', async () => ({ data: asset }));

app.put<{ Params: { name: string }; Body: Buffer }>('/bytes/:name', async (request, reply) => {
  captured.set(request.params.name, {
    bytes: request.body,
    status: Number(request.headers['x-status'] ?? 200),
    type: String(request.headers['x-type'] ?? 'application/json'),
  });
  return reply.code(204).send();
});

app.route<{ Params: { name: string } }>({
  method: ['GET', 'POST', 'PATCH'],
  url: '/bytes/:name',
  handler: async (request, reply) => {
    const answer = captured.get(request.params.name);
    if (answer === undefined) return reply.code(404).send({ error: `nothing captured as ${request.params.name}` });
    return reply.code(answer.status).type(answer.type).send(answer.bytes);
  },
});

app.get('/health', async () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
