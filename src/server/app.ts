/**
 * The HTTP app (Hono): the static tree, the description document and, when their services
 * are given, search, MCP and submissions. Built by a factory that takes its dependencies;
 * `listen.ts` binds it to a socket (STYLE.md, Layout 5).
 */
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { Logger } from 'pino';
import { databaseFailureReason } from '../storage/database-failure.js';
import { describeApi, type ServiceConfigReport } from '../tree/render/description.js';
import { readBuiltDescription } from './built-description.js';
import { CLIENT_CLOSED_REQUEST, isClientHangUp, noteRoute } from './observe.js';
import { problem } from './problem.js';
import { BAD_PATH_DETAIL, createStaticServer, decodePathSegments } from './static.js';

/**
 * `Retry-After` of a 503 `database_unavailable`, in seconds: a PostgreSQL restart or failover,
 * or a pool whose connections the server ended, is over within a few seconds.
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Dependencies of the app. */
export interface AppDependencies {
  /** The built tree (`dist/`). */
  distDir: string;
  /**
   * `{base_url}`, no trailing slash: what this server publishes. `GET /api/v1` names the base
   * the tree was built for instead when its static description document says (built-description.ts).
   */
  baseUrl: string;
  /** What the description document reports. */
  submissionsOpen: boolean;
  config: ServiceConfigReport;
  /** Extra routes (search, MCP, submissions) mounted before the static tree. */
  routes?: ((app: Hono) => void)[];
  /** Where unexpected errors are logged (default standard error). */
  logger?: Logger;
}

/**
 * Paths whose answers any origin may read (DESIGN.md section 5: "CORS * for read APIs"), the
 * Agent Skills discovery of each loadout included.
 */
export const READ_API_PATHS = ['/api/*', '/raw/*', '/download/*', '/mcp/server-card', '/.well-known/*', '/loadouts/:id/.well-known/*'];

/**
 * Builds the app. Pure apart from reading `distDir` on requests. An error a route throws is
 * answered 503 `database_unavailable` with `Retry-After` when the database threw it for a
 * known reason (`storage/database-failure.ts`: the reason is given, the driver's message only
 * logged, as for `/readyz`), else 500 `internal_error`; the error of a client that hung up
 * (`isClientHangUp`, observe.ts) is neither, and is logged only as the request's 499.
 */
export function createApp(deps: AppDependencies): Hono {
  const app = new Hono();
  // The route pattern that answered, for the request log and metrics (server/observe.ts).
  app.use('*', async (c, next) => {
    await next();
    noteRoute(c);
  });
  // The path is checked once, before any routing decision: a path with empty segments (`//raw/…`),
  // dot segments or encoded separators reaches no route, no file and no redirect (SECURITY.md).
  app.use('*', async (c, next) => {
    const pathname = rawPathname(c.req.url);
    if (decodePathSegments(pathname) === undefined) return problem(400, 'bad_path', `path ${JSON.stringify(pathname)} ${BAD_PATH_DETAIL}`);
    await next();
  });
  const readCors = cors({ origin: '*', allowMethods: ['GET', 'HEAD', 'OPTIONS'], exposeHeaders: ['ETag', 'Retry-After', 'Location'], maxAge: 86400 });
  for (const path of READ_API_PATHS) app.use(path, readCors);

  // The description document names one base URL, the one its tree was built for, as the tree's
  // pages and records do (issue 57, point 6: a tree built for another address mixed the two);
  // indented, as its static copy is, so that `curl … | head` reads it.
  app.get('/api/v1', async (c) => {
    const built = await readBuiltDescription(deps.distDir);
    const doc = describeApi(built.baseUrl ?? deps.baseUrl, deps.submissionsOpen, deps.config, built.extras);
    return c.body(`${JSON.stringify(doc, null, 2)}\n`, 200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
  });
  app.get('/api/v1/', (c) => c.redirect('/api/v1', 301));
  for (const mount of deps.routes ?? []) mount(app);

  const files = createStaticServer(deps.distDir);
  app.all('*', async (c) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD') {
      return problem(405, 'method_not_allowed', `${method} is not allowed on ${c.req.path} (expected GET or HEAD)`, { headers: { allow: 'GET, HEAD, OPTIONS' } });
    }
    return files.serve(c.req.raw, rawPathname(c.req.url));
  });

  app.notFound((c) => problem(404, 'not_found', `nothing at ${c.req.path}`));
  app.onError((error, c) => {
    // The client hung up (its request's own error, ECONNRESET like a lost database connection):
    // nobody reads the answer, and the request log records it as the 499 it is (observe.ts).
    if (isClientHangUp(error, c.env)) return new Response(null, { status: CLIENT_CLOSED_REQUEST });
    const reason = databaseFailureReason(error);
    const databaseDown = reason !== 'error';
    if (deps.logger === undefined) console.error(error);
    else if (databaseDown) deps.logger.warn({ err: error, reason }, 'a request failed: the database does not answer');
    else deps.logger.error({ err: error }, 'the app failed to answer');
    if (!databaseDown) return problem(500, 'internal_error', 'the server failed to answer (a bug); the error is logged');
    return problem(503, 'database_unavailable', `the database did not answer (${reason}; the cause is logged on the server); retry after ${DATABASE_RETRY_AFTER_SECONDS} seconds`, {
      headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
      extra: { reason },
    });
  });
  return app;
}

/** The path of a request URL as sent (still percent-encoded), without the query. */
export function rawPathname(url: string): string {
  const afterScheme = url.indexOf('//');
  const start = url.indexOf('/', afterScheme < 0 ? 0 : afterScheme + 2);
  if (start < 0) return '/';
  const end = url.slice(start).search(/[?#]/u);
  return end < 0 ? url.slice(start) : url.slice(start, start + end);
}
