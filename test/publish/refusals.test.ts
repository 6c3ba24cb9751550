import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { publishTree, type PublishOptions } from '../../src/publish/publish.js';
import { createS3Store } from '../../src/publish/s3-store.js';
import { S3RVER_CREDENTIALS, startS3Server } from '../helpers/s3-server.js';
import { makeTempDir } from '../helpers/temp.js';
import { makeCatalogue, readTreeBytes, s3Store } from './fixture.js';

const BUCKET = 'catalogue';
const MANIFEST = '.loadout-publish.json';

const publish = (out: string, store: PublishOptions['store'], more: Partial<PublishOptions> = {}): ReturnType<typeof publishTree> =>
  publishTree({ out, store, prefix: '', delete: false, dryRun: false, concurrency: 4, ...more });

/** The LoadoutError `promise` rejects with (fails the test when it resolves or throws something else). */
async function loadoutError(promise: Promise<unknown>): Promise<LoadoutError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LoadoutError);
  return error as LoadoutError;
}

/** A TCP port on 127.0.0.1 that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('loadout publish refuses keys that are not plain paths', () => {
  it('refuses every prefix with "..", a leading "/", a backslash, a control character, an empty or "." segment, or no trailing "/", before writing anything', async () => {
    const s3 = await startS3Server([BUCKET]);
    const { out } = await makeCatalogue();
    const store = s3Store(s3.endpoint, BUCKET);
    const bad = ['../', 'site/../', '..', '/site/', 'site\\v1/', 'C:/site/', 'site\u0000/', 'site\u001b[31m/', 'site\u0085/', 'site//v1/', './', 'site/./v1/', 'site'];
    for (const prefix of bad) {
      const error = await loadoutError(publish(out, store, { prefix }));
      expect(error.code, JSON.stringify(prefix)).toBe('usage');
      expect(error.message).toContain(`--prefix ${JSON.stringify(prefix)}`);
    }
    expect((await loadoutError(publish(out, store, { prefix: 'site' }))).message).toContain('did you mean "site/"?');
    expect(await s3.listKeys(BUCKET)).toEqual([]);
  });

  it('never follows a link out of --out, around a cycle of folders, to a dot file or to nothing, and refuses names that cannot be keys', async () => {
    const s3 = await startS3Server([BUCKET]);
    const { out } = await makeCatalogue();
    const store = s3Store(s3.endpoint, BUCKET);
    const outside = join(makeTempDir(), 'secret.txt');
    writeFileSync(outside, 'a secret outside the tree\n');
    const cases: [string, () => void, RegExp][] = [
      ['raw/alpha/latest/evil.md', () => symlinkSync(outside, join(out, 'raw/alpha/latest/evil.md')), /is a link out of the tree/u],
      ['raw/alpha/latest/up.md', () => symlinkSync('../../../../secret.txt', join(out, 'raw/alpha/latest/up.md')), /link to nothing|link out of the tree/u],
      ['raw/alpha/latest/loop', () => symlinkSync(join(out, 'raw'), join(out, 'raw/alpha/latest/loop')), /a link to a folder that holds it \(a cycle\)/u],
      ['raw/alpha/latest/cache.md', () => symlinkSync(join(out, '.loadout-build.jsonl'), join(out, 'raw/alpha/latest/cache.md')), /link to a dot file/u],
      ['raw/alpha/latest/dangling.md', () => symlinkSync(join(out, 'nowhere'), join(out, 'raw/alpha/latest/dangling.md')), /link to nothing/u],
      ['raw/alpha/latest/a\\b.md', () => writeFileSync(join(out, 'raw/alpha/latest/a\\b.md'), 'x'), /backslash/u],
      ['raw/alpha/latest/bell\u0007.md', () => writeFileSync(join(out, 'raw/alpha/latest/bell\u0007.md'), 'x'), /control character/u],
    ];
    for (const [path, make, expected] of cases) {
      make();
      const error = await loadoutError(publish(out, store));
      expect(error.code, path).toBe('invalid_content');
      expect(error.message, path).toMatch(expected);
      expect(error.message).toContain('nothing was published');
      rmSync(join(out, path), { force: true });
    }
    expect(await s3.listKeys(BUCKET)).toEqual([]);
  });

  it('publishes a link to a file inside the tree with the target\'s bytes, --out given as a link, and skips dot folders', async () => {
    const s3 = await startS3Server([BUCKET]);
    const { out } = await makeCatalogue();
    symlinkSync(join(out, 'raw/alpha/latest/AGENTS.md'), join(out, 'raw/alpha/latest/SAME.md'));
    mkdirSync(join(out, '.git'));
    writeFileSync(join(out, '.git/config'), '[remote "origin"]\n');
    const link = join(makeTempDir(), 'dist-link');
    symlinkSync(out, link);

    const result = await publish(link, s3Store(s3.endpoint, BUCKET));

    const keys = await s3.listKeys(BUCKET);
    // Only the manifest and the Agent Skills discovery folders, never .git or the build cache.
    expect(keys.filter((k) => k.split('/').some((s) => s.startsWith('.') && s !== '.well-known'))).toEqual([MANIFEST]);
    expect(keys).toEqual(expect.arrayContaining(['.well-known/agent-skills/index.json', 'loadouts/alpha/.well-known/agent-skills/index.json']));
    expect(result.skipped).toEqual(expect.arrayContaining(['.git', '.loadout-build.jsonl']));
    const same = await s3.read(BUCKET, 'raw/alpha/latest/SAME.md');
    expect(same.body.equals(readTreeBytes(out).get('raw/alpha/latest/AGENTS.md') as Buffer)).toBe(true);
    expect(same.contentType).toBe('text/plain; charset=utf-8');
  });

  it('refuses a manifest in the bucket that is not one, or whose paths would aim a delete outside the prefix', async () => {
    const s3 = await startS3Server([BUCKET]);
    const { out } = await makeCatalogue();
    const store = s3Store(s3.endpoint, BUCKET);
    const entry = { sha256: 'a'.repeat(64), bytes: 1, content_type: 'text/plain', cache_control: 'no-store' };
    for (const [text, expected] of [
      ['not json', /is not JSON/u],
      [JSON.stringify({ format: 2, objects: {} }), /"format": 1/u],
      [JSON.stringify({ format: 1, objects: { '../../outside/index.html': entry } }), /"\.\.\/\.\.\/outside\/index\.html" contains a "\.\." segment/u],
      [JSON.stringify({ format: 1, objects: { '/etc/passwd': entry } }), /starts with "\/"/u],
      [JSON.stringify({ format: 1, objects: { 'api/x.json': { ...entry, sha256: 'nope' } } }), /expected \{sha256, bytes, content_type, cache_control\}/u],
    ] as const) {
      await store.put(`site/${MANIFEST}`, Buffer.from(text), { contentType: 'application/json', cacheControl: 'no-store' });
      const error = await loadoutError(publish(out, store, { prefix: 'site/', delete: true }));
      expect(error.code).toBe('invalid_content');
      expect(error.message).toMatch(expected);
      expect(error.hint).toContain(`delete`);
    }
    expect(await s3.listKeys(BUCKET)).toEqual([`site/${MANIFEST}`]);
  });
});

describe('loadout publish errors say what failed and what to do', () => {
  it('a missing bucket', async () => {
    const s3 = await startS3Server([BUCKET]);
    const { out } = await makeCatalogue();
    const error = await loadoutError(publish(out, s3Store(s3.endpoint, 'no-such-bucket')));
    expect(error.code).toBe('not_found');
    expect(error.message).toBe(`bucket "no-such-bucket" does not exist (s3://no-such-bucket at ${s3.endpoint})`);
    expect(error.hint).toMatch(/create the bucket first, or check --bucket, --endpoint/u);
  });

  it('credentials the store does not know', async () => {
    const s3 = await startS3Server([BUCKET]);
    const { out } = await makeCatalogue();
    const store = createS3Store({ bucket: BUCKET, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'NOT-A-KEY', secretAccessKey: 'x' } });
    const error = await loadoutError(publish(out, store).finally(() => store.close()));
    expect(error.code).toBe('config');
    expect(error.message).toMatch(/the object store refused the credentials .*InvalidAccessKeyId/u);
    expect(error.hint).toMatch(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/u);
    expect(await s3.listKeys(BUCKET)).toEqual([]);
  });

  it('an endpoint nothing answers on, after the retries', async () => {
    const { out } = await makeCatalogue();
    const endpoint = `http://127.0.0.1:${await closedPort()}`;
    const error = await loadoutError(publish(out, s3Store(endpoint, BUCKET, 2)));
    expect(error.code).toBe('io');
    expect(error.message).toMatch(new RegExp(`^cannot reach the object store for s3://catalogue/\\.loadout-publish\\.json after 2 attempts \\(ECONNREFUSED: .*${endpoint}\\)$`, 'u'));
    expect(error.hint).toMatch(/check --endpoint/u);
  });

  it('a malformed bucket name or endpoint, a missing tree, a bad concurrency', async () => {
    for (const bucket of ['../x', 'ab', 'Upper', 'a/b', 'a..b']) {
      expect(() => createS3Store({ bucket }), bucket).toThrow(/--bucket is/u);
    }
    for (const endpoint of ['ftp://example.com', 'not a url', 'https://user:pass@example.com']) {
      expect(() => createS3Store({ bucket: BUCKET, endpoint }), endpoint).toThrow(/--endpoint is/u);
    }
    const store = createS3Store({ bucket: BUCKET, endpoint: 'http://127.0.0.1:9', region: 'us-east-1', forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
    try {
      const missing = await loadoutError(publish(join(makeTempDir(), 'nothing'), store));
      expect(missing.code).toBe('not_found');
      expect(missing.hint).toMatch(/loadout build/u);
      expect((await loadoutError(publish(makeTempDir(), store, { concurrency: 0 }))).code).toBe('usage');
    } finally {
      store.close();
    }
  });
});
