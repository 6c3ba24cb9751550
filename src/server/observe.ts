/**
 * One structured log line and one set of metrics per request. The line (pino, JSON) holds the
 * time, the request id (the client's `X-Request-Id` when it is a short printable token, else a
 * new UUID, echoed in the response), the method, the route pattern that answered (never the raw
 * path, whose query or segments may carry anything), the status, the duration in milliseconds
 * and the body bytes sent. No header, query or body is ever logged: no API key, form token,
 * challenge solution or `Authorization` value can reach the log.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
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
 * The status logged and counted for a request whose client went away before its answer was
 * wholly sent (nginx's 499 "client closed request"; no HTTP status says it, and none is sent).
 */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * True when `error` is the error the client's own request failed with, not one of the server's:
 * Node's `IncomingMessage.errored` (found in `env`, @hono/node-server's `{ incoming }`), or an
 * error caused by it. Node fails a request whose client hung up before its body had arrived
 * with `ECONNRESET` ("aborted"), the code a lost database connection has too
 * (storage/database-failure.ts); only the error's identity tells them apart. Never throws.
 */
export function isClientHangUp(error: unknown, env: unknown): boolean {
  const errored = (env as { incoming?: Pick<IncomingMessage, 'errored'> } | undefined)?.incoming?.errored;
  if (errored === undefined || errored === null) return false;
  let current = error;
  // A few levels of `cause`: an error wrapped where it was caught.
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (current === errored) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The middleware that logs and measures every request it wraps (see the module comment). With
 * Node's response at hand (`c.env.outgoing`, @hono/node-server) the line is written once the
 * app has answered and the connection is done with the response, with the exact body bytes
 * sent; otherwise at once, from `Content-Length`. A request whose client went away before the
 * answer was wholly sent (its response closed unfinished, possibly long before the app
 * answered) is logged and counted too, with status {@link CLIENT_CLOSED_REQUEST} and
 * `aborted: true`: the response's `close` is listened for from the start, since it fires once.
 */
export function observeRequests(logger: Logger, metrics: ServerMetrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const id = given !== undefined && REQUEST_ID.test(given) ? given : randomUUID();
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    const method = c.req.method;
    logger.debug({ req_id: id, method }, 'request started');
    let bytes = 0;
    let answered: { route: string; status: number } | undefined;
    let closed: { aborted: boolean } | undefined;
    const finish = (sent: number): void => {
      if (answered === undefined) return;
      const ms = performance.now() - started;
      const aborted = closed?.aborted === true;
      const status = aborted ? CLIENT_CLOSED_REQUEST : answered.status;
      metrics.observeRequest(answered.route, status, ms / 1000);
      logger.info({ req_id: id, method, route: answered.route, status, duration_ms: Math.round(ms * 100) / 100, bytes: sent, ...(aborted ? { aborted: true } : {}) }, 'request');
    };
    if (outgoing !== undefined) {
      countBody(outgoing, (n) => (bytes += n));
      outgoing.once('close', () => {
        closed = { aborted: !outgoing.writableFinished };
        finish(bytes);
      });
    }
    try {
      await next();
      c.res.headers.set('x-request-id', id);
      answered = { route: routes.get(c.req.raw) ?? routePath(c), status: c.res.status };
    } catch (error) {
      // The app's error handler answers (500); the request is still logged and counted.
      answered = { route: routes.get(c.req.raw) ?? routePath(c), status: 500 };
      throw error;
    } finally {
      if (outgoing === undefined) finish(Number(c.res.headers.get('content-length') ?? 0));
      else if (closed !== undefined) finish(bytes);
    }
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
