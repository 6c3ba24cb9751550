/**
 * `loadout keys create/list/revoke`, `loadout db migrate` and `loadout submissions
 * list/show/accept/reject` on a real SQLite file (the stores themselves run on both databases
 * in test/storage). One run goes through the real CLI entry point.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dbMigrateCommand } from '../../src/cli/commands/db.js';
import { keysCreateCommand, keysListCommand, keysRevokeCommand } from '../../src/cli/commands/keys.js';
import { submissionsDecideCommand, submissionsListCommand, submissionsShowCommand } from '../../src/cli/commands/submissions.js';
import { openDatabase } from '../../src/storage/database.js';
import { createStores } from '../../src/storage/stores.js';
import { authenticateApiKey } from '../../src/submissions/api-key.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp.js';

function collector(): { write: (text: string) => void; text: () => string } {
  let buffer = '';
  return { write: (t) => void (buffer += t), text: () => buffer };
}

describe('keys and db commands', () => {
  it('creates a key, prints it once, lists and revokes it', async () => {
    const url = `sqlite:${join(makeTempDir(), 'catalogue.db')}`;
    const out = collector();
    expect(await keysCreateCommand({ databaseUrl: url, name: 'ci agent' }, out.write)).toBe(0);
    const key = out.text().split('\n')[0] ?? '';
    expect(key).toMatch(/^lk_[0-9a-f]{12}_/);
    const id = key.slice(0, 15);
    const list = collector();
    await keysListCommand({ databaseUrl: url, json: true }, list.write);
    const rows = JSON.parse(list.text()) as Record<string, unknown>[];
    expect(rows).toEqual([{ id, name: 'ci agent', created_at: expect.any(String) as unknown, last_used_at: null, revoked_at: null }]);
    expect(list.text()).not.toContain(key.slice(16));

    const database = openDatabase(url);
    try {
      expect((await authenticateApiKey(createStores(database).keys, key, new Date())).ok).toBe(true);
    } finally {
      await database.close();
    }
    const err = collector();
    expect(await keysRevokeCommand({ databaseUrl: url, id }, collector().write, err.write)).toBe(0);
    expect(await keysRevokeCommand({ databaseUrl: url, id }, collector().write, err.write)).toBe(1);
    expect(err.text()).toMatch(/already revoked/);
    await expect(keysRevokeCommand({ databaseUrl: url, id: 'nope' }, collector().write, err.write)).rejects.toThrow(/malformed/);
  });

  it('runs through the real CLI: keys create on a fresh machine creates data/catalogue.db', async () => {
    const dir = makeTempDir();
    const created = await runCli(['keys', 'create', '--name', 'agent'], dir, { DATABASE_URL: 'sqlite:data/catalogue.db' });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^lk_[0-9a-f]{12}_\S{43}\n/);
    expect(existsSync(join(dir, 'data', 'catalogue.db'))).toBe(true);
    const migrated = await runCli(['db', 'migrate'], dir, { DATABASE_URL: 'sqlite:data/catalogue.db' });
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toMatch(/up to date/);
  });

  it('migrates a new database and says so', async () => {
    const out = collector();
    expect(await dbMigrateCommand({ databaseUrl: `sqlite:${join(makeTempDir(), 'x.db')}` }, out.write)).toBe(0);
    expect(out.text()).toMatch(/applied 0001-submissions/);
  });
});

describe('submissions commands', () => {
  it('lists, shows, accepts and rejects submissions, recording the maintainer', async () => {
    const url = `sqlite:${join(makeTempDir(), 'catalogue.db')}`;
    await dbMigrateCommand({ databaseUrl: url }, collector().write);
    const database = openDatabase(url);
    const ids = ['5d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a', '6d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a'];
    try {
      for (const [i, id] of ids.entries()) {
        await createStores(database).submissions.create(
          { id, loadoutId: `loadout-${i}`, status: 'pending-review', submitter: 'form', contactEmail: 'ada@example.org', clientAddress: '127.0.0.1', request: { notes: 'please' }, manifest: 'id: x\n', verification: { checks: [{ id: 'listing', status: 'pass', summary: 'ok' }] }, createdAt: `2026-11-22T10:00:0${i}.000Z`, files: [{ path: 'AGENTS.md', content: 'x' }] },
          'form',
        );
      }
    } finally {
      await database.close();
    }
    const list = collector();
    await submissionsListCommand({ databaseUrl: url, json: true }, list.write);
    expect((JSON.parse(list.text()) as { id: string }[]).map((r) => r.id)).toEqual([ids[1], ids[0]]);
    const show = collector();
    await submissionsShowCommand({ databaseUrl: url, id: ids[0] ?? '' }, show.write);
    expect(show.text()).toMatch(/contact ada@example\.org/);
    expect(show.text()).toMatch(/listing\s+pass/);
    const err = collector();
    expect(await submissionsDecideCommand({ databaseUrl: url, id: ids[0] ?? '', decision: 'accept', by: 'ada' }, collector().write, err.write)).toBe(0);
    // An accepted submission (one the bot cannot publish, say) may still be rejected, with its reason as the event's note.
    expect(await submissionsDecideCommand({ databaseUrl: url, id: ids[0] ?? '', decision: 'reject', reason: 'its files cannot be written', by: 'bob' }, collector().write, err.write)).toBe(0);
    const rejected = collector();
    await submissionsShowCommand({ databaseUrl: url, id: ids[0] ?? '', json: true }, rejected.write);
    const moves = (JSON.parse(rejected.text()) as { status: string; events: { from: string | null; to: string; actor: string; note: string | null }[] });
    expect(moves.status).toBe('rejected');
    expect(moves.events.at(-1)).toMatchObject({ from: 'accepted', to: 'rejected', actor: 'maintainer:bob', note: 'its files cannot be written' });
    expect(await submissionsDecideCommand({ databaseUrl: url, id: ids[0] ?? '', decision: 'reject', reason: 'again', by: 'ada' }, collector().write, err.write)).toBe(1);
    expect(err.text()).toMatch(/is rejected \(expected pending-review or checks-failed or accepted to become rejected\)/);
    await expect(submissionsDecideCommand({ databaseUrl: url, id: ids[1] ?? '', decision: 'reject', by: 'ada' }, collector().write, err.write)).rejects.toThrow(/--reason/);
    expect(await submissionsDecideCommand({ databaseUrl: url, id: ids[1] ?? '', decision: 'reject', reason: 'duplicate', by: 'ada' }, collector().write, err.write)).toBe(0);
    const shown = collector();
    await submissionsShowCommand({ databaseUrl: url, id: ids[1] ?? '', json: true }, shown.write);
    const events = (JSON.parse(shown.text()) as { events: { to: string; actor: string; note: string | null }[] }).events;
    expect(events.map((e) => [e.to, e.actor, e.note])).toEqual([['pending-review', 'form', null], ['rejected', 'maintainer:ada', 'duplicate']]);
  });
});
