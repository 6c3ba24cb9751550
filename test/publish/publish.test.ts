import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { PUBLISHED_AGENTS } from '../../src/catalogue/vocabulary.js';
import { describe, expect, it } from 'vitest';
import { publishTree, type PublishOptions } from '../../src/publish/publish.js';
import { createStaticServer } from '../../src/server/static.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { makeCatalogue, readTreeBytes, recording, s3Store, type StoreEvent } from './fixture.js';

const BUCKET = 'catalogue';
const MANIFEST = '.loadout-publish.json';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=60, must-revalidate';

const publish = (out: string, store: PublishOptions['store'], more: Partial<PublishOptions> = {}): ReturnType<typeof publishTree> =>
  publishTree({ out, store, prefix: '', delete: false, dryRun: false, concurrency: 4, ...more });

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** The tree's paths whose bytes differ between two snapshots (new or changed). */
function changedPaths(before: Map<string, Buffer>, after: Map<string, Buffer>): string[] {
  return [...after].filter(([p, b]) => before.get(p) === undefined || sha(before.get(p) as Buffer) !== sha(b)).map(([p]) => p).sort();
}

/**
 * What each address class must be uploaded before: 0 content, 1 records and pages, 2 catalogue
 * documents (the order of docs/deploying.md "The static tree on object storage"); the skill
 * files and archives of Agent Skills discovery are content, its indexes documents of their
 * loadout (1) or of the catalogue (2).
 */
