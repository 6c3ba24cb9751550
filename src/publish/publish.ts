/**
 * `loadout publish`: syncs the built tree to an object store (DESIGN.md sections 1 and 2;
 * docs/deploying.md, "The static tree on object storage"). Reads the tree and the bucket's
 * manifest, plans (src/publish/plan.ts), then uploads phase by phase (content, records and pages,
 * catalogue documents), deletes stale objects when asked, and writes the manifest last, so that an
 * interrupted publish leaves the old manifest and the next one uploads again whatever it may have
 * missed. The core never prints: progress goes through a callback, and the result is data.
 */
import { LoadoutError } from '../catalogue/errors.js';
import { mapConcurrent } from '../concurrency.js';
import { describeKeyLengthProblem, describePrefixProblem } from './keys.js';
import { MANIFEST_NAME, parseManifest, serialiseManifest } from './manifest.js';
import { describeLocalObject, planPublish, type PublishPlan } from './plan.js';
import type { ObjectStore } from './store.js';
import { readTree, readTreeFile, type TreeFile } from './tree.js';

/** The manifest is for the next publish, not for readers: never cached (and the CDN should not serve dot keys at all). */
const MANIFEST_CACHE = 'no-store';

/** Options of {@link publishTree}. */
export interface PublishOptions {
  /** The built tree, e.g. `dist`. */
  out: string;
  /** Where to publish (one bucket). */
  store: ObjectStore;
  /** Key prefix: empty, or a relative path ending in `/` (src/publish/keys.ts). */
  prefix: string;
  /** Delete stale objects that are not pinned raw files. */
  delete: boolean;
  /** Plan only: read the tree and the manifest, write nothing. */
  dryRun: boolean;
  /** Requests in flight at once, 1 or more. */
  concurrency: number;
  /** Called after each upload or delete: objects done, objects in the plan, the key. */
  onProgress?: (done: number, total: number, key: string) => void;
}

/** The counts `--json` prints (stable: DESIGN.md section 2; listed in docs/cli.md). The manifest itself is not counted. */
export interface PublishCounts {
  /** Objects uploaded (or, in a dry run, to upload). */
  uploaded: number;
  /** Objects already in the bucket with these bytes and headers. */
  unchanged: number;
  /** Stale objects deleted (or to delete). */
  deleted: number;
  /** Bytes uploaded (or to upload), objects' bodies only. */
  bytes_uploaded: number;
}

/** What a publish did (or, with `dryRun`, would do). */
export interface PublishResult {
  counts: PublishCounts;
  plan: PublishPlan;
  /** The key prefix the tree was published under. */
  prefix: string;
  /** Where the objects went (for messages). */
  location: string;
  /** Dot files of the tree left out. */
  skipped: string[];
  /** Things to tell the user that did not stop the publish. */
  warnings: string[];
  dryRun: boolean;
}

/**
 * Publishes `out` to `store` under `prefix`.
 * @throws LoadoutError `usage` for a bad prefix or concurrency; `invalid_content` for a tree
 *   path that cannot be a key, or a manifest in the bucket that is not one; the store's errors
 *   (src/publish/s3-store.ts) for a missing bucket, refused credentials or an unreachable
 *   endpoint. Nothing is written when the error comes before the first upload.
 */
export async function publishTree(options: PublishOptions): Promise<PublishResult> {
  const { store, prefix } = options;
  const prefixProblem = describePrefixProblem(prefix);
  if (prefixProblem !== undefined) throw new LoadoutError('usage', `--prefix ${JSON.stringify(prefix)} ${prefixProblem}`, { hint: 'give a relative path ending in "/", such as catalogue/, or leave --prefix out' });
  if (!Number.isSafeInteger(options.concurrency) || options.concurrency < 1) throw new LoadoutError('usage', `concurrency is ${options.concurrency} (expected a whole number of 1 or more)`);

  const tree = await readTree(options.out);
  for (const file of tree.files) {
    const problem = describeKeyLengthProblem(prefix + file.path);
    if (problem !== undefined) throw new LoadoutError('invalid_content', `the key of ${file.path} ${problem}`, { hint: 'use a shorter --prefix' });
  }
  const manifestKey = prefix + MANIFEST_NAME;
  const previousBytes = await store.get(manifestKey);
  const previous = previousBytes === undefined ? undefined : parseManifest(Buffer.from(previousBytes).toString('utf8'), `${store.location}: ${manifestKey}`);
  const plan = planPublish(tree.files.map(describeLocalObject), previous, { delete: options.delete });

  const uploads = plan.phases.flat();
  const counts: PublishCounts = { uploaded: uploads.length, unchanged: plan.unchanged.length, deleted: plan.deletes.length, bytes_uploaded: uploads.reduce((n, o) => n + o.bytes, 0) };
  const warnings = plan.changedPinned.map(
    (path) => `${path} has bytes other than the ones published under its pinned version; caches may serve the old bytes for up to a year (publish a new version instead of changing one)`,
  );
  const kept = plan.kept.filter((k) => k.reason === 'no-delete').length;
  if (kept > 0) warnings.push(`${kept} stale object${kept === 1 ? '' : 's'} left in the bucket (--delete removes them; pinned versions are never deleted)`);
  const result: PublishResult = { counts, plan, prefix, location: store.location, skipped: tree.skipped, warnings, dryRun: options.dryRun };
  if (options.dryRun) return result;

  const byPath = new Map<string, TreeFile>(tree.files.map((f) => [f.path, f]));
  const total = uploads.length + plan.deletes.length;
  let done = 0;
  const step = (key: string): void => options.onProgress?.(++done, total, key);
  for (const phase of plan.phases) {
    // Each phase completes before the next starts: that is the ordering guarantee.
    await mapConcurrent(phase, options.concurrency, async (object) => {
      const body = await readTreeFile(byPath.get(object.path) as TreeFile);
      await store.put(prefix + object.path, body, { contentType: object.contentType, cacheControl: object.cacheControl });
      step(prefix + object.path);
    });
  }
  await mapConcurrent(plan.deletes, options.concurrency, async (path) => {
    await store.delete(prefix + path);
    step(prefix + path);
  });
  if (plan.manifestChanged) {
    await store.put(manifestKey, Buffer.from(serialiseManifest(plan.manifest), 'utf8'), { contentType: 'application/json; charset=utf-8', cacheControl: MANIFEST_CACHE });
  }
  return result;
}
