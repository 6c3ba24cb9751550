/**
 * The databases every storage and submissions test runs on: a real SQLite file in a
 * temporary folder, and the local PostgreSQL when TEST_DATABASE_URL is set (`.ci/run` sets
 * it, and the global setup when PostgreSQL answers on 127.0.0.1:5432). Each PostgreSQL test gets its own schema, dropped when the test ends, so that runs and
 * test files never collide.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { onTestFinished } from 'vitest';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrations.js';
import { makeTempDir } from '../helpers/temp.js';
import { NEEDS_POSTGRES } from '../run/requirements.js';

/**
 * The kinds to run on, each with the requirement its tests are declared with (a suite of
 * `describe.each` calls `requires(requirement)`): PostgreSQL is skipped only when
 * TEST_DATABASE_URL is unset or empty (test/run/global-setup.ts sets it when the local one answers).
 */
export const DATABASE_KINDS = [
  { kind: 'sqlite' as const, skip: false, requirement: undefined },
  { kind: 'postgres' as const, skip: !NEEDS_POSTGRES.met, requirement: NEEDS_POSTGRES },
];

/** The kind of a test database. */
export type TestDatabaseKind = (typeof DATABASE_KINDS)[number]['kind'];

/** Opens a fresh, migrated database of `kind`, closed (and dropped) when the test finishes. */
export async function openTestDatabase(kind: TestDatabaseKind, options: { migrate?: boolean } = {}): Promise<Database> {
  let database: Database;
  if (kind === 'sqlite') {
    database = openDatabase(`sqlite:${join(makeTempDir('loadout-db-'), 'catalogue.db')}`);
    onTestFinished(() => database.close());
  } else {
    const url = process.env['TEST_DATABASE_URL'] ?? '';
    const schema = `t_${randomBytes(6).toString('hex')}`;
    await adminQuery(url, `CREATE SCHEMA ${schema}`);
    database = openDatabase(url, { schema });
    onTestFinished(async () => {
      await database.close();
      await adminQuery(url, `DROP SCHEMA ${schema} CASCADE`);
    });
  }
  if (options.migrate !== false) await migrateToLatest(database.db);
  return database;
}

/** Runs one statement on its own connection (schema management). */
export async function adminQuery(url: string, statement: string, schema?: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }) });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
