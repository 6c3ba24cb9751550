import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { pingDatabase } from '../../src/storage/database.js';
import { adminQuery, openTestDatabase } from './databases.js';
import { itWith, NEEDS_POSTGRES } from '../run/requirements.js';

const PG = process.env['TEST_DATABASE_URL'] ?? '';

describe('pingDatabase', () => {
  it('answers on SQLite', async () => {
    const database = await openTestDatabase('sqlite', { migrate: false });
    await expect(pingDatabase(database.db)).resolves.toBeUndefined();
  });

  // The readiness probe after an operator ended the server's connections: the pool still holds
  // them as idle until it reads their end, which a busy server does after the next query.
  itWith(NEEDS_POSTGRES)('answers on PostgreSQL when the server has ended every idle connection of the pool', async () => {
    const database = await openTestDatabase('postgres', { migrate: false });
    for (let round = 0; round < 5; round++) {
      // Four connections in the pool, each with its backend's pid.
      const pids = await Promise.all(
        Array.from({ length: 4 }, async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.02)`.execute(database.db)).rows[0]?.pid),
      );
      expect(new Set(pids).size, `round ${round}`).toBe(4);
      await adminQuery(PG, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid IN (${pids.join(', ')})`);
      // The ends arrive while the event loop is held, as on a busy server: the pool has not read
      // them when the ping takes a connection.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
      await expect(pingDatabase(database.db), `round ${round}`).resolves.toBeUndefined();
    }
  });
});
