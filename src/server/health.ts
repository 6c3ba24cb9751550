/**
 * Health endpoints for orchestrators and load balancers (the liveness and readiness probes of
 * Kubernetes' "Configure Liveness, Readiness and Startup Probes"): `GET /healthz` answers 200
 * while the process runs; `GET /readyz` answers 200 once the tree is loaded and the database
 * answers, else 503 with a problem naming what is not ready. Neither touches the rate limits
 * (they are answered before any other route) nor is cached.
 *
 * Anyone can ask `/readyz`, so a database failure is answered with a reason code alone
 * (storage/database-failure.ts); the driver's message, which names roles, databases and hosts,
 * is logged (SECURITY.md: server configuration is logged, not sent to the client).
 */
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import { databaseFailureReason, DatabaseTimeoutError } from '../storage/database-failure.js';
import { problem } from './problem.js';

/** What readiness depends on. */
export interface ReadinessChecks {
  /** True once a tree is loaded and served. */
  treeLoaded(): boolean;
  /**
   * Resolves when the database answers; rejects (with why) when it does not. Undefined when the
   * server runs without a database (submissions closed): then it is not waited for.
   */
  pingDatabase?: () => Promise<void>;
}

/** How long (ms) `/readyz` waits for the database before calling it not ready. */
const PING_TIMEOUT_MS = 2_000;

/**
 * Mounts `/healthz` and `/readyz` on `app`. A database that does not answer is named in the
 * problem's `errors` as `{pointer: "/database", reason, message}`, `reason` one of
 * storage/database-failure.ts `DATABASE_FAILURE_REASONS`; the error itself is logged on
 * `logger` at `warn` with the same reason.
 */
export function mountHealth(app: Hono, checks: ReadinessChecks, logger?: Logger): void {
  const headers = { 'cache-control': 'no-store' };
  app.get('/healthz', (c) => c.json({ status: 'ok' }, 200, headers));
  app.get('/readyz', async (c) => {
    const missing: { pointer: string; message: string; reason?: string }[] = [];
    if (!checks.treeLoaded()) missing.push({ pointer: '/tree', message: 'the built tree is not loaded yet' });
    if (checks.pingDatabase !== undefined) {
      const reason = await withTimeout(checks.pingDatabase(), PING_TIMEOUT_MS).then(
        () => undefined,
        (error: unknown) => {
          const code = databaseFailureReason(error);
          logger?.warn({ reason: code, err: error }, 'readiness: the database does not answer');
          return code;
        },
      );
      if (reason !== undefined) missing.push({ pointer: '/database', reason, message: `the database does not answer (${reason}; the cause is logged on the server)` });
    }
    if (missing.length === 0) return c.json({ status: 'ready' }, 200, headers);
    return problem(503, 'not_ready', `not ready: ${missing.map((m) => m.message).join('; ')}`, { headers, extra: { errors: missing } });
  });
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseTimeoutError(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
