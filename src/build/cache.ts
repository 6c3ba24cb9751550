/**
 * Incremental builds (DESIGN.md section 7: a rebuild after one loadout changes takes under
 * 10% of the cold build). Each built loadout gets a key: a sha256 over everything its outputs
 * depend on (its manifest and files, its git history, the fixtures, the base URL and the
 * builder's own code). The keys are kept in `<out>/.loadout-build.json`; on the next build a
 * loadout whose key is unchanged keeps its outputs in the tree instead of being checked and
 * written again. The checks are deterministic in those same inputs, so
 * their stored results still hold.
 *
 * Beside each key the file keeps what the catalogue-wide documents need of the loadout (its
 * catalogue entry and discovery indexes), and a stamp of its folder's file status (stamp.ts)
 * with the HEAD commit of that build. A loadout whose stamp still holds, and whose folder no
 * commit since then touched, has the same key without its files being read or hashed.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadoutSource } from '../catalogue/source.js';
import type { CatalogueEntry, LoadoutDiscovery } from './catalogue-entry.js';
import type { HistoricVersion, LoadoutHistory } from './history.js';
import type { FolderStamp } from './stamp.js';
import { isEntryNameOf } from './store.js';

/** The cache file's name inside the output folder (never served: dot files are not). */
export const BUILD_CACHE_FILE = '.loadout-build.json';

/** Bump when the layout of the outputs changes in a way the code fingerprint would miss. */
const FORMAT = 3;

/** What the cache keeps of one loadout built into the tree. */
export interface CachedLoadout {
  /** {@link loadoutKey} of its outputs. */
  key: string;
  /** Its entry in the store, which the tree links to (store.ts). */
  name: string;
  /** What the catalogue-wide documents read of its record. */
  entry: CatalogueEntry;
  /** Its own Agent Skills index entries. */
  discovery: LoadoutDiscovery;
  /** Every version published, oldest first, the current one last. */
  versions: string[];
  /** The build's warnings about it that come from its history (versions not published). */
  warnings: string[];
  /** The stamp of its folder as read (stamp.ts); absent when it was changing then. */
  stamp?: FolderStamp;
  /** True when it had changes not committed (its key then names HEAD, which may move). */
  dirty: boolean;
}

/** The cache file. */
export interface BuildCache {
  format: number;
  /** Fingerprint of the builder's code and settings; a different one invalidates every key. */
  fingerprint: string;
  /** The catalogue's HEAD commit at that build; null outside git. */
  head: string | null;
  /** Loadout id → what the tree holds of it. */
  loadouts: Record<string, CachedLoadout>;
}

/**
 * Reads the cache of a previous tree; undefined when absent, unreadable, of another format or
 * for other settings. Loadouts whose part is not of the expected shape are left out (built again).
 */
export async function readBuildCache(out: string, fingerprint: string): Promise<BuildCache | undefined> {
  let cache: BuildCache;
  try {
    cache = JSON.parse(await readFile(join(out, BUILD_CACHE_FILE), 'utf8')) as BuildCache;
  } catch {
    return undefined;
  }
  if (cache === null || typeof cache !== 'object' || cache.format !== FORMAT || cache.fingerprint !== fingerprint || typeof cache.loadouts !== 'object' || cache.loadouts === null) return undefined;
  const loadouts: Record<string, CachedLoadout> = {};
  for (const [id, c] of Object.entries(cache.loadouts)) if (isCachedLoadout(id, c)) loadouts[id] = c;
  return { format: FORMAT, fingerprint, head: typeof cache.head === 'string' ? cache.head : null, loadouts };
}

function isCachedLoadout(id: string, c: CachedLoadout | null): c is CachedLoadout {
  const ok = c !== null && typeof c === 'object' && typeof c.key === 'string' && typeof c.name === 'string' && isEntryNameOf(id, c.name) && c.entry?.id === id && Array.isArray(c.entry.files) && Array.isArray(c.discovery?.skills) && Array.isArray(c.discovery.legacy);
  return ok && Array.isArray(c.versions) && Array.isArray(c.warnings) && typeof c.dirty === 'boolean' && (c.stamp === undefined || (Array.isArray(c.stamp.paths) && typeof c.stamp.digest === 'string'));
}

/** A new cache document for `fingerprint`, the HEAD commit (undefined outside git) and the loadouts built, by id. */
export function makeBuildCache(fingerprint: string, head: string | undefined, loadouts: ReadonlyMap<string, CachedLoadout>): BuildCache {
  return { format: FORMAT, fingerprint, head: head ?? null, loadouts: Object.fromEntries(loadouts) };
}

/**
 * The fingerprint of a build's settings: the base URL, the fixtures folder's contents and the
 * builder's own code (every module file of this package, hashed), so that changing any of
 * them rebuilds everything.
 */
export async function fingerprintBuild(baseUrl: string, fixturesDir: string): Promise<string> {
  const hash = createHash('sha256').update(`format ${FORMAT}\nbase ${baseUrl}\n`);
  const codeDir = fileURLToPath(new URL('..', import.meta.url));
  await hashFolder(hash, codeDir, (name) => /\.(?:[cm]?js|ts|json)$/u.test(name));
  await hashFolder(hash, fixturesDir, () => true);
  return hash.digest('hex');
}

async function hashFolder(hash: ReturnType<typeof createHash>, dir: string, include: (name: string) => boolean): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  const files = entries
    .filter((e) => e.isFile() && include(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
  for (const file of files) hash.update(`${file}\n`).update(await readFile(file));
}

/**
 * The key of one loadout's outputs: its manifest and files (path and bytes), its history
 * (published versions and the commits holding them, dates, and each version's changes, the
 * changelog of versions.json), and the commit its verification names. Pure.
 */
export function loadoutKey(source: LoadoutSource, history: Omit<LoadoutHistory, 'versions'> & { versions: readonly Omit<HistoricVersion, 'load'>[] }, commit: string): string {
  const hash = createHash('sha256');
  hash.update(`manifest\n${source.manifestText ?? ''}\n`);
  for (const path of [...source.files.keys()].sort()) {
    hash.update(`file ${path}\n`).update(source.files.get(path) ?? new Uint8Array()).update('\n');
  }
  hash.update(`irregular ${source.irregular.join('\n')}\n`);
  // The changelog is an input too: a reworded or new commit subject changes versions.json.
  hash.update(JSON.stringify({ versions: history.versions.map((v) => [v.version, v.commit, v.date, v.changes]), published: history.published, updated: history.updated, since: history.currentSince, changes: history.currentChanges, commit }));
  return hash.digest('hex');
}
