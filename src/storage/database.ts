/**
 * Opening the submissions database from `DATABASE_URL` (DESIGN.md sections 2 and 6):
 * `sqlite:<file>` (default `sqlite:data/catalogue.db`; the folder is created) through
 * better-sqlite3, or `postgres://…` / `postgresql://…` through pg. Both behind one Kysely
 * instance, so stores and migrations are written once.
 *
 * The SQLite files hold contact e-mails and client addresses: the folder the database creates
 * is 0700 and `catalogue.db`, `-wal` and `-shm` are 0600, whatever the process umask
 * (SECURITY.md).
 */
import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import pg from 'pg';
import { LoadoutError } from '../catalogue/errors.js';
import { databaseFailureReason } from './database-failure.js';
import { openSqliteHandle, runPragma } from './sqlite-handle.js';
import type { Db } from './tables.js';

/** Which engine a database runs on. */
export type DatabaseKind = 'sqlite' | 'postgres';

/** An open database. `close()` releases the file or the pool. */
export interface Database {
  kind: DatabaseKind;
  db: Db;
  /** For messages: the file path (SQLite) or the URL without its password (PostgreSQL). */
  label: string;
  close(): Promise<void>;
}

/** Options of {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** PostgreSQL only: the schema to use (`search_path`), e.g. a per-test schema. Must exist. */
  schema?: string;
  /** Folder that relative SQLite paths are resolved against (default: the current folder). */
  cwd?: string;
}

/** True when `url` names no database: empty or `none` (submissions are then closed). */
export function isNoDatabase(url: string): boolean {
  return url.trim() === '' || url.trim() === 'none';
}

/**
 * Opens (and for SQLite creates) the database named by `url`. Does not migrate: call
 * `migrateToLatest` next.
 * @throws LoadoutError `config` when the URL has another scheme, `io` when the file cannot
 *   be created or opened.
 */
export function openDatabase(url: string, options: OpenDatabaseOptions = {}): Database {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), options.cwd ?? process.cwd());
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url, options.schema);
  throw new LoadoutError('config', `DATABASE_URL is ${JSON.stringify(redact(url))} (expected sqlite:<file> or postgres://user@host:port/database)`);
}

function openSqlite(path: string, cwd: string): Database {
  const file = path.startsWith('//') ? path.slice(2) : path;
  if (file === '') throw new LoadoutError('config', 'DATABASE_URL is "sqlite:" with no file (expected sqlite:<file>, e.g. sqlite:data/catalogue.db)');
  const memory = file === ':memory:';
  const absolute = memory ? file : resolve(cwd, file);
  let sqlite: BetterSqlite3.Database;
  try {
    if (!memory) {
      ensurePrivateFolder(dirname(absolute));
      // SQLite would create the file 0644 less the umask. Created (or tightened) 0600 first, it
      // passes its mode on: SQLite creates `-wal` and `-shm` with the database file's mode
      // (os_unix.c, findCreateFileMode and unixOpenSharedMemory).
      ensurePrivateFile(absolute);
      for (const suffix of SQLITE_SIDE_FILES) tightenIfPresent(absolute + suffix);
    }
    sqlite = openSqliteHandle(absolute);
    // WAL lets readers run beside the writer; the busy timeout makes a second process wait
    // for the lock instead of failing at once.
    runPragma(sqlite, 'journal_mode = WAL');
    runPragma(sqlite, 'busy_timeout = 5000');
    runPragma(sqlite, 'foreign_keys = ON');
    if (!memory) {
      // The first read in WAL mode creates `-wal` and `-shm`; made here, they are checked here
      // rather than appearing later with whatever mode.
      sqlite.prepare('SELECT count(*) FROM sqlite_schema').get();
      for (const suffix of SQLITE_SIDE_FILES) tightenIfPresent(absolute + suffix);
    }
  } catch (cause) {
    throw new LoadoutError('io', `cannot open the SQLite database ${absolute}: ${(cause as Error).message}`, { cause });
  }
  const db: Db = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
  return { kind: 'sqlite', db, label: absolute, close: () => db.destroy() };
}

/** The most connections a PostgreSQL pool opens (node-postgres `Pool` `max`). */
const POOL_MAX = 10;

/**
 * Asks `db` for `select 1` (the readiness probe's question, server/health.ts). A failure that
 * says the connection was lost (`unavailable` or `unreachable`, storage/database-failure.ts) is
 * asked again, up to one more time than the pool has connections: a pool hands out idle
 * connections that the server ended (`pg_terminate_backend`, a restart) until it notices, and it
 * drops each on its error, so a later try opens a new one and says how the database answers now.
 * Whether the pool notices first depends on the order of I/O events: a busy process reads the
 * ends after the next query (seen in a full test run on Node 22; test/storage/ping.test.ts holds
 * the event loop to make it so). Each such try fails at once; a server that is down fails each
 * at once too.
 * @throws the driver's error of the last try.
 */
export async function pingDatabase(db: Db): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      await sql`select 1`.execute(db);
      return;
    } catch (error) {
      const reason = databaseFailureReason(error);
      if ((reason !== 'unavailable' && reason !== 'unreachable') || tries > POOL_MAX) throw error;
    }
  }
}

/** The files SQLite keeps beside a database in WAL mode (sqlite.org/wal.html). */
const SQLITE_SIDE_FILES = ['-wal', '-shm'];

/**
 * Creates folder `path` and any missing parents, each created one with mode 0700 whatever the
 * umask (a chmod after the mkdir, since the umask can clear bits of `mode`). A folder that
 * already exists is left as it is: it may be shared, such as `/tmp` or a mounted volume.
 * @throws the `fs` error when a folder cannot be created.
 */
export function ensurePrivateFolder(path: string): void {
  const target = resolve(path);
  const first = mkdirSync(target, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  for (let folder = target; ; folder = dirname(folder)) {
    chmodSync(folder, 0o700);
    if (folder === resolve(first) || dirname(folder) === folder) return;
  }
}

/**
 * Creates file `path` empty with mode 0600 if it is missing, or sets an existing file to 0600,
 * whatever the umask. Never truncates. @throws the `fs` error when it cannot.
 */
export function ensurePrivateFile(path: string): void {
  const fd = openSync(path, 'a', 0o600);
  try {
    fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}

/** Sets `path` to mode 0600 when it exists. */
function tightenIfPresent(path: string): void {
  if (existsSync(path)) chmodSync(path, 0o600);
}

function openPostgres(url: string, schema: string | undefined): Database {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/u.test(schema)) {
    throw new LoadoutError('config', `schema ${JSON.stringify(schema)} is not a plain identifier (expected lowercase letters, digits and _)`);
  }
  const pool = new pg.Pool({ connectionString: url, max: POOL_MAX, ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }) });
  // A client that loses its connection emits 'error': on the pool while it is idle, and on the
  // client itself while it is checked out, where pg-pool listens for nothing. Kysely holds a
  // client between the queries of a transaction or of `db.connection()`, so without a listener
  // of our own a PostgreSQL restart there would crash the process. The error also fails the
  // query in flight, if any; the next query on that client fails with "not queryable", and the
  // pool drops the client when it is released and hands the next query a fresh one.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db: Db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  return { kind: 'postgres', db, label: redact(url), close: () => db.destroy() };
}

/** `url` with its password replaced by `***`. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@/]*@/u, '//$1:***@');
}
