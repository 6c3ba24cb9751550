/** `loadout db migrate`: brings the database named by DATABASE_URL to the latest migration. */
import { LoadoutError } from '../../catalogue/errors.js';
import { isNoDatabase, openDatabase, type Database } from '../../storage/database.js';
import { migrateToLatest } from '../../storage/migrations.js';
import { EXIT } from '../exit.js';
import type { Write } from '../report.js';

/** Options of the `db` commands. */
export interface DbOptions {
  databaseUrl: string;
}

/**
 * Opens and migrates the database, runs `work`, and closes it again.
 * @throws LoadoutError `config` when DATABASE_URL names no database.
 */
export async function withDatabase<T>(databaseUrl: string, work: (database: Database, applied: string[]) => Promise<T>): Promise<T> {
  if (isNoDatabase(databaseUrl)) throw new LoadoutError('config', 'DATABASE_URL names no database', { hint: 'Unset it for the default sqlite:data/catalogue.db, or set postgres://….' });
  const database = openDatabase(databaseUrl);
  try {
    const applied = await migrateToLatest(database.db);
    return await work(database, applied);
  } finally {
    await database.close();
  }
}

/** `loadout db migrate`: prints each migration it applied, or that none was needed. */
export async function dbMigrateCommand(options: DbOptions, out: Write): Promise<number> {
  return withDatabase(options.databaseUrl, async (database, applied) => {
    out(applied.length === 0 ? `${database.label}: up to date\n` : applied.map((name) => `${database.label}: applied ${name}\n`).join(''));
    return EXIT.ok;
  });
}
