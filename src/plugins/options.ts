/**
 * Response options (docs/decisions/0016-response-options.md): successful answers only, errors are never pretty or
 * wrapped. Every body is written by domain/serialize.ts, so amounts keep their float form.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import { isJsonObject } from '../domain/json.js';
import { toJson } from '../domain/serialize.js';
import { JSON_TYPE } from '../domain/serialize.js';

interface ResponseOptions {
  pretty: boolean;
  jsonp: string | undefined;
  fields: string | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Null until the preHandler step: requests refused earlier are answered without options. */
    responseOptions: ResponseOptions | null;
  }
}

/** Identifier paths (`app.handlers.cb`) only: anything else could inject script. */
const CALLBACK = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;
const JSONP_TYPE = 'application/javascript; charset=utf-8';
/** As declared for `opt_jsonp` in the OpenAPI document. */
const CALLBACK_MAX = 200;

const compact = (payload: unknown): string => toJson(payload);

function queryValue(query: unknown, name: string): string | undefined {
  if (!isJsonObject(query)) return undefined;
  const value = query[name];
  return typeof value === 'string' ? value : undefined;
}

/** The body's `options` win over the query; an empty `opt_pretty` counts as given. */
function readOptions(query: unknown, body: unknown): ResponseOptions {
  const fromBody = isJsonObject(body) && isJsonObject(body.options) ? body.options : {};
  const queryPretty = isJsonObject(query) && 'opt_pretty' in query;
  const jsonpSource = 'jsonp' in fromBody ? 'body' : 'querystring';
  const jsonp = 'jsonp' in fromBody ? fromBody.jsonp : queryValue(query, 'opt_jsonp');
  if (
    jsonp !== undefined &&
    jsonp !== null &&
    (typeof jsonp !== 'string' || jsonp.length > CALLBACK_MAX || !CALLBACK.test(jsonp))
  ) {
    throw ApiError.one(
      400,
      jsonpSource,
      jsonpSource === 'body' ? 'options' : 'opt_jsonp',
      'Invalid JSONP callback function name.',
    );
  }
  const fields = 'fields' in fromBody ? fromBody.fields : queryValue(query, 'opt_fields');
  return {
    pretty: 'pretty' in fromBody ? fromBody.pretty === true : queryPretty,
    jsonp: typeof jsonp === 'string' ? jsonp : undefined,
    fields: typeof fields === 'string' ? fields : undefined,
  };
}

function isJson(reply: FastifyReply): boolean {
  return String(reply.getHeader('content-type') ?? '').startsWith('application/json');
}

function succeeded(reply: FastifyReply): boolean {
  return reply.statusCode < 400;
}

async function options(app: FastifyInstance): Promise<void> {
  app.decorateRequest('responseOptions', null);
  app.setReplySerializer(compact);

  app.addHook('preHandler', (request: FastifyRequest, _reply, done) => {
    try {
      request.responseOptions = readOptions(request.query, request.body);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });

  // One hook for both options, on the text as it leaves: bodies served as stored text never meet a serialiser.
  app.addHook('onSend', (request, reply, payload, done) => {
    const options = request.responseOptions;
    const reshaped = options !== null && (options.pretty || options.jsonp !== undefined) && succeeded(reply);
    if (reshaped && Buffer.isBuffer(payload) && isJson(reply)) payload = payload.toString('utf8');
    if (reshaped && options.pretty && typeof payload === 'string' && isJson(reply)) {
      payload = toJson(JSON.parse(payload), { pretty: true });
    }
    const callback = options?.jsonp;
    // HEAD without a body (routes/http.ts, `answerHead`): the type GET's wrapped body would have.
    if (reshaped && callback !== undefined && request.method === 'HEAD' && typeof payload !== 'string') {
      reply.header('content-type', JSONP_TYPE);
      done(null, payload);
      return;
    }
    if (reshaped && callback !== undefined && typeof payload === 'string') {
      reply.header('content-type', JSONP_TYPE);
      // The comment prefix defeats content sniffing attacks on JSONP endpoints; U+2028/9 are not valid in older JS.
      done(null, `/**/${callback}(${payload.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')});`);
      return;
    }
    // A 304 has no body, so no type.
    if (!reply.hasHeader('content-type') && reply.statusCode !== 304) reply.header('content-type', JSON_TYPE);
    done(null, payload);
  });
}

export default fp(options, { name: 'options', dependencies: ['errors'] });
