/**
 * Incremental builds (DESIGN.md section 7: a rebuild after one loadout changes takes under
 * 10% of the cold build). Each built loadout gets a key: a sha256 over everything its outputs
 * depend on (its manifest and files, its git history, the fixtures, the base URL and the
 * builder's own code). The keys are kept in `<out>/.loadout-build.json`; on the next build a
 * loadout whose key is unchanged keeps its outputs in the tree instead of being checked and
 * written again. The checks are deterministic in those same inputs, so
 * their stored results still hold.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadoutSource } from '../catalogue/source.js';
import type { LoadoutHistory } from './history.js';

/** The cache file's name inside the output folder (never served: dot files are not). */
export const BUILD_CACHE_FILE = '.loadout-build.json';

/** Bump when the layout of the outputs changes in a way the code fingerprint would miss. */
const FORMAT = 1;

/** The cache file. */
export interface BuildCache {
  format: number;
  /** Fingerprint of the builder's code and settings; a different one invalidates every key. */
  fingerprint: string;
  /** Loadout id → key of its outputs in this tree. */
  loadouts: Record<string, string>;
}

/** Reads the cache of a previous tree; undefined when absent, unreadable or for other settings. */
export async function readBuildCache(out: string, fingerprint: string): Promise<BuildCache | undefined> {
  try {
    const cache = JSON.parse(await readFile(join(out, BUILD_CACHE_FILE), 'utf8')) as BuildCache;
    return cache.format === FORMAT && cache.fingerprint === fingerprint && typeof cache.loadouts === 'object' ? cache : undefined;
  } catch {
    return undefined;
  }
}

/** A new cache document for `fingerprint` and the keys of the loadouts built. */
export function makeBuildCache(fingerprint: string, keys: ReadonlyMap<string, string>): BuildCache {
  return { format: FORMAT, fingerprint, loadouts: Object.fromEntries(keys) };
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
export function loadoutKey(source: LoadoutSource, history: LoadoutHistory, commit: string): string {
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
