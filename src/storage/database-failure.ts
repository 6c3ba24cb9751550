/**
 * Why the database did not answer, as a short stable code that may be shown to anyone (the
 * readiness probe's answer), while the driver's message, which names roles, databases, hosts
 * and files, goes to the server's log only (SECURITY.md: server configuration is logged, not
 * sent to the client).
 *
 * Sources: PostgreSQL's SQLSTATE codes (PostgreSQL manual, Appendix A "PostgreSQL Error
 * Codes", https://www.postgresql.org/docs/current/errcodes-appendix.html), as node-postgres
 * sets them on `error.code`; SQLite's result codes (https://www.sqlite.org/rescode.html), as
 * better-sqlite3 sets them on `error.code` (`SQLITE_…`); Node's system error codes for sockets
 * (https://nodejs.org/api/errors.html#common-system-errors).
 */

/** The reasons, stable and documented in docs/deploying.md ("Health"). */
export const DATABASE_FAILURE_REASONS = ['not_open', 'timeout', 'unreachable', 'auth_failed', 'no_database', 'too_many_connections', 'unavailable', 'corrupt', 'busy', 'storage_error', 'error'] as const;
/** One of {@link DATABASE_FAILURE_REASONS}. */
export type DatabaseFailureReason = (typeof DATABASE_FAILURE_REASONS)[number];

/** The error a ping throws when the database is not open (yet, or any more). */
export class DatabaseNotOpenError extends Error {
  constructor(message = 'the database is not open') {
    super(message);
    this.name = 'DatabaseNotOpenError';
  }
}

/** The error a ping throws when the database did not answer within its time. */
export class DatabaseTimeoutError extends Error {
  constructor(ms: number) {
    super(`the database did not answer within ${ms} ms`);
    this.name = 'DatabaseTimeoutError';
  }
}

/** PostgreSQL SQLSTATE → reason (Appendix A: classes 08, 28, 3D, 53, 57). */
const POSTGRES: Record<string, DatabaseFailureReason> = {
  '28000': 'auth_failed', // invalid_authorization_specification: no such role, or NOLOGIN
  '28P01': 'auth_failed', // invalid_password
  '3D000': 'no_database', // invalid_catalog_name
  '53300': 'too_many_connections',
  '57P01': 'unavailable', // admin_shutdown
  '57P02': 'unavailable', // crash_shutdown
  '57P03': 'unavailable', // cannot_connect_now (starting up, recovery)
  '53100': 'storage_error', // disk_full
};

/**
 * Node's socket errors that mean the server could not be reached. The code alone does not say
 * whose socket failed: Node fails the request of an HTTP client that hung up with ECONNRESET
 * too, so the app asks first whether an error is its client's (`isClientHangUp`,
 * server/observe.ts) and only then for a reason here.
 */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE']);

/** SQLite primary result code (the part before any `_` extension) → reason. */
const SQLITE: Record<string, DatabaseFailureReason> = {
  SQLITE_CORRUPT: 'corrupt',
  SQLITE_NOTADB: 'corrupt',
  SQLITE_BUSY: 'busy',
  SQLITE_LOCKED: 'busy',
  SQLITE_IOERR: 'storage_error',
  SQLITE_CANTOPEN: 'storage_error',
  SQLITE_READONLY: 'storage_error',
  SQLITE_FULL: 'storage_error',
  SQLITE_PERM: 'storage_error',
};

/**
 * The reason `error`, thrown by a query or a connection attempt, stands for: a known code of
 * the driver or the system, else `error`. Never throws.
 */
export function databaseFailureReason(error: unknown): DatabaseFailureReason {
  if (error instanceof DatabaseNotOpenError) return 'not_open';
  if (error instanceof DatabaseTimeoutError) return 'timeout';
  const code = codeOf(error);
  if (code !== undefined) {
    const postgres = POSTGRES[code];
    if (postgres !== undefined) return postgres;
    if (code.startsWith('08')) return 'unreachable'; // class 08: connection exception
    if (UNREACHABLE.has(code)) return 'unreachable';
    const sqlite = SQLITE[/^SQLITE_[A-Z]+/u.exec(code)?.[0] ?? ''];
    if (sqlite !== undefined) return sqlite;
  }
  const message = error instanceof Error ? error.message : '';
  // Kysely refuses queries on a destroyed instance, and better-sqlite3 on a closed handle, with
  // no code; node-postgres says "Connection terminated" without a code when the server drops the
  // socket, and "… is not queryable" for the next query on a client whose connection was lost.
  if (/driver has already been destroyed|database connection is not open/iu.test(message)) return 'not_open';
  if (/connection terminated|connection ended|server closed the connection|is not queryable/iu.test(message)) return 'unreachable';
  return 'error';
}

/** `error.code` when it is a string; an AggregateError (several addresses refused) gives its first error's. */
function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (error instanceof AggregateError) return codeOf(error.errors[0]);
  return undefined;
}
