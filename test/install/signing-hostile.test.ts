/**
 * A hostile catalogue against the consumer's signing check and documents (issue 35, points 3,
 * 4 and 9): real Ed25519 keys, real trees built by the builder, a real HTTP mirror on
 * 127.0.0.1 that answers each request as an attacker chooses, real installs and updates into
 * temporary projects, and the real CLI for what reaches the terminal.
 *
 * - One `update` reads one signed snapshot per catalogue, and the lock's rollback mark never
 *   goes back (point 3).
 * - Key ids, catalogue ids and messages reach the terminal, and `--json`, with every control,
 *   C1 and bidirectional character escaped (point 4).
 * - Deeply nested JSON, tens of thousands of signatures or keys, and FIFOs in a folder
 *   catalogue are refused by name, without a stack overflow, a long computation or a hang
 *   (point 9).
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { copyDereferenced } from '../helpers/tree.js';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { installLoadout } from '../../src/install/install.js';
import { listOutdated } from '../../src/install/outdated.js';
import { updateLoadouts } from '../../src/install/update.js';
import { projectScope } from '../../src/install/project/scope.js';
import { LOCK_FILE, withTrust, type LockFile } from '../../src/install/project/lock.js';
import { readSigningKey, type SigningKey } from '../../src/tree-format/signing/keys.js';
import { SNAPSHOT_PATH } from '../../src/tree-format/signing/snapshot.js';
import { runCli } from '../helpers/cli.js';
import { baseFiles, writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

const BASE = 'http://catalogue.test';
const HOUR = 3_600_000;
const newKey = (): SigningKey => readSigningKey(generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
const readLockOf = (project: string): LockFile => JSON.parse(readFileSync(join(project, LOCK_FILE), 'utf8')) as LockFile;
/** Escape, C1 CSI, bidi override: what a terminal may act on. */
const UNSAFE = /[\u001b\u0007\u009b\u202e]/u;

/** A catalogue repository with `kit` and `tool`, each 1.0.0 then 1.1.0. */
function catalogueRepo(): { root: string; dist: string } {
  const root = makeTempDir();
  initRepo(root);
  for (const version of ['1.0.0', '1.1.0']) {
    for (const id of ['kit', 'tool']) writeLoadout(root, { id, title: id, version, files: baseFiles(id, `# ${id}\n\n${version}.\n`) });
    commitAll(root, `all ${version}`);
  }
  return { root, dist: join(root, 'dist') };
}

const build = (repo: { root: string; dist: string }, key: SigningKey | undefined, now: Date): Promise<unknown> =>
  buildCatalogue({ root: repo.root, out: repo.dist, baseUrl: BASE, now, ...(key === undefined ? {} : { signing: { key, expiresInDays: 30 } }) });

