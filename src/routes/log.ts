/** The transparency log as C2SP tlog-tiles (docs/decisions/0068-the-log-served-as-tlog-tiles.md). */
import type { FastifyReply } from 'fastify';
import type { LogService, LogTile } from '../services/log/service.js';
import type { OperationHandlers } from '../contract/handlers.js';

const TEXT = 'text/plain; charset=utf-8';
const FULL_TILE = 'public, max-age=31536000, immutable';
const PARTIAL_TILE = 'public, max-age=5';

/** A path tlog-tiles would not write is answered as any unknown path. */
function sendTile(reply: FastifyReply, tile: LogTile | undefined): FastifyReply {
  if (tile === undefined) {
    reply.callNotFound();
    return reply;
  }
  return reply
    .type('application/octet-stream')
    .header('cache-control', tile.full ? FULL_TILE : PARTIAL_TILE)
    .send(tile.bytes);
}

export function logHandlers(
  log: LogService,
): Pick<OperationHandlers, 'getLogCheckpoint' | 'getLogVerifierKey' | 'getLogHashTile' | 'getLogEntryBundle'> {
  return {
    async getLogCheckpoint(_request, reply) {
      return reply
        .type(TEXT)
        .header('cache-control', 'no-cache')
        .send(await log.checkpoint());
    },

    async getLogVerifierKey(_request, reply) {
      return reply
        .type(TEXT)
        .header('cache-control', 'no-cache')
        .send(await log.vkey());
    },

    async getLogHashTile(request, reply) {
      return sendTile(reply, await log.hashTile(request.params.level, request.params.index));
    },

    async getLogEntryBundle(request, reply) {
      return sendTile(reply, await log.entryBundle(request.params.index));
    },
  };
}
