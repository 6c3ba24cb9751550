/**
 * The database layer on SQLite and PostgreSQL: migrations, the stores' transactions and
 * constraints, atomic rate-limit counting and status transitions.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { openDatabase, redact } from '../../src/storage/database.js';
import { migrateToLatest, MIGRATION_NAMES } from '../../src/storage/migrations.js';
import { createStores } from '../../src/storage/stores.js';
import type { NewSubmission } from '../../src/storage/submission-store.js';
import { authenticateApiKey, createApiKey } from '../../src/submissions/api-key.js';
import { makeTempDir } from '../helpers/temp.js';
import { DATABASE_KINDS, openTestDatabase } from './databases.js';

const at = '2026-11-22T10:00:00.000Z';
const submission = (id: string, loadoutId = 'my-loadout'): NewSubmission => ({
  id,
  loadoutId,
  status: 'pending-review',
  submitter: 'key:0123456789ab',
  contactEmail: 'ada@example.org',
  clientAddress: '127.0.0.1',
  request: { name: 'My loadout' },
  manifest: 'id: my-loadout\n',
  verification: { status: 'verified' },
  createdAt: at,
  files: [{ path: 'AGENTS.md', content: '# hi\n' }],
});

describe('openDatabase', () => {
  it('creates the SQLite file and its folder on first open', async () => {
    const dir = makeTempDir();
    const database = openDatabase('sqlite:data/nested/catalogue.db', { cwd: dir });
    try {
      expect(await migrateToLatest(database.db)).toEqual(MIGRATION_NAMES);
      expect(existsSync(join(dir, 'data', 'nested', 'catalogue.db'))).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('refuses other schemes, naming DATABASE_URL, and hides passwords', () => {
    expect(() => openDatabase('mysql://root@localhost/x')).toThrow(LoadoutError);
    expect(() => openDatabase('mysql://root@localhost/x')).toThrow(/DATABASE_URL .*expected sqlite:<file> or postgres:/);
    expect(redact('postgres://user:secret@host:5432/db')).toBe('postgres://user:***@host:5432/db');
  });
});

describe.each(DATABASE_KINDS)('stores on $kind', ({ kind, skip }) => {
  it.skipIf(skip)('migrates once; a second run applies nothing', async () => {
    const database = await openTestDatabase(kind, { migrate: false });
    expect(await migrateToLatest(database.db)).toEqual(MIGRATION_NAMES);
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  it.skipIf(skip)('stores a submission with its files and arrival event in one go, and reads it back', async () => {
    const { submissions } = createStores(await openTestDatabase(kind));
    expect(await submissions.create(submission('5d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a'), 'key:0123456789ab')).toBe('stored');
    const stored = await submissions.get('5d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a');
    expect(stored).toMatchObject({ loadoutId: 'my-loadout', status: 'pending-review', request: { name: 'My loadout' }, verification: { status: 'verified' }, prUrl: null, updatedAt: at });
    expect(await submissions.files(stored?.id ?? '')).toEqual([{ path: 'AGENTS.md', content: '# hi\n' }]);
    expect(await submissions.findByLoadoutId('my-loadout', ['pending-review'])).toHaveLength(1);
    expect(await submissions.findByLoadoutId('my-loadout', ['accepted'])).toHaveLength(0);
  });

  it.skipIf(skip)('records a form-token nonce once: the second use stores nothing', async () => {
    const { submissions, nonces } = createStores(await openTestDatabase(kind));
    const nonce = { nonce: 'n-1', expiresAt: '2026-11-22T12:00:00.000Z' };
    const results = await Promise.all([
      submissions.create(submission('5d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a'), 'form', nonce),
      submissions.create(submission('6d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a'), 'form', nonce),
    ]);
    expect(results.sort()).toEqual(['nonce_used', 'stored']);
    expect(await submissions.list()).toHaveLength(1);
    expect(await nonces.isUsed('n-1')).toBe(true);
    await nonces.purgeExpired('2026-11-22T12:00:00.001Z');
    expect(await nonces.isUsed('n-1')).toBe(false);
  });

  it.skipIf(skip)('counts concurrent rate-limit hits atomically', async () => {
    const { rateLimits } = createStores(await openTestDatabase(kind));
    const hits = await Promise.all(Array.from({ length: 20 }, () => rateLimits.hit('address:1.2.3.4', at, '2026-11-22T11:00:00.000Z')));
    expect(hits.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await rateLimits.hit('address:5.6.7.8', at, '2026-11-22T11:00:00.000Z')).toBe(1);
  });

  it.skipIf(skip)('moves a submission between states once, recording each event', async () => {
    const { submissions } = createStores(await openTestDatabase(kind));
    const id = '5d1c2a60-3b1f-4c3e-9a57-8f1e2d3c4b5a';
    await submissions.create(submission(id), 'key:0123456789ab');
    const change = { from: ['pending-review'], to: 'accepted', actor: 'maintainer:ada', at: '2026-11-22T11:00:00.000Z', note: 'looks good' };
    const [a, b] = await Promise.all([submissions.transition(id, change), submissions.transition(id, change)]);
    expect([a, b].filter((r) => r !== undefined)).toHaveLength(1);
    expect((await submissions.get(id))?.status).toBe('accepted');
    expect(await submissions.events(id)).toEqual([
      { seq: 1, at, actor: 'key:0123456789ab', from: null, to: 'pending-review', note: null },
      { seq: 2, at: '2026-11-22T11:00:00.000Z', actor: 'maintainer:ada', from: 'pending-review', to: 'accepted', note: 'looks good' },
    ]);
    expect(await submissions.transition(id, { ...change, to: 'rejected' })).toBeUndefined();
  });

  it.skipIf(skip)('stores only the hash and prefix of an API key, and authenticates it', async () => {
    const { keys } = createStores(await openTestDatabase(kind));
    const { key, stored } = await createApiKey(keys, 'my agent', new Date(at));
    expect(key).toMatch(/^lk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    const listed = await keys.list();
    expect(listed).toEqual([{ ...stored, lastUsedAt: null, revokedAt: null }]);
    expect(JSON.stringify(listed)).not.toContain(key.slice(16));
    const ok = await authenticateApiKey(keys, key, new Date('2026-11-23T00:00:00.000Z'));
    expect(ok.ok).toBe(true);
    expect((await keys.find(stored.prefix))?.lastUsedAt).toBe('2026-11-23T00:00:00.000Z');
    expect(await authenticateApiKey(keys, `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`, new Date())).toEqual({ ok: false, problem: 'unknown' });
    expect(await keys.revoke(stored.prefix, at)).toBe(true);
    expect(await keys.revoke(stored.prefix, at)).toBe(false);
    expect(await authenticateApiKey(keys, key, new Date())).toEqual({ ok: false, problem: 'revoked' });
  });
});