/** A mirror of `dist` on 127.0.0.1: `answer(path)` may replace a file's bytes; `requests` lists the paths asked for. */
async function mirror(dist: string, answer: (path: string) => Buffer | undefined = () => undefined): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/').replace(/^\/+/u, '');
    requests.push(path);
    const replaced = answer(path);
    if (replaced !== undefined) return void res.writeHead(200).end(replaced);
    readFile(join(dist, path)).then(
      (data) => res.writeHead(200).end(data),
      () => res.writeHead(404).end('not found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`, requests };
}

/** The `generated_at` of the snapshot envelope `bytes`. */
const generatedAt = (bytes: Buffer): string => (JSON.parse(Buffer.from((JSON.parse(bytes.toString()) as { payload: string }).payload, 'base64').toString()) as { generated_at: string }).generated_at;

describe('one snapshot per command run (point 3)', () => {
  it('update reads the signed snapshot once for every entry of a catalogue, so a mirror cannot answer entries from two snapshots, and the mark never goes back', async () => {
    const repo = catalogueRepo();
    const key = newKey();
    const now = Date.now();
    await build(repo, key, new Date(now - 2 * HOUR));
    const older = readFileSync(join(repo.dist, SNAPSHOT_PATH));
    await build(repo, key, new Date(now - HOUR));
    const newer = readFileSync(join(repo.dist, SNAPSHOT_PATH));
    const dist = realpathSync(repo.dist);

    // The project installed both at 1.0.0 while the mirror served the older snapshot.
    let snapshots = [older];
    const site = await mirror(dist, (path) => (path === SNAPSHOT_PATH ? (snapshots.length > 1 ? snapshots.shift() : snapshots[0]) : undefined));
    const project = makeTempDir();
    for (const id of ['kit', 'tool']) await installLoadout({ from: site.url, id, agent: 'codex', dir: project, version: '1.0.0' });
    expect(readLockOf(project).trust?.[site.url]?.generated_at).toBe(generatedAt(older));

    // Now the mirror answers the newest snapshot first, then the older one.
    snapshots = [newer, older];
    site.requests.length = 0;
    const outcome = await updateLoadouts({ scope: projectScope(project), ids: [] });
    expect(outcome.updates.map((u) => `${u.id} ${u.to}`).sort()).toEqual(['kit 1.1.0', 'tool 1.1.0']);
    expect(site.requests.filter((p) => p === SNAPSHOT_PATH)).toHaveLength(1);
    expect(readLockOf(project).trust?.[site.url]?.generated_at).toBe(generatedAt(newer));
    // The older snapshot alone is now a rollback, for update and outdated alike.
    snapshots = [older];
    await expect(updateLoadouts({ scope: projectScope(project), ids: [] })).rejects.toMatchObject({ name: 'Rollback' });
    site.requests.length = 0;
    snapshots = [newer, older];
    await listOutdated({ scope: projectScope(project) });
    expect(site.requests.filter((p) => p === SNAPSHOT_PATH)).toHaveLength(1);
  });

  it('the lock keeps the newest mark it has seen, whatever trust is recorded after it', () => {
    const lock: LockFile = { lockfileVersion: 1, installs: [], trust: { a: { keyids: ['k'], generated_at: '2026-11-20T00:00:00.000Z' } } };
    expect(withTrust(lock, 'a', { keyids: ['k'], generated_at: '2026-11-19T00:00:00.000Z' }).trust?.['a']?.generated_at).toBe('2026-11-20T00:00:00.000Z');
    expect(withTrust(lock, 'a', { keyids: ['k'], generated_at: '2026-11-21T00:00:00.000Z' }).trust?.['a']?.generated_at).toBe('2026-11-21T00:00:00.000Z');
  });
});

describe('hostile signing documents (points 4 and 9)', () => {
  /** A signed tree copied into a fresh folder, whose `path` (a JSON document) `edit` rewrites. */
  async function signedCopy(edit: Record<string, (doc: Record<string, unknown>) => unknown>): Promise<string> {
    const repo = catalogueRepo();
    await build(repo, newKey(), new Date(Date.now() - HOUR));
    const dist = join(makeTempDir(), 'dist');
    copyDereferenced(repo.dist, dist);
    for (const [path, change] of Object.entries(edit)) {
      const file = join(dist, path);
      writeFileSync(file, JSON.stringify(change(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)).replace(`"${NESTED}"`, `${'['.repeat(100_000)}${']'.repeat(100_000)}`));
    }
    return dist;
  }
  /** Written as an array nested 100,000 levels deep (JSON.stringify could not write it). */
  const NESTED = '@@nested@@';

  it('a key id with terminal escapes reaches the terminal and --json escaped, in the UnknownKey message', async () => {
    const dist = await signedCopy({ [SNAPSHOT_PATH]: (envelope) => ({ ...envelope, signatures: [{ keyid: '\u001b[2J\u001b]52;c;ZXZpbA==\u0007\u009b31m\u202e', sig: (envelope['signatures'] as { sig: string }[])[0]?.sig }] }) });
    const project = makeTempDir();
    const text = await runCli(['install', 'kit', '--agent', 'codex', '--from', dist], project);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('none of them a trusted key');
    expect(text.stderr).not.toMatch(UNSAFE);
    const json = await runCli(['install', 'kit', '--agent', 'codex', '--from', dist, '--json'], project);
    expect(json.stdout).not.toMatch(UNSAFE);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { name: 'UnknownKey', message: expect.stringContaining('\u009b31m\u202e') } });
    expect(readdirSync(project)).toEqual([]);
  });

  it('catalogue ids with terminal escapes are not suggested in "Did you mean …?"', async () => {
    const dist = await signedCopy({});
    const list = join(dist, 'api/loadouts.json');
    const doc = JSON.parse(readFileSync(list, 'utf8')) as { loadouts: { id: string }[] };
    doc.loadouts.push({ id: 'kiu\u001b]0;owned\u0007' }, { id: 'kiu\u009b2J' });
    writeFileSync(list, JSON.stringify(doc));
    rmSync(join(dist, SNAPSHOT_PATH));
    rmSync(join(dist, 'api/v1/index.json'));
    const run = await runCli(['install', 'kiu', '--agent', 'codex', '--from', dist], makeTempDir());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Did you mean kit');
    expect(run.stderr).not.toMatch(UNSAFE);
  });

  it('deeply nested JSON in a key\'s algorithm or a versions document\'s id is refused with a message, not a stack overflow', async () => {
    const project = makeTempDir();
    const keys = await signedCopy({ 'api/v1/index.json': (doc) => ({ ...doc, signing: { keys: [{ ...((doc['signing'] as { keys: object[] }).keys[0] ?? {}), algorithm: NESTED }] } }) });
    await expect(installLoadout({ from: keys, id: 'kit', agent: 'codex', dir: project })).rejects.toMatchObject({ name: 'InvalidCatalogue', message: expect.stringContaining('signing.keys[0] algorithm is [[[[…]]]] (expected "ed25519")') });
    const unsigned = await signedCopy({ 'api/loadouts/kit/versions.json': (doc) => ({ ...doc, id: NESTED }) });
    rmSync(join(unsigned, SNAPSHOT_PATH));
    rmSync(join(unsigned, 'api/v1/index.json'));
    await expect(installLoadout({ from: unsigned, id: 'kit', agent: 'codex', dir: project })).rejects.toMatchObject({ name: 'InvalidCatalogue', message: expect.stringContaining('id is [[[[…]]]] (expected "kit")') });
    expect(readdirSync(project)).toEqual([]);
  });

  it('70,000 signatures without a key id and 20,000 declared keys are refused by count, in a message of one short line', async () => {
    const project = makeTempDir();
    const signatures = await signedCopy({ [SNAPSHOT_PATH]: (envelope) => ({ ...envelope, signatures: Array.from({ length: 70_000 }, () => ({ sig: (envelope['signatures'] as { sig: string }[])[0]?.sig })) }) });
    const many = await installLoadout({ from: signatures, id: 'kit', agent: 'codex', dir: project }).catch((e: unknown) => e as Error);
    expect(many).toMatchObject({ name: 'InvalidCatalogue', message: expect.stringContaining('signatures has 70000 entries (expected at most 16)') });
    expect((many as Error).message.length).toBeLessThan(300);
    const keys = await signedCopy({ 'api/v1/index.json': (doc) => ({ ...doc, signing: { keys: Array.from({ length: 20_000 }, () => (doc['signing'] as { keys: object[] }).keys[0]) } }) });
    await expect(installLoadout({ from: keys, id: 'kit', agent: 'codex', dir: project })).rejects.toMatchObject({ name: 'InvalidCatalogue', message: expect.stringContaining('signing.keys has 20000 keys (expected at most 16)') });
    expect(readdirSync(project)).toEqual([]);
  });

  it('a FIFO as a raw file or as versions.json of a folder catalogue is refused by name instead of hanging', async () => {
    const dist = await signedCopy({});
    const project = makeTempDir();
    const raw = join(dist, 'raw/kit/1.1.0/AGENTS.md');
    rmSync(raw);
    execFileSync('mkfifo', [raw]);
    await expect(installLoadout({ from: dist, id: 'kit', agent: 'codex', dir: project })).rejects.toMatchObject({ name: 'InvalidCatalogue', message: expect.stringContaining('is a FIFO (named pipe), not a regular file') });
    const versions = join(dist, 'api/loadouts/tool/versions.json');
    rmSync(versions);
    execFileSync('mkfifo', [versions]);
    await expect(installLoadout({ from: dist, id: 'tool', agent: 'codex', dir: project })).rejects.toMatchObject({ name: 'InvalidCatalogue', message: expect.stringContaining('is a FIFO (named pipe), not a regular file') });
    expect(readdirSync(project)).toEqual([]);
  });
});
