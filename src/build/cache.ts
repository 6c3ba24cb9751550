/**
 * Incremental builds (DESIGN.md section 7: a rebuild after one loadout changes takes under
 * 10% of the cold build). Each built loadout gets a key: a sha256 over everything its outputs
 * depend on (its manifest and files, its git history, the fixtures, the base URL and the
 * builder's own code). The keys are kept in `<out>/.loadout-build.jsonl`; on the next build a
 * loadout whose key is unchanged keeps its outputs in the tree instead of being checked and
 * written again. The checks are deterministic in those same inputs, so
 * their stored results still hold.
 *
 * Beside each key the file keeps what the catalogue-wide documents need of the loadout (its
 * listing, catalogue-entry.ts; the words it is found by are in the whole search index the build
 * keeps beside, search/index-file.ts), and a stamp of its folder's file status (stamp.ts) with
 * the HEAD commit of that build. A loadout whose stamp still holds, and whose folder no
 * commit since then touched, has the same key without its files being read or hashed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadoutSource } from '../catalogue/source.js';
import type { CatalogueListing } from './catalogue-entry.js';
import type { HistoricVersion, LoadoutHistory } from './history.js';
import type { FolderStamp } from './stamp.js';
import { isEntryNameOf } from './store.js';

/** The cache file's name inside the output folder (never served: dot files are not). */
export const BUILD_CACHE_FILE = '.loadout-build.jsonl';

/** Bump when the layout of the outputs changes in a way the code fingerprint would miss. */
const FORMAT = 5;

/** What the cache keeps of one loadout built into the tree. */
export interface CachedLoadout {
  /** {@link loadoutKey} of its outputs. */
  key: string;
  /** Its entry in the store, which the tree links to (store.ts). */
  name: string;
  /** What the catalogue-wide documents read of it (catalogue-entry.ts). */
  listing: CatalogueListing;
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
 * The file is JSON Lines: a header line (`format`, `fingerprint`, `head`), then one line per
 * loadout (`{"id": …, …CachedLoadout}`), in id order. A rebuild writes the lines of the
 * loadouts it carried over as it read them, so it serialises only what changed (issue 13:
 * 10,000 loadouts were 0.12 s of JSON.stringify on every rebuild).
 */
interface CacheHeader {
  format: number;
  fingerprint: string;
  head: string | null;
}

/** A cache as read: its document, and each loadout's line as it was in the file. */
export interface ReadBuildCache extends BuildCache {
  /** The line of each loadout of `loadouts`, by the object it parsed to (for {@link writeBuildCache}). */
  lines: WeakMap<CachedLoadout, string>;
}

/**
 * Reads the cache of a previous tree; undefined when absent, unreadable, of another format or
 * for other settings. Loadouts whose line is not of the expected shape are left out (built again).
 */
export function readBuildCache(out: string, fingerprint: string): ReadBuildCache | undefined {
  let text: string;
  try {
    text = readFileSync(join(out, BUILD_CACHE_FILE), 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  let header: CacheHeader;
  try {
    header = JSON.parse(lines[0] ?? '') as CacheHeader;
  } catch {
    return undefined;
  }
  if (header === null || typeof header !== 'object' || header.format !== FORMAT || header.fingerprint !== fingerprint) return undefined;
  const loadouts: Record<string, CachedLoadout> = {};
  const kept = new WeakMap<CachedLoadout, string>();
  for (const line of lines.slice(1)) {
    if (line === '') continue;
    let parsed: CachedLoadout & { id?: unknown };
    try {
      parsed = JSON.parse(line) as CachedLoadout & { id?: unknown };
    } catch {
      continue;
    }
    const { id, ...cached } = parsed ?? {};
    if (typeof id === 'string' && isCachedLoadout(id, cached)) {
      loadouts[id] = cached;
      kept.set(cached, line);
    }
  }
  return { format: FORMAT, fingerprint, head: typeof header.head === 'string' ? header.head : null, loadouts, lines: kept };
}

function isCachedLoadout(id: string, c: CachedLoadout | null): c is CachedLoadout {
  const ok = c !== null && typeof c === 'object' && typeof c.key === 'string' && typeof c.name === 'string' && isEntryNameOf(id, c.name) && c.listing?.row?.id === id && typeof c.listing.skills === 'string' && Array.isArray(c.listing.discovery?.skills) && Array.isArray(c.listing.discovery.legacy);
  return ok && Array.isArray(c.versions) && Array.isArray(c.warnings) && typeof c.dirty === 'boolean' && (c.stamp === undefined || (Array.isArray(c.stamp.paths) && typeof c.stamp.digest === 'string'));
}

/**
 * The text of the cache file for `fingerprint`, the HEAD commit (undefined outside git) and
 * `loadouts` (by id, in id order). A loadout whose object is one `previous` read is written
 * as the line it was read from.
 */
export function buildCacheText(fingerprint: string, head: string | undefined, loadouts: ReadonlyMap<string, CachedLoadout>, previous?: ReadBuildCache): string {
  const header: CacheHeader = { format: FORMAT, fingerprint, head: head ?? null };
  const lines = [JSON.stringify(header)];
  for (const [id, cached] of loadouts) lines.push(previous?.lines.get(cached) ?? JSON.stringify({ id, ...cached }));
  return `${lines.join('\n')}\n`;
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
