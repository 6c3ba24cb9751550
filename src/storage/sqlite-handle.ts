/**
 * Opening a better-sqlite3 database so that none of its objects is ever garbage-collected.
 *
 * better-sqlite3 12 (the last line that builds for Node 20; 13 needs Node 22) wraps its
 * databases and statements in `node::ObjectWrap`, whose destructor on Node 24 removes an
 * environment cleanup hook and asserts that a Node environment is current. A garbage collection
 * that frees such an object outside a JavaScript context aborts the process: "Assertion failed:
 * (env) != nullptr" in `node::RemoveEnvironmentCleanupHook`, from `Statement::~Statement` or
 * `Database::~Database` (WiseLibs/better-sqlite3#1515, closed without a fix for 12). Measured
 * here on Node 24.21.0: 2,000 `prepare` calls a turn of the event loop abort within 200 turns,
 * and so did `loadout serve`'s test suite; Node 20 and 22 are not affected.
 *
 * So each database keeps its prepared statements, one per SQL text (Kysely's SqliteDialect
 * prepares each query it runs; our queries are a bounded set of texts), and every database
 * opened stays reachable until the process ends, closed or not, with its statements: their
 * sqlite3 handles are freed by `close()`, and what stays is a few hundred bytes of JavaScript
 * objects a database. Reusing prepared statements is also what better-sqlite3's documentation
 * recommends. Do not call better-sqlite3's `pragma()` or `transaction()` on such a database:
 * they prepare statements on the native object, past this cache ({@link runPragma}).
 */
import BetterSqlite3 from 'better-sqlite3';

/** Every database opened by {@link openSqliteHandle} in this process (see the module comment). */
const OPENED: BetterSqlite3.Database[] = [];

/**
 * Opens the SQLite database at `path` (`:memory:` for one in memory) with better-sqlite3 and
 * `options`, its `prepare` answering the same SQL text with the same statement.
 * @throws better-sqlite3's error when the file cannot be opened (`SQLITE_CANTOPEN`, `SQLITE_NOTADB`, …).
 */
export function openSqliteHandle(path: string, options?: BetterSqlite3.Options): BetterSqlite3.Database {
  const database = new BetterSqlite3(path, options);
  OPENED.push(database);
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepare = database.prepare.bind(database);
  database.prepare = ((source: string) => {
    let statement = statements.get(source);
    if (statement === undefined) {
      statement = prepare(source);
      statements.set(source, statement);
    }
    return statement;
  }) as BetterSqlite3.Database['prepare'];
  return database;
}

/**
 * Runs `PRAGMA <text>` on `database` through its `prepare`, so that the statement is kept like
 * the others: better-sqlite3's own `pragma()` prepares on its native object directly
 * (lib/methods/pragma.js), out of reach of {@link openSqliteHandle}.
 * @returns the rows the pragma answers (none for most settings).
 */
export function runPragma(database: BetterSqlite3.Database, text: string): unknown[] {
  const statement = database.prepare(`PRAGMA ${text}`);
  if (statement.reader) return statement.all();
  statement.run();
  return [];
}