function phaseOf(key: string): number {
  // A loadout's plugin folder is content too (tree-headers.ts: served as raw files).
  if (/^(raw|download|assets)\//u.test(key) || /^plugins\/[^/]+\//u.test(key)) return 0;
  if (/(^|\/)\.well-known\/(agent-skills|skills)\/(?!index\.json$)/u.test(key)) return 0;
  if (/^api\/loadouts\/[^/]+(\.json|\/)/u.test(key) || key.startsWith('loadouts/')) return 1;
  return 2;
}

/** Every put of a phase starts after every put of the earlier phases has ended; the manifest is started after everything ended. */
function expectPhasedOrder(events: StoreEvent[], prefix = ''): void {
  const keyOf = (e: StoreEvent): string => e.key.slice(prefix.length);
  events.forEach((event, i) => {
    if (event.at !== 'start') return;
    const laterEnds = events.slice(i + 1).filter((e) => e.at === 'end');
    if (keyOf(event) === MANIFEST) {
      expect(laterEnds.map((e) => e.key)).toEqual([event.key]);
      return;
    }
    // Nothing of an earlier phase may still be in flight, or start later.
    const pending = [...laterEnds, ...events.slice(i + 1).filter((e) => e.at === 'start')].filter((e) => e.op === 'put' && keyOf(e) !== MANIFEST && phaseOf(keyOf(e)) < phaseOf(keyOf(event)));
    expect(pending.map((e) => e.key), `${event.key} started before these`).toEqual([]);
  });
}

/** Reads every object back and compares bytes, Content-Type (as `loadout serve` sends it) and Cache-Control. */
async function expectBucketHolds(s3: S3Server, out: string, tree: Map<string, Buffer>, prefix = ''): Promise<void> {
  const serve = createStaticServer(out);
  for (const [path, bytes] of tree) {
    const stored = await s3.read(BUCKET, prefix + path);
    expect(stored.body.equals(bytes), `bytes of ${path}`).toBe(true);
    const served = await serve.serve(new Request(`http://x/${path}`), `/${path}`);
    expect(stored.contentType, `Content-Type of ${path}`).toBe(served.headers.get('content-type'));
    // Files as installed (`raw/<id>/installed/…`) are remade by each build: never immutable.
    const pinned = /^raw\/[^/]+\/(?!latest\/|installed\/)[^/]+\/./u.test(path);
    expect(stored.cacheControl, `Cache-Control of ${path}`).toBe(pinned ? IMMUTABLE : REVALIDATE);
    if (path.startsWith('raw/')) expect(stored.contentType).toBe('text/plain; charset=utf-8');
  }
}

describe('loadout publish to a real S3 server (s3rver)', () => {
  it('uploads every file of the built tree with its bytes and headers, content before records before catalogue documents, the manifest last', async () => {
    const s3 = await startS3Server([BUCKET]);
    const { out } = await makeCatalogue();
    const tree = readTreeBytes(out);
    expect([...tree.keys()]).toEqual(expect.arrayContaining(['raw/alpha/1.0.0/AGENTS.md', 'raw/alpha/latest/AGENTS.md', 'download/alpha/source.zip', 'api/loadouts/alpha.json', 'api/loadouts.json', 'index.html']));
    const { store, events } = recording(s3Store(s3.endpoint, BUCKET));

    const result = await publish(out, store);

    expect(result.counts).toEqual({ uploaded: tree.size, unchanged: 0, deleted: 0, bytes_uploaded: [...tree.values()].reduce((n, b) => n + b.byteLength, 0) });
    expect(await s3.listKeys(BUCKET)).toEqual([MANIFEST, ...tree.keys()].sort());
    await expectBucketHolds(s3, out, tree);
    expect(result.skipped).toContain('.loadout-build.jsonl');
    expectPhasedOrder(events);
    // The three phases all occur, so the order check above compared something.
    expect(new Set(events.map((e) => phaseOf(e.key)))).toEqual(new Set([0, 1, 2]));
    expect(events.at(-1)).toEqual({ at: 'end', op: 'put', key: MANIFEST });

    const manifest = JSON.parse((await s3.read(BUCKET, MANIFEST)).body.toString('utf8')) as { objects: Record<string, { sha256: string; bytes: number }> };
    expect(Object.keys(manifest.objects).sort()).toEqual([...tree.keys()].sort());
    expect(manifest.objects['api/loadouts/alpha.json']?.sha256).toBe(sha(tree.get('api/loadouts/alpha.json') as Buffer));
  });

  it('uploads nothing, not even the manifest, when the tree did not change', async () => {
    const s3 = await startS3Server([BUCKET]);
    const { out } = await makeCatalogue();
    await publish(out, s3Store(s3.endpoint, BUCKET));
    const { store, events } = recording(s3Store(s3.endpoint, BUCKET));

    const again = await publish(out, store);

    expect(again.counts).toEqual({ uploaded: 0, unchanged: readTreeBytes(out).size, deleted: 0, bytes_uploaded: 0 });
    expect(events).toEqual([]);
  });

  it('uploads only the objects whose bytes changed after a new version, records after their files', async () => {
    const s3 = await startS3Server([BUCKET]);
    const catalogue = await makeCatalogue();
    await publish(catalogue.out, s3Store(s3.endpoint, BUCKET));
    const before = readTreeBytes(catalogue.out);
    catalogue.bumpAlpha();
    await catalogue.rebuild();
    const after = readTreeBytes(catalogue.out);
    const changed = changedPaths(before, after);
    expect(changed).toEqual(expect.arrayContaining(['raw/alpha/1.1.0/AGENTS.md', 'raw/alpha/latest/AGENTS.md', 'api/loadouts/alpha.json', 'download/alpha/source.zip', 'api/loadouts.json']));
    expect(changed).not.toContain('raw/beta/1.0.0/AGENTS.md');
    const { store, events } = recording(s3Store(s3.endpoint, BUCKET));

    const result = await publish(catalogue.out, store);

    const uploaded = events.filter((e) => e.at === 'start' && e.key !== MANIFEST).map((e) => e.key).sort();
    expect(uploaded).toEqual(changed);
    expect(result.counts).toMatchObject({ uploaded: changed.length, unchanged: after.size - changed.length, deleted: 0 });
    expectPhasedOrder(events);
    const recordStart = events.findIndex((e) => e.at === 'start' && e.key === 'api/loadouts/alpha.json');
    for (const content of ['raw/alpha/1.1.0/AGENTS.md', 'raw/alpha/latest/AGENTS.md', 'download/alpha/source.zip']) {
      expect(events.findIndex((e) => e.at === 'end' && e.key === content)).toBeLessThan(recordStart);
    }
    await expectBucketHolds(s3, catalogue.out, after);
  });

  it('keeps stale objects without --delete, and with it deletes them all but the pinned versions\' files', async () => {
    const s3 = await startS3Server([BUCKET]);
    const catalogue = await makeCatalogue();
    await publish(catalogue.out, s3Store(s3.endpoint, BUCKET));
    const first = readTreeBytes(catalogue.out);
    catalogue.removeBeta();
    await catalogue.rebuild();
    const second = readTreeBytes(catalogue.out);
    const stale = [...first.keys()].filter((p) => !second.has(p)).sort();
    const pinned = stale.filter((p) => p.startsWith('raw/beta/1.0.0/'));
    expect(pinned.length).toBeGreaterThan(0);
    expect(stale).toEqual(expect.arrayContaining(['api/loadouts/beta.json', 'raw/beta/latest/AGENTS.md', 'download/beta/source.zip', 'loadouts/beta/index.html']));

    const kept = await publish(catalogue.out, s3Store(s3.endpoint, BUCKET));
    expect(kept.counts.deleted).toBe(0);
    expect(kept.warnings.join('\n')).toContain(`${stale.length - pinned.length} stale objects left in the bucket`);
    expect(await s3.listKeys(BUCKET)).toEqual(expect.arrayContaining(stale));

    const { store, events } = recording(s3Store(s3.endpoint, BUCKET));
    const deleted = await publish(catalogue.out, store, { delete: true });

    expect(deleted.counts).toMatchObject({ uploaded: 0, deleted: stale.length - pinned.length });
    expect(events.filter((e) => e.op === 'delete' && e.at === 'start').map((e) => e.key).sort()).toEqual(stale.filter((p) => !pinned.includes(p)));
    expect(await s3.listKeys(BUCKET)).toEqual([MANIFEST, ...second.keys(), ...pinned].sort());
    // The manifest still knows the pinned files, so a later --delete run never sees them as unknown.
    const manifest = JSON.parse((await s3.read(BUCKET, MANIFEST)).body.toString('utf8')) as { objects: Record<string, unknown> };
    expect(Object.keys(manifest.objects)).toEqual(expect.arrayContaining(pinned));
    const third = await publish(catalogue.out, s3Store(s3.endpoint, BUCKET), { delete: true });
    expect(third.counts).toMatchObject({ uploaded: 0, deleted: 0 });
  });

  it('--dry-run plans from the manifest and writes nothing', async () => {
    const s3 = await startS3Server([BUCKET]);
    const catalogue = await makeCatalogue();
    const tree = readTreeBytes(catalogue.out);
    const { store, events } = recording(s3Store(s3.endpoint, BUCKET));

    const planned = await publish(catalogue.out, store, { dryRun: true });

    expect(planned.counts).toMatchObject({ uploaded: tree.size, unchanged: 0, deleted: 0 });
    expect(planned.dryRun).toBe(true);
    expect(events).toEqual([]);
    expect(await s3.listKeys(BUCKET)).toEqual([]);

    await publish(catalogue.out, s3Store(s3.endpoint, BUCKET));
    const manifestBefore = (await s3.read(BUCKET, MANIFEST)).body;
    catalogue.removeBeta();
    await catalogue.rebuild();
    const second = await publish(catalogue.out, store, { dryRun: true, delete: true });
    expect(second.counts.deleted).toBeGreaterThan(0);
    expect(second.counts.uploaded).toBeGreaterThan(0);
    expect(events).toEqual([]);
    expect((await s3.read(BUCKET, MANIFEST)).body.equals(manifestBefore)).toBe(true);
    expect(await s3.listKeys(BUCKET)).toEqual([MANIFEST, ...tree.keys()].sort());
  });

  it('publishes under a prefix: every key is the prefix and the tree path, the manifest at <prefix>.loadout-publish.json', async () => {
    const s3 = await startS3Server([BUCKET]);
    const { out } = await makeCatalogue();
    const tree = readTreeBytes(out);
    const { store, events } = recording(s3Store(s3.endpoint, BUCKET));

    await publish(out, store, { prefix: 'site/v1/' });

    expect(await s3.listKeys(BUCKET)).toEqual([`site/v1/${MANIFEST}`, ...[...tree.keys()].map((p) => `site/v1/${p}`)].sort());
    await expectBucketHolds(s3, out, tree, 'site/v1/');
    expectPhasedOrder(events, 'site/v1/');
    expect((await publish(out, s3Store(s3.endpoint, BUCKET), { prefix: 'site/v1/' })).counts.uploaded).toBe(0);
    // Another prefix has its own manifest: everything is uploaded there.
    expect((await publish(out, s3Store(s3.endpoint, BUCKET), { prefix: 'site/v2/' })).counts.uploaded).toBe(tree.size);
  });

  it('uploads again an object whose bytes changed behind the build, and warns when it is a pinned version', async () => {
    const s3 = await startS3Server([BUCKET]);
    const { out } = await makeCatalogue();
    await publish(out, s3Store(s3.endpoint, BUCKET));
    // The raw `latest` folder is a link to the version's, and the plugin folder's AGENTS.md a hard link to the same file: both change too.
    writeFileSync(`${out}/raw/alpha/1.0.0/AGENTS.md`, '# changed under a pinned version\n');

    const result = await publish(out, s3Store(s3.endpoint, BUCKET));

    // And the six agents' AGENTS.md as installed, pinned and latest (issue 57 point 11), hard links to it where the install leaves it as it is.
    expect(result.counts.uploaded).toBe(3 + 2 * PUBLISHED_AGENTS.length);
    expect((await s3.read(BUCKET, 'plugins/alpha/AGENTS.md')).body.toString()).toBe('# changed under a pinned version\n');
    expect((await s3.read(BUCKET, 'raw/alpha/latest/AGENTS.md')).body.toString()).toBe('# changed under a pinned version\n');
    expect(result.warnings.join('\n')).toContain('raw/alpha/1.0.0/AGENTS.md has bytes other than the ones published under its pinned version');
    expect((await s3.read(BUCKET, 'raw/alpha/1.0.0/AGENTS.md')).body.toString()).toBe('# changed under a pinned version\n');
  });
});
