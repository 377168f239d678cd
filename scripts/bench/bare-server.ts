/**
 * The physical-limit reference: a bare Fastify server (no plugins, no logger) whose one route returns a JSON
 * body of the size of an asset, `{ "data": <asset> }`, serialised per request as Fastify does by default.
 *
 *   PORT=... BENCH_BARE_BODY=<file with the asset JSON> node --import tsx scripts/bench/bare-server.ts
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const asset: unknown = JSON.parse(readFileSync(process.env.BENCH_BARE_BODY ?? '', 'utf8'));
const app = Fastify({ logger: false });
app.get('/asset', async () => ({ data: asset }));
app.get('/health', async () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
