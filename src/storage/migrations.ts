/**
 * The one set of migrations for SQLite and PostgreSQL (DESIGN.md section 6), kept in code so
 * that the compiled package carries them. Run at `loadout serve` start and by
 * `loadout db migrate`. A migration, once released, never changes: add a new one.
 */
import { Migrator, PostgresAdapter, sql, type DatabaseIntrospector, type Kysely, type Migration, type MigrationResultSet, type TableMetadata } from 'kysely';
import { LoadoutError } from '../catalogue/errors.js';
import type { Db } from './tables.js';

const MIGRATIONS: Record<string, Migration> = {
  '0001-submissions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('submissions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('loadout_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('submitter', 'text', (c) => c.notNull())
        .addColumn('contact_email', 'text')
        .addColumn('client_address', 'text', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('manifest', 'text', (c) => c.notNull())
        .addColumn('verification', 'text', (c) => c.notNull())
        .addColumn('pr_url', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('submissions_loadout_id').on('submissions').column('loadout_id').execute();
      await db.schema
        .createTable('submission_files')
        .addColumn('submission_id', 'text', (c) => c.notNull().references('submissions.id').onDelete('cascade'))
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('submission_files_pk', ['submission_id', 'path'])
        .execute();
      await db.schema
        .createTable('submission_events')
        .addColumn('submission_id', 'text', (c) => c.notNull().references('submissions.id').onDelete('cascade'))
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('from_status', 'text')
        .addColumn('to_status', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addPrimaryKeyConstraint('submission_events_pk', ['submission_id', 'seq'])
        .execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('prefix', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('last_used_at', 'text')
        .execute();
      await db.schema
        .createTable('form_token_nonces')
        .addColumn('nonce', 'text', (c) => c.primaryKey())
        .addColumn('used_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('rate_limit_windows')
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('window_start', 'text', (c) => c.notNull())
        .addColumn('hits', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('rate_limit_windows_pk', ['bucket', 'window_start'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['rate_limit_windows', 'form_token_nonces', 'api_keys', 'submission_events', 'submission_files', 'submissions']) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  },
  '0002-one-open-submission-per-loadout-id': {
    // Concurrent submissions for one loadout id on PostgreSQL could all pass the application's
    // check and store several open submissions (READ COMMITTED, PostgreSQL docs "Transaction
    // Isolation"). The database now refuses a second submission in an open state for a loadout
    // id. The states are written out here, not imported, because a released migration never
    // changes; the store's conflict target (OPEN_STATUSES in submission-store.ts) must name the
    // same ones.
    async up(db: Kysely<unknown>) {
      await rejectDuplicateOpenSubmissions(db);
      await db.schema
        .createIndex('submissions_open_loadout_id')
        .on('submissions')
        .column('loadout_id')
        .unique()
        .where(sql.ref('status'), 'in', ['pending-review', 'checks-failed', 'accepted', 'pr-opened'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('submissions_open_loadout_id').ifExists().execute();
    },
  },
  '0003-submission-capabilities': {
    // What a submitted loadout can run (issue 54, point 4): its capability list as the checks
    // derived it, JSON text like `verification`, shown on the status page and put in the pull
    // request. Null for the rows stored before, and when the checks made none.
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('submissions').addColumn('capabilities', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('submissions').dropColumn('capabilities').execute();
    },
  },
};

/**
 * Before the unique index can exist, each loadout id may have only one open submission. The
 * duplicates a race left behind are rejected, with an event that names the one kept: the one
 * furthest along (pr-opened, then accepted), then the oldest, which is the one a sequential
 * run would have stored. Their files and events stay for reviewers.
 */
async function rejectDuplicateOpenSubmissions(db: Kysely<unknown>): Promise<void> {
  const open = await sql<{ id: string; loadout_id: string; status: string; created_at: string }>`
    select id, loadout_id, status, created_at from submissions
    where status in ('pending-review', 'checks-failed', 'accepted', 'pr-opened')
    order by loadout_id, case status when 'pr-opened' then 0 when 'accepted' then 1 else 2 end, created_at, id`.execute(db);
  const kept = new Map<string, string>();
  const at = new Date().toISOString();
  for (const row of open.rows) {
    const keeper = kept.get(row.loadout_id);
    if (keeper === undefined) {
      kept.set(row.loadout_id, row.id);
      continue;
    }
    const last = await sql<{ seq: number | string | null }>`select max(seq) as seq from submission_events where submission_id = ${row.id}`.execute(db);
    const seq = Number(last.rows[0]?.seq ?? 0) + 1;
    const note = `duplicate of submission ${keeper} for loadout id "${row.loadout_id}", stored by concurrent requests before migration 0002 made the id unique among open submissions`;
    await sql`update submissions set status = 'rejected', updated_at = ${at} where id = ${row.id}`.execute(db);
    await sql`insert into submission_events (submission_id, seq, at, actor, from_status, to_status, note) values (${row.id}, ${seq}, ${at}, 'migration:0002', ${row.status}, 'rejected', ${note})`.execute(db);
  }
}

/** The names of all migrations, in order. */
export const MIGRATION_NAMES = Object.keys(MIGRATIONS).sort();

/**
 * Brings the database to the latest migration. Idempotent; safe to run from several
 * instances at once (Kysely's migrator takes a lock).
 *
 * On PostgreSQL, Kysely's own tables (`kysely_migration`, `kysely_migration_lock`) are named in
 * the connection's current schema (the first of its `search_path` that exists, where the
 * migrations create the catalogue's tables too). Left unnamed, Kysely asks whether they exist in
 * any schema of the database (its `Migrator`'s `#doesTableExist` matches by table name alone),
 * so a database where another schema held them (another application's, or a second catalogue's)
 * never had them created here, and migrating failed with `relation "kysely_migration_lock" does
 * not exist`. The Migrator is also given an introspection of that schema alone
 * ({@link scopedToSchema}).
 * @returns the names of the migrations this call applied (empty when already current).
 * @throws LoadoutError `io` naming the failed migration, with the driver's error as `cause`.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrationTableSchema = await currentSchemaOf(db);
  const provider = { getMigrations: () => Promise.resolve(MIGRATIONS) };
  const migrator = new Migrator(migrationTableSchema === undefined ? { db, provider } : { db: scopedToSchema(db, migrationTableSchema), provider, migrationTableSchema });
  const result: MigrationResultSet = await migrator.migrateToLatest();
  if (result.error !== undefined) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? 'the migration table';
    throw new LoadoutError('io', `database migration ${failed} failed: ${(result.error as Error).message}`, { cause: result.error });
  }
  return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * PostgreSQL's `current_schema()` for `db`'s connections: the schema unqualified tables are
 * created in. Undefined on SQLite (no schemas), or when no schema of the `search_path` exists.
 * @throws the driver's error when the query fails.
 */
async function currentSchemaOf(db: Db): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const result = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return result.rows[0]?.schema ?? undefined;
}

/**
 * `db` as Kysely's Migrator is given it on PostgreSQL: the same instance, whose introspection
 * lists the tables and views of `schema` alone, by name (their columns are not read: the
 * Migrator asks only whether its own tables exist).
 *
 * Kysely's PostgreSQL introspector reads every table of the database, calling
 * `pg_get_serial_sequence` on each column of each by its name (kysely-org/kysely#1419; the
 * Migrator's `#doesTableExist` still does so on Kysely's main branch, 2026-11-28). A schema or
 * table that another session drops meanwhile makes that call fail ("schema … does not exist",
 * SQLSTATE 3F000), and so the migration: 12 of 40 migrations failed while another session
 * created and dropped schemas, as the tests do beside each other and as a second catalogue's
 * clean-up may in a shared database. This query reads the catalogue tables only, and calls no
 * function on a name.
 */
function scopedToSchema(db: Db, schema: string): Db {
  const getTables = async (): Promise<TableMetadata[]> => {
    const rows = await sql<{ name: string; view: boolean }>`select c.relname as name, c.relkind = 'v' as view
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v')`.execute(db);
    return rows.rows.map((row) => ({ name: row.name, schema, isView: row.view, columns: [] }));
  };
  const introspection: DatabaseIntrospector = {
    getSchemas: () => db.introspection.getSchemas(),
    getTables,
    getMetadata: async () => ({ tables: await getTables() }),
  };
  // Kysely's methods read private fields, so they are called on `db` itself.
  return new Proxy(db, {
    get(target, key) {
      if (key === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
