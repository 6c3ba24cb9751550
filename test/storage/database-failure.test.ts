import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteHandle } from '../../src/storage/sqlite-handle.js';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { databaseFailureReason, DatabaseNotOpenError, DatabaseTimeoutError } from '../../src/storage/database-failure.js';
import { makeTempDir } from '../helpers/temp.js';
import { itWith, NEEDS_POSTGRES } from '../run/requirements.js';

const PG = process.env['TEST_DATABASE_URL'] ?? '';

/** The error `run` throws (or rejects with). */
async function errorOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('databaseFailureReason', () => {
  it('names the reasons of errors the drivers really throw', async () => {
    const garbage = join(makeTempDir('loadout-failure-'), 'not-a-database.db');
    writeFileSync(garbage, Buffer.alloc(8192, 7));
    expect(databaseFailureReason(await errorOf(() => openSqliteHandle(garbage).prepare('SELECT count(*) FROM sqlite_schema').get()))).toBe('corrupt');
    const closed = openSqliteHandle(':memory:');
    closed.close();
    expect(databaseFailureReason(await errorOf(() => closed.prepare('SELECT 1').get()))).toBe('not_open');
    // Nothing listens on port 1 of this machine.
    expect(databaseFailureReason(await errorOf(() => new pg.Client({ host: '127.0.0.1', port: 1 }).connect()))).toBe('unreachable');
    expect(databaseFailureReason(new DatabaseNotOpenError())).toBe('not_open');
    expect(databaseFailureReason(new DatabaseTimeoutError(2000))).toBe('timeout');
    expect(databaseFailureReason(new Error('something else'))).toBe('error');
    expect(databaseFailureReason('not even an error')).toBe('error');
  });

  itWith(NEEDS_POSTGRES)('names a role that does not exist and a database that does not exist on the real PostgreSQL', async () => {
    const connect = async (change: (url: URL) => void): Promise<unknown> => {
      const url = new URL(PG);
      change(url);
      const client = new pg.Client({ connectionString: url.toString() });
      return errorOf(() => client.connect());
    };
    expect(databaseFailureReason(await connect((u) => void (u.username = 'no_such_role_for_readiness')))).toBe('auth_failed');
    expect(databaseFailureReason(await connect((u) => void (u.pathname = '/no_such_database_for_readiness')))).toBe('no_database');
  });
});
