/**
 * One structured log line and one set of metrics per request. The line (pino, JSON) holds the
 * time, the request id (the client's `X-Request-Id` when it is a short printable token, else a
 * new UUID, echoed in the response), the method, the route pattern that answered (never the raw
 * path, whose query or segments may carry anything), the status, the duration in milliseconds
 * and the body bytes sent. No header, query or body is ever logged: no API key, form token,
 * challenge solution or `Authorization` value can reach the log.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { ServerMetrics } from './metrics.js';

/** The levels `LOG_LEVEL` accepts (pino's). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The server's logger at `level` (one of {@link LOG_LEVELS}), writing JSON lines to
 * `destination` (default standard output) with ISO 8601 times.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

/** The route pattern each request was answered by, noted by the app that answered it. */
const routes = new WeakMap<Request, string>();

/**
 * Notes the route pattern that answered `c` (called after the handlers ran, in the app that
 * holds the routes: a generation's app is a Hono app of its own).
 */
export function noteRoute(c: Context): void {
  routes.set(c.req.raw, routePath(c));
}

/** A request id from a client is kept when it is 1 to 128 characters of this set. */
const REQUEST_ID = /^[\w.:@/+=-]{1,128}$/u;

/**
 * The middleware that logs and measures every request it wraps (see the module comment). With
 * Node's response at hand (`c.env.outgoing`, @hono/node-server) the line is written once the
 * body is sent, with its exact byte count; otherwise at once, from `Content-Length`.
 */
export function observeRequests(logger: Logger, metrics: ServerMetrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const id = given !== undefined && REQUEST_ID.test(given) ? given : randomUUID();
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    logger.debug({ req_id: id, method: c.req.method }, 'request started');
    let bytes = 0;
    if (outgoing !== undefined) countBody(outgoing, (n) => (bytes += n));
    await next();
    c.res.headers.set('x-request-id', id);
    const route = routes.get(c.req.raw) ?? routePath(c);
    const status = c.res.status;
    const method = c.req.method;
    const finish = (sent: number): void => {
      const ms = performance.now() - started;
      metrics.observeRequest(route, status, ms / 1000);
      logger.info({ req_id: id, method, route, status, duration_ms: Math.round(ms * 100) / 100, bytes: sent }, 'request');
    };
    if (outgoing === undefined) finish(Number(c.res.headers.get('content-length') ?? 0));
    else outgoing.once('close', () => finish(bytes));
  };
}

/** Counts the body bytes written to `response` (not the head), calling `add` with each chunk's length. */
function countBody(response: ServerResponse, add: (n: number) => void): void {
  const lengthOf = (chunk: unknown, encoding: unknown): number =>
    typeof chunk === 'string' ? Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : chunk instanceof Uint8Array ? chunk.byteLength : 0;
  const write = response.write.bind(response) as (...args: unknown[]) => boolean;
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  response.write = ((chunk: unknown, ...rest: unknown[]) => {
    add(lengthOf(chunk, rest[0]));
    return write(chunk, ...rest);
  }) as ServerResponse['write'];
  response.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'function') add(lengthOf(chunk, rest[0]));
    return end(chunk, ...rest);
  }) as ServerResponse['end'];
}
