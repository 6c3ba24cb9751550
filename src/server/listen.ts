/**
 * Binding the app to a socket with @hono/node-server. Binds 127.0.0.1 by default (MCP
 * transport security guidance: local servers bind loopback).
 *
 * Every refusal is a problem (DESIGN.md section 5), at each of the three layers that can refuse
 * a request before the app sees it:
 * - Node's HTTP parser (request line and headers over `maxHeaderSize`, malformed requests,
 *   requests that arrive too slowly) would answer with a bare status line: the 'clientError'
 *   hook answers instead ({@link clientErrorProblem}).
 * - Node's own Host check (`requireHostHeader`) would answer a bare 400: it is turned off and
 *   the same rule is applied here, with duplicate Host lines refused too ({@link hostProblem}).
 * - @hono/node-server, building the `Request`, throws a `RequestError` on a request target or
 *   Host it cannot turn into a URL and would answer a bare 400: its `errorHandler` answers
 *   instead ({@link requestErrorProblem}).
 */
import { getRequestListener, RequestError } from '@hono/node-server';
import type { Hono } from 'hono';
import { createServer, maxHeaderSize as defaultMaxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { LoadoutError } from '../catalogue/errors.js';
import { makeProblem, problemResponse, type Problem } from './problem.js';

/** A listening server. */
export interface RunningServer {
  /** `http://<host>:<port>` actually bound (port 0 resolves to the chosen port). */
  url: string;
  port: number;
  /** Closes the server and every connection at once, requests in flight included. */
  close(): Promise<void>;
  /**
   * Stops accepting connections and lets the requests in flight finish, for at most
   * `timeoutMs`; then closes whatever connections are left. Resolves once all are closed.
   */
  drain(timeoutMs: number): Promise<void>;
}

/**
 * Limits of Node's HTTP server (`http.createServer` options), all optional; Node's defaults
 * apply otherwise: `maxHeaderSize` 16,384 bytes (request line and headers), `headersTimeout`
 * 60,000 ms, `requestTimeout` 300,000 ms, `connectionsCheckingInterval` 30,000 ms (how often
 * the two timeouts are checked).
 */
export type ServerLimits = Pick<ServerOptions, 'maxHeaderSize' | 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval'>;

/** Options of {@link listen}. */
export interface ListenOptions {
  /** 0 picks a free port. */
  port: number;
  host: string;
  limits?: ServerLimits;
}

/**
 * How long (ms) a socket whose request Node refused stays open after the problem is written,
 * reading and dropping whatever the client still sends. Closing at once, with unread bytes in
 * the kernel's buffer, would send a TCP reset that can destroy the answer before the client
 * reads it.
 */
const LINGER_MS = 5_000;

/**
 * Starts listening.
 * @throws LoadoutError `config` when the port is taken or the host cannot be bound.
 */
export function listen(app: Hono, options: ListenOptions): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(new LoadoutError('config', `cannot listen on ${options.host}:${options.port}: ${error.code ?? error.message}`, { cause: error, hint: error.code === 'EADDRINUSE' ? 'Pick another port with --port or PORT.' : undefined }));
    };
    // As @hono/node-server's serve() does, but with its errorHandler, which serve() does not pass.
    const listener = getRequestListener(app.fetch, { hostname: options.host, errorHandler: answerRequestError });
    const server = createServer({ ...options.limits, requireHostHeader: false }, (request, response) => {
      const refused = hostProblem(request);
      if (refused !== undefined) {
        void writeProblem(response, refused);
        return;
      }
      void listener(request, response);
    });
    server.on('error', onError);
    server.listen(options.port, options.host, () => {
      server.off('error', onError);
      const info = server.address() as AddressInfo;
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        close: () => new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
        drain: (timeoutMs) => drainServer(server as Server, timeoutMs),
      });
    });
    answerClientErrors(server, options.limits?.maxHeaderSize ?? defaultMaxHeaderSize);
  });
}

/** How often (ms) a draining server closes the keep-alive connections that went idle. */
const DRAIN_SWEEP_MS = 50;

/**
 * {@link RunningServer.drain}: `server.close()` stops accepting; connections with no request
 * in flight are closed at once and again every {@link DRAIN_SWEEP_MS} (a keep-alive connection
 * goes idle when its last answer is sent); after `timeoutMs` every connection is closed.
 */
function drainServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((done) => {
    const sweep = setInterval(() => server.closeIdleConnections(), DRAIN_SWEEP_MS);
    const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      done();
    });
    server.closeIdleConnections();
  });
}

/**
 * Installs the 'clientError' hook on `server`: a request Node's parser refuses is answered
 * with a complete HTTP/1.1 response carrying an `application/problem+json` body and
 * `Connection: close` (see {@link clientErrorProblem} for the statuses), then the connection
 * closes.
 *
 * Responses to earlier requests on the same connection go first (RFC 9112 section 9.3.2: in
 * the order of the requests): when the refused bytes follow requests that were read whole and
 * are still being answered, the problem is written once all those responses have ended, the
 * ones still waiting in Node's queue behind the first included (however many requests came in
 * the same packet). Node 22
 * and 24 report a malformed pipelined request while the response before it is still being
 * written, Node 20 after it. When the refused bytes are the body of a request whose response
 * has already begun, nothing can be written without corrupting that response: the socket is
 * destroyed, as it is when it is no longer writable.
 */
function answerClientErrors(server: Server, maxHeaderSize: number): void {
  // The responses on each socket that have not finished, to know whether one has begun and
  // which to wait for. Keyed by the request's socket: a response to a pipelined request waits in
  // Node's queue without a socket (`response.socket` is null) until the one before it has
  // finished, and it still has to go out before the problem.
  const inFlight = new WeakMap<Duplex, Set<ServerResponse>>();
  const answered = new WeakSet<Duplex>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    let open = inFlight.get(socket);
    if (open === undefined) inFlight.set(socket, (open = new Set()));
    open.add(response);
    response.once('close', () => open.delete(response));
  });
  server.on('clientError', (error: NodeJS.ErrnoException & { reason?: unknown }, socket: Duplex) => {
    // After a parse error Node keeps feeding the failed parser, and reports each later chunk
    // (and the client's end) again: only the first report is answered.
    if (answered.has(socket)) return;
    answered.add(socket);
    const open = [...(inFlight.get(socket) ?? [])];
    // A response whose head is out but whose last byte is not, to a request whose body is what
    // the parser refused, would be cut by ours.
    const cut = open.some((response) => !response.req.complete && response.headersSent);
    if (error.code === 'ECONNRESET' || !socket.writable || cut) {
      socket.destroy();
      return;
    }
    const earlier = open.filter((response) => response.req.complete);
    if (earlier.length === 0) {
      answer(socket, error);
      return;
    }
    let pending = earlier.length;
    for (const response of earlier) {
      response.once('close', () => {
        if (--pending > 0) return;
        if (socket.writable) answer(socket, error);
        else socket.destroy();
      });
    }
  });
  /** Writes the problem for `error` on `socket` and ends it. */
  const answer = (socket: Duplex, error: NodeJS.ErrnoException & { reason?: unknown }): void => {
    const problem = clientErrorProblem(error, { maxHeaderSize, headersTimeout: server.headersTimeout, requestTimeout: server.requestTimeout });
    const body = JSON.stringify(problem);
    const head = [
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}`,
      'Content-Type: application/problem+json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Cache-Control: no-store',
      'Connection: close',
      `Date: ${new Date().toUTCString()}`,
    ].join('\r\n');
    const linger = setTimeout(() => socket.destroy(), LINGER_MS);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
    socket.resume();
    socket.end(`${head}\r\n\r\n${body}`);
  };
}

/**
 * The problem for an error Node's HTTP server reports through 'clientError' (its `code`):
 * `HPE_HEADER_OVERFLOW` → 431 `headers_too_large`; `HPE_CHUNK_EXTENSIONS_OVERFLOW` → 413
 * `body_too_large`; `ERR_HTTP_REQUEST_TIMEOUT` → 408 `request_timeout`; any other (the other
 * `HPE_*` parse errors) → 400 `bad_request`, naming the code and Node's reason. The same
 * statuses Node sends without the hook (Node.js docs, http "Event: 'clientError'").
 * Pure. Never echoes the request's bytes.
 * @param limits the server's limits, for the messages: bytes and milliseconds.
 */
export function clientErrorProblem(error: { code?: string; reason?: unknown; message: string }, limits: { maxHeaderSize: number; headersTimeout: number; requestTimeout: number }): Problem {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return makeProblem(431, 'headers_too_large', `the request line and headers are over ${limits.maxHeaderSize} bytes (expected at most ${limits.maxHeaderSize} bytes in all: shorten the URL, such as a long q parameter, or the headers)`);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return makeProblem(413, 'body_too_large', 'the chunk extensions of the chunked body are too long (expected chunks with short extensions or none)');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return makeProblem(408, 'request_timeout', `the request did not arrive in time (expected its headers within ${limits.headersTimeout} ms and all of it within ${limits.requestTimeout === 0 ? 'no limit' : `${limits.requestTimeout} ms`})`);
    default: {
      const reason = typeof error.reason === 'string' && error.reason !== '' ? error.reason : error.message;
      return makeProblem(400, 'bad_request', `the request is not valid HTTP/1.1: ${error.code ?? 'error'}: ${reason} (expected a request line "METHOD /path HTTP/1.1", then valid header lines and an empty line)`);
    }
  }
}

/**
 * @hono/node-server's `errorHandler`: a `RequestError` (the request target or Host could not be
 * made a URL) becomes a 400 problem; anything else thrown on the way to the app is a bug and
 * becomes a 500 problem, logged (as the app's own `onError` does).
 */
function answerRequestError(error: unknown): Response {
  if (error instanceof RequestError) return problemResponse(requestErrorProblem(error));
  console.error(error);
  return problemResponse(makeProblem(500, 'internal_error', 'the server failed to answer (a bug); the error is logged'));
}

/**
 * The problem for a `RequestError` of @hono/node-server 2.x (src/url.ts and src/request.ts),
 * thrown when the `Request` cannot be built → 400 `bad_request`: a backslash before the query
 * (`/raw/a\..\b`), an invalid absolute URL, a Host whose parsed host differs from it (`a@b`,
 * `a/b`), or a target and Host that do not form a URL together (`*`, `ftp://x/`, `Host: a b`, a
 * port over 65535). Pure. The detail never echoes the request's bytes. RFC 9112 section 3.2
 * (Host) and 3.2.1–3.2.2 (request-target forms).
 */
