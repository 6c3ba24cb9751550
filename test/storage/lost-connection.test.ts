import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { makeTempDir } from '../helpers/temp.js';
import { describeWith, NEEDS_POSTGRES } from '../run/requirements.js';

const TSX = new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url).pathname;
const STORAGE = new URL('../../src/storage/', import.meta.url).pathname;
const resolvePackage = createRequire(import.meta.url).resolve;
const PG = process.env['TEST_DATABASE_URL'] ?? '';

/**
 * Runs `body` in a child process that has opened the PostgreSQL database as the server does,
 * then runs one more query on the database and prints its answer (`next query: 1`). `body` may
 * call `endBackend(connection)`, which ends the backend of a held connection from another
 * connection and waits until the end has been read, and `reasonOf(promise)`, which gives
 * `answered` or the failure's reason (storage/database-failure.ts). A child, since the failure
 * this guards against is an uncaught 'error' event that ends the process.
 */
function runChild(body: string): { status: number | null; stdout: string; stderr: string } {
  const script = join(makeTempDir(), 'lost.mts');
  writeFileSync(script, `import { sql } from ${JSON.stringify(resolvePackage('kysely'))};
import pg from ${JSON.stringify(resolvePackage('pg'))};
import { openDatabase } from ${JSON.stringify(join(STORAGE, 'database.ts'))};
import { databaseFailureReason } from ${JSON.stringify(join(STORAGE, 'database-failure.ts'))};
const url = ${JSON.stringify(PG)};
const database = openDatabase(url);
const endBackend = async (connection) => {
  const pid = (await sql\`select pg_backend_pid() as pid\`.execute(connection)).rows[0].pid;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('select pg_terminate_backend($1)', [pid]);
  await admin.end();
  await new Promise((resolve) => setTimeout(resolve, 300));
};
const reasonOf = (promise) => promise.then(() => 'answered', (error) => databaseFailureReason(error));
${body}
console.log('next query:', (await sql\`select 1 as one\`.execute(database.db)).rows[0].one);
await database.close();
`);
  const run = spawnSync(process.execPath, [TSX, script], { encoding: 'utf8', timeout: 60_000, cwd: STORAGE });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr.slice(0, 2000) };
}

// The server's process must outlive PostgreSQL ending a connection that a request holds
// between two queries (a restart, pg_terminate_backend, an idle-in-transaction timeout):
// node-postgres emits 'error' on a checked-out client, where pg-pool listens for nothing.
describeWith(NEEDS_POSTGRES)('a PostgreSQL connection lost while a request holds it', () => {
  // Kysely holds one connection through both; the query on it after the end fails, the process
  // goes on, and the next query on the database gets a fresh connection.
  it.each([
    { holder: 'held', open: 'database.db.connection()' },
    { holder: 'transaction', open: 'database.db.transaction()' },
  ])('fails the next query of a $holder connection as unreachable, and the query after that gets a fresh connection', ({ holder, open }) => {
    const run = runChild(`console.log('${holder}:', await reasonOf(${open}.execute(async (connection) => {
  await endBackend(connection);
  await sql\`select 1\`.execute(connection);
})));`);
    expect(run).toEqual({ status: 0, stdout: `${holder}: unreachable\nnext query: 1\n`, stderr: '' });
  });
});
