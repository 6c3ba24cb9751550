/**
 * The SQLite database and the generated secrets are private whatever the umask: folders the
 * server creates are 0700, `catalogue.db`, `-wal`, `-shm` and the secret files 0600. Run with
 * umask 000, the most permissive, on real files.
 */
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrations.js';
import { CHALLENGE_SECRET_FILE, FORM_TOKEN_SECRET_FILE, readOrCreateSecret } from '../../src/submissions/setup.js';
import { makeTempDir } from '../helpers/temp.js';

/** Sets the process umask to 000 until the test ends (vitest runs this file in a fork). */
function openUmask(): void {
  const previous = process.umask(0o000);
  onTestFinished(() => {
    process.umask(previous);
  });
}

/** The permission bits of `path`, in octal. */
const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

describe('SQLite file modes', () => {
  it('creates the folders 0700 and catalogue.db, -wal and -shm 0600 under umask 000', async () => {
    openUmask();
    const root = makeTempDir('loadout-perm-');
    const file = join(root, 'data', 'nested', 'catalogue.db');
    const database = openDatabase(`sqlite:${file}`);
    onTestFinished(() => database.close());
    // The side files exist from the open on, before any write.
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(path), path).toBe('600');
    await migrateToLatest(database.db);
    await sql`SELECT count(*) FROM submissions`.execute(database.db);
    expect(modeOf(join(root, 'data'))).toBe('700');
    expect(modeOf(join(root, 'data', 'nested'))).toBe('700');
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(path), path).toBe('600');
    // The folder the test made itself is not the database's to change.
    expect(modeOf(root)).toBe('700');
  });

  it('keeps the side files 0600 when SQLite recreates them after the last connection closed', async () => {
    openUmask();
    const file = join(makeTempDir('loadout-perm-'), 'catalogue.db');
    const first = openDatabase(`sqlite:${file}`);
    await migrateToLatest(first.db);
    await first.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    const second = openDatabase(`sqlite:${file}`);
    onTestFinished(() => second.close());
    await sql`CREATE TABLE probe (x INTEGER)`.execute(second.db);
    await sql`INSERT INTO probe VALUES (1)`.execute(second.db);
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(path), path).toBe('600');
  });

  it('tightens files an earlier version left readable, and leaves an existing folder alone', async () => {
    openUmask();
    const folder = join(makeTempDir('loadout-perm-'), 'shared');
    mkdirSync(folder);
    chmodSync(folder, 0o755);
    const file = join(folder, 'catalogue.db');
    const setUp = openDatabase(`sqlite:${file}`);
    await migrateToLatest(setUp.db);
    await setUp.close();
    for (const path of [file, `${file}-wal`, `${file}-shm`]) writeFileSync(path, '', { flag: 'a' });
    for (const path of [file, `${file}-wal`, `${file}-shm`]) chmodSync(path, 0o644);
    const database = openDatabase(`sqlite:${file}`);
    onTestFinished(() => database.close());
    for (const path of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(path), path).toBe('600');
    expect(modeOf(folder)).toBe('755');
  });
});

describe('generated secret modes', () => {
  it('creates the data folder 0700 and the secret files 0600 under umask 000', () => {
    openUmask();
    const dataDir = join(makeTempDir('loadout-perm-'), 'data');
    readOrCreateSecret(dataDir);
    readOrCreateSecret(dataDir, CHALLENGE_SECRET_FILE, 'CHALLENGE_SECRET');
    expect(modeOf(dataDir)).toBe('700');
    expect(modeOf(join(dataDir, FORM_TOKEN_SECRET_FILE))).toBe('600');
    expect(modeOf(join(dataDir, CHALLENGE_SECRET_FILE))).toBe('600');
  });

  it('tightens a secret file left readable by others', () => {
    openUmask();
    const dataDir = makeTempDir('loadout-perm-');
    const file = join(dataDir, FORM_TOKEN_SECRET_FILE);
    writeFileSync(file, `${'a'.repeat(64)}\n`, { mode: 0o644 });
    expect(modeOf(file)).toBe('644');
    expect(readOrCreateSecret(dataDir)).toBe('a'.repeat(64));
    expect(modeOf(file)).toBe('600');
  });
});