export function requestErrorProblem(error: { message: string }): Problem {
  const expected = '(expected a path starting with "/" and without backslashes before any "?query", or an absolute http(s) URL, and a Host such as "catalogue.example" or "127.0.0.1:8080"; RFC 9112 section 3.2)';
  const said = REQUEST_ERRORS[error.message] ?? 'the request target and Host header do not form a URL';
  return makeProblem(400, 'bad_request', `${said} ${expected}`);
}

/** What each `RequestError` message of @hono/node-server 2.x means, said for the client. */
const REQUEST_ERRORS: Partial<Record<string, string>> = {
  'Backslash in request path': 'the request target has a backslash in its path',
  'Invalid absolute URL': 'the request target is not a valid absolute URL',
  'Invalid host header': 'the Host header is not valid: it is not a host and optional port alone',
  'Missing host header': 'the request has no Host header',
  'Invalid URL': 'the request target and Host header do not form a URL',
};

/**
 * The problem for a request whose Host header breaks RFC 9112 section 3.2: an HTTP/1.1
 * request without one, or any request with more than one Host line → 400 `bad_request`
 * ("A server MUST respond with a 400 (Bad Request) status code"); `undefined` when the Host
 * lines are acceptable (the value itself is checked by @hono/node-server). Pure.
 */
export function hostProblem(request: Pick<IncomingMessage, 'rawHeaders' | 'httpVersionMajor' | 'httpVersionMinor'>): Problem | undefined {
  let lines = 0;
  for (let index = 0; index < request.rawHeaders.length; index += 2) {
    if (request.rawHeaders[index]?.toLowerCase() === 'host') lines += 1;
  }
  if (lines > 1) return makeProblem(400, 'bad_request', `the request has ${lines} Host header lines (expected exactly one; RFC 9112 section 3.2)`);
  const http11 = request.httpVersionMajor === 1 && request.httpVersionMinor >= 1;
  if (lines === 0 && http11) return makeProblem(400, 'bad_request', 'the HTTP/1.1 request has no Host header (expected exactly one; RFC 9112 section 3.2)');
  return undefined;
}

/** Writes `problem` as the whole response. */
async function writeProblem(response: ServerResponse, problem: Problem): Promise<void> {
  const answer = problemResponse(problem);
  const body = await answer.text();
  answer.headers.forEach((value, name) => response.setHeader(name, value));
  response.writeHead(problem.status, { 'content-length': Buffer.byteLength(body) });
  response.end(body);
}
