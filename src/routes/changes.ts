/** The change stream: the request read by the service, the stream sent as the body (Server-Sent Events). */
import type { ChangeStreams } from '../services/changes.js';
import type { OperationHandlers } from '../contract/handlers.js';

export function changeHandlers(changes: ChangeStreams): Pick<OperationHandlers, 'streamAssetChanges'> {
  return {
    async streamAssetChanges(request, reply) {
      const params = await changes.request(request.query, request.headers['last-event-id']);
      reply
        .type('text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache')
        // Proxies that buffer responses (nginx) would hold events back.
        .header('x-accel-buffering', 'no')
        // A stream ends only when the node stops (or drops it): its connection closes with it, so a shutdown
        // never waits for a kept-alive connection to time out.
        .header('connection', 'close');
      // HEAD answers the headers only: no stream is opened (it would never be read).
      if (request.method === 'HEAD') return reply.send();
      return reply.send(changes.open(params, () => reply.raw.writableLength, request.ip));
    },
  };
}
