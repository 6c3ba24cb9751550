/**
 * A small catalogue in a real git repository, built by the real build into `<root>/dist`, and
 * the stores and readers the publish tests share.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { createS3Store, type S3Store } from '../../src/publish/s3-store.js';
import type { ObjectStore } from '../../src/publish/store.js';
import { baseFiles, writeLoadout } from '../helpers/loadouts.js';
import { S3RVER_CREDENTIALS } from '../helpers/s3-server.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

/** A catalogue repository and its built tree. */
export interface Catalogue {
  root: string;
  out: string;
  /** Builds again (incrementally) after a change; fails the test when the build refuses. */
  rebuild(): Promise<void>;
  /** alpha becomes 1.1.0 with new instructions (1.0.0 stays published from history). */
  bumpAlpha(): void;
  /** beta leaves the catalogue (its 1.0.0 files stay pinned in history). */
  removeBeta(): void;
}

/** Loadouts `alpha` and `beta` at 1.0.0, committed and built. */
export async function makeCatalogue(): Promise<Catalogue> {
  const root = makeTempDir('loadout-publish-');
  initRepo(root);
  writeLoadout(root, { id: 'alpha', title: 'Alpha Loadout' });
  writeLoadout(root, { id: 'beta', title: 'Beta Loadout' });
  commitAll(root, 'alpha and beta 1.0.0', '2026-01-10T10:00:00Z');
  const out = join(root, 'dist');
  const rebuild = async (): Promise<void> => {
    const result = await buildCatalogue({ root, out, baseUrl: 'https://catalogue.test', now: new Date('2026-03-01T00:00:00Z') });
    expect(result.refused).toEqual([]);
    expect(result.written).toBe(true);
  };
  await rebuild();
  return {
    root,
    out,
    rebuild,
    bumpAlpha() {
      writeLoadout(root, { id: 'alpha', title: 'Alpha Loadout', version: '1.1.0', files: baseFiles('Alpha Loadout', '# Alpha\n\nVersion two: run `npm test` and `npm run lint` before you commit.\n') });
      commitAll(root, 'alpha 1.1.0', '2026-02-20T10:00:00Z');
    },
    removeBeta() {
      rmSync(join(root, 'loadouts/beta'), { recursive: true });
      commitAll(root, 'remove beta', '2026-02-21T10:00:00Z');
    },
  };
}

/**
 * The published files of a tree, by relative path: dot files and folders are left out, as the
 * spec's API has none, except the `.well-known` folders of Agent Skills discovery at the root
 * and in `loadouts/<id>/` (README "Agent Skills discovery"), and the install targets of files as
 * installed, `raw/<id>/installed/<version>/<agent>/<target>` (docs/http-api.md, "Files as
 * installed"), whose folders are the agents' dot folders.
 */
export function readTreeBytes(dir: string, prefix = ''): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const wellKnownHere = prefix === '' || /^loadouts\/[^/.][^/]*\/$/u.test(prefix);
  const installedHere = /^raw\/[^/.][^/]*\/installed\/[^/.][^/]*\/[^/.][^/]*\//u.test(prefix);
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    if (entry.name.startsWith('.') && !(entry.name === '.well-known' && wellKnownHere) && !installedHere) continue;
    const path = prefix + entry.name;
    // A link to a folder of the tree (a raw `latest` folder) holds that folder's files, as publish reads them.
    const folder = entry.isDirectory() || (entry.isSymbolicLink() && statSync(join(dir, path)).isDirectory());
    if (folder) for (const [p, b] of readTreeBytes(dir, `${path}/`)) files.set(p, b);
    else files.set(path, readFileSync(join(dir, path)));
  }
  return files;
}

/** An S3 store on the test server, closed when the test ends. */
export function s3Store(endpoint: string, bucket: string, maxAttempts?: number): S3Store {
  const store = createS3Store({ bucket, endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3RVER_CREDENTIALS, ...(maxAttempts === undefined ? {} : { maxAttempts }) });
  onTestFinished(() => store.close());
  return store;
}

/** One store call, when it started or ended. */
export interface StoreEvent {
  at: 'start' | 'end';
  op: 'put' | 'delete';
  key: string;
}

/** Wraps `store` to record the start and end of every put and delete, in order. */
export function recording(store: ObjectStore): { store: ObjectStore; events: StoreEvent[] } {
  const events: StoreEvent[] = [];
  return {
    events,
    store: {
      location: store.location,
      get: (key) => store.get(key),
      async put(key, body, headers) {
        events.push({ at: 'start', op: 'put', key });
        await store.put(key, body, headers);
        events.push({ at: 'end', op: 'put', key });
      },
      async delete(key) {
        events.push({ at: 'start', op: 'delete', key });
        await store.delete(key);
        events.push({ at: 'end', op: 'delete', key });
      },
    },
  };
}
