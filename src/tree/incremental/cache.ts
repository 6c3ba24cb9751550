/**
 * Incremental builds (DESIGN.md section 7: a rebuild after one change under 2 s at 10,000
 * loadouts). Each built loadout gets a key: a sha256 over everything its outputs depend on (its
 * manifest and files, its git history, the fixtures, the base URL and the builder's own code).
 * The keys are kept in `<out>/.loadout-build.jsonl`; on the next build a loadout whose key is
 * unchanged keeps its outputs in the tree instead of being checked and written again. The
 * checks are deterministic in those same inputs, so their stored results still hold.
 *
 * Beside each key the file keeps what the catalogue-wide documents need of the loadout (its
 * listing, catalogue-entry.ts; the words it is found by are in the whole search index the build
 * keeps beside, search/index-file.ts), and its folder's git tree id (stamp.ts) with the HEAD
 * commit of that build. A loadout whose folder is clean with the same tree id, and which no
 * commit since then touched, has the same key without its files being read or hashed.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listFolderEntries } from '../../catalogue/folder-entries.js';
import type { LoadoutSource } from '../../catalogue/source.js';
import type { CatalogueListing } from '../render/catalogue-entry.js';
import type { HistoricVersion, LoadoutHistory } from '../history/history.js';
import type { FolderStamp } from './stamp.js';
import { isEntryNameOf } from '../write/store.js';
import type { BundleMention } from '../../tree-format/bundle.js';

/** The cache file's name inside the output folder (never served: dot files are not). */
export const BUILD_CACHE_FILE = '.loadout-build.jsonl';

/**
 * Beside a cache file that a build carried from the tree before it instead of writing its own
 * (build.ts, `documents: 'defer'`): `{"loadouts": [ids]}`, the loadouts built since that cache
 * was written, whose lines in it are not what the tree holds. {@link readBuildCache} leaves them
 * out, so they are built again; the deferred documents' writer writes the cache whole and
 * removes this file.
 */
export const BUILT_SINCE_FILE = '.loadout-built-since.json';

/** The ids {@link BUILT_SINCE_FILE} in the tree `dir` names; none when it is absent; undefined when it cannot be read or has another shape. */
export function readBuiltSince(dir: string): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, BUILT_SINCE_FILE), 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : undefined;
  }
  const value = parseLine(text) as { loadouts?: unknown } | undefined;
  return Array.isArray(value?.loadouts) && value.loadouts.every((id) => typeof id === 'string') ? (value.loadouts as string[]) : undefined;
}

/** Bump when the layout of the outputs changes in a way the code fingerprint would miss. */
const FORMAT = 8;

/** What the cache keeps of a loadout to tell whether it changed, and where its outputs are. */
export interface LoadoutState {
  /** {@link loadoutKey} of its outputs. */
  key: string;
  /** Its entry in the store, which the tree links to (store.ts). */
  name: string;
  /** Every version published, oldest first, the current one last. */
  versions: string[];
  /** The build's warnings about it that come from its history (versions not published). */
  warnings: string[];
  /** The stamp of its folder as read (stamp.ts: git's tree id); absent when it had changes in the working tree. */
  stamp?: FolderStamp;
  /** True when it had changes not committed (its key then names HEAD, which may move). */
  dirty: boolean;
  /**
   * The bundles that named it when it was built, as its page lists them (tree/render/bundles.ts
   * `bundleMentionsOf`), as JSON; absent when none did. A loadout whose bundles differ now is
   * built again (previous-build.ts), since its page lists them.
   */
  bundles?: string;
}

/** What the cache keeps of one loadout built into the tree. */
export interface CachedLoadout {
  state: LoadoutState;
  /** What the catalogue-wide documents read of it (catalogue-entry.ts). */
  listing: CatalogueListing;
}

/**
 * The file is JSON Lines: a header line (`format`, `fingerprint`, `head`, `loadouts`: their
 * number, `statesBytes`: the length of the state lines that follow, in bytes), then a line per
 * loadout with its {@link LoadoutState} (`{"id": …, …state}`), then a line per loadout with its
 * listing (`{"id": …, "listing": …}`), both in id order. A rebuild reads and parses the states
 * first (a tenth of the file) and the listings while a thread builds, and writes the lines of
 * what it carried over as it read them, so that it serialises only what changed (serialising
 * and parsing the whole cache sits on the critical path of every rebuild; DESIGN.md section 7
 * sets the target, `bench/build.ts` measures it).
 */
interface CacheHeader {
  format: number;
  fingerprint: string;
  head: string | null;
  loadouts: number;
  statesBytes: number;
}

/** Bytes read for the header line: it is about 200. */
const HEADER_READ = 4096;

/** A cache as read (see {@link readBuildCache}). */
export interface BuildCache {
  /** The catalogue's HEAD commit at that build; null outside git. */
  head: string | null;
  /** Loadout id → its state. */
  states: Map<string, LoadoutState>;
  /** Parses the listings (once): loadout id → its listing, for ids of `states` (a loadout without one is built again). */
  listings(): Map<string, CatalogueListing>;
  /** The line each state and listing was read from, by the object it parsed to (for {@link buildCachePieces}). */
  lines: WeakMap<object, string>;
}

/**
 * Reads the cache of a previous tree; undefined when absent, unreadable, of another format or
 * for other settings. A loadout whose line is not of the expected shape, or which
 * {@link BUILT_SINCE_FILE} names, is left out (built again); listings are parsed when asked for.
 * Only the header and the states are read now (2 MB of 21 at 10,000 loadouts: reading the whole
 * file took 70 to 120 ms before anything could start); the listings are read from the same file
 * when asked for, which a rebuild does while a thread builds. A file replaced in between (another
 * generation: another inode, size or time) gives no listings, and its loadouts are built again.
 */
export function readBuildCache(out: string, fingerprint: string): BuildCache | undefined {
  const file = join(out, BUILD_CACHE_FILE);
  const opened = openCacheFile(file);
  if (opened === undefined) return undefined;
  let header: Partial<CacheHeader> | undefined;
  let statesStart: number;
  let statesBytes: number;
  let stateBytes: Buffer;
  try {
    const first = readAt(opened.fd, 0, HEADER_READ, opened.identity.size);
    // A line ends at a byte 10, which UTF-8 never uses inside a character.
    const headerEnd = first.indexOf(10);
    header = headerEnd < 0 ? undefined : (parseLine(first.toString('utf8', 0, headerEnd)) as Partial<CacheHeader> | undefined);
    if (header?.format !== FORMAT || header.fingerprint !== fingerprint || typeof header.loadouts !== 'number' || typeof header.statesBytes !== 'number' || !Number.isSafeInteger(header.statesBytes) || header.statesBytes < 0) return undefined;
    statesStart = headerEnd + 1;
    statesBytes = header.statesBytes;
    stateBytes = readAt(opened.fd, statesStart, statesBytes, opened.identity.size);
  } finally {
    closeSync(opened.fd);
  }
  // Lines of loadouts built since the cache was written do not hold.
  const builtSince = readBuiltSince(out);
  if (builtSince === undefined) return undefined;
  const stale = new Set(builtSince);
  const kept = new WeakMap<object, string>();
  const states = new Map<string, LoadoutState>();
  for (const line of stateBytes.toString('utf8').split('\n')) {
    const { id, ...state } = (parseLine(line) ?? {}) as LoadoutState & { id?: unknown };
    if (typeof id === 'string' && !stale.has(id) && isLoadoutState(id, state)) {
      states.set(id, state);
      kept.set(state, line);
    }
  }
  const listingsStart = statesStart + statesBytes;
  let listings: Map<string, CatalogueListing> | undefined;
  return {
    head: typeof header.head === 'string' ? header.head : null,
    states,
    lines: kept,
    listings() {
      if (listings !== undefined) return listings;
      listings = new Map();
      const listingBytes = readListingBytes(file, opened.identity, listingsStart);
      for (const line of listingBytes?.toString('utf8').split('\n') ?? []) {
        const { id, listing } = (parseLine(line) ?? {}) as { id?: unknown; listing?: CatalogueListing };
        if (typeof id === 'string' && states.has(id) && isListing(id, listing)) {
          listings.set(id, listing);
          kept.set(listing, line);
        }
      }
      return listings;
    },
  };
}

/** The listing lines of the cache `file` from byte `start`, if it is still the generation `identity` said; undefined otherwise. */
function readListingBytes(file: string, identity: Stats, start: number): Buffer | undefined {
  const again = openCacheFile(file);
  if (again === undefined) return undefined;
  try {
    return sameFile(again.identity, identity) ? readAt(again.fd, start, again.identity.size - start, again.identity.size) : undefined;
  } finally {
    closeSync(again.fd);
  }
}

/** The cache file open for reading, with what it was when opened; undefined when it cannot be opened. */
function openCacheFile(file: string): { fd: number; identity: Stats } | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    return { fd, identity: fstatSync(fd) };
  } catch {
    closeSync(fd);
    return undefined;
  }
}

/** True when two looks at a file saw the same generation of it: the same inode, size and modification time. */
function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** Up to `length` bytes of the open file `fd` from `position`, fewer where the file (`size` bytes) ends. */
function readAt(fd: number, position: number, length: number, size: number): Buffer {
  const bytes = Buffer.allocUnsafe(Math.max(0, Math.min(length, size - position)));
  let at = 0;
  while (at < bytes.length) {
    const read = readSync(fd, bytes, at, bytes.length - at, position + at);
    if (read === 0) break;
    at += read;
  }
  return bytes.subarray(0, at);
}

function parseLine(line: string): unknown {
  try {
    return line === '' ? undefined : (JSON.parse(line) as unknown);
  } catch {
    return undefined;
  }
}

function isLoadoutState(id: string, c: LoadoutState): boolean {
  return typeof c.key === 'string' && typeof c.name === 'string' && isEntryNameOf(id, c.name) && Array.isArray(c.versions) && Array.isArray(c.warnings) && typeof c.dirty === 'boolean' && (c.stamp === undefined || typeof c.stamp.tree === 'string') && (c.bundles === undefined || typeof c.bundles === 'string');
}

function isListing(id: string, l: CatalogueListing | undefined): l is CatalogueListing {
  return l !== undefined && l !== null && typeof l === 'object' && l.row?.id === id && typeof l.skills === 'string' && Array.isArray(l.discovery?.skills) && Array.isArray(l.discovery.legacy);
}

/**
 * The text of the cache file for `fingerprint`, the HEAD commit (undefined outside git) and
 * `loadouts` (by id, in id order), a line at a time (tree-files.ts `ContentPieces`: 21 MB at
 * 10,000 loadouts, never made as one string). A state or listing that `previous` read is
 * written as the line it was read from.
 */
export function* buildCachePieces(fingerprint: string, head: string | undefined, loadouts: ReadonlyMap<string, CachedLoadout>, previous?: BuildCache): Generator<string, void, undefined> {
  const stateLines = [...loadouts].map(([id, { state }]) => `${previous?.lines.get(state) ?? JSON.stringify({ id, ...state })}\n`);
  let statesBytes = 0;
  for (const line of stateLines) statesBytes += Buffer.byteLength(line);
  const header: CacheHeader = { format: FORMAT, fingerprint, head: head ?? null, loadouts: loadouts.size, statesBytes };
  yield `${JSON.stringify(header)}\n`;
  yield* stateLines;
  for (const [id, { listing }] of loadouts) yield `${listingLine(id, listing, previous)}\n`;
}

/**
 * The cache that reading back the text {@link buildCachePieces} makes of `loadouts` would give,
 * without making that text: the same states and listings, as objects, with the lines `previous`
 * read them from (the others are serialised when the text is made). The next build in the same
 * process (`loadout dev`, kept-build.ts) takes it instead of reading the file. Pure.
 */
export function cacheOf(head: string | undefined, loadouts: ReadonlyMap<string, CachedLoadout>, previous?: BuildCache): BuildCache {
  const lines = new WeakMap<object, string>();
  const states = new Map<string, LoadoutState>();
  const listings = new Map<string, CatalogueListing>();
  for (const [id, { state, listing }] of loadouts) {
    states.set(id, state);
    listings.set(id, listing);
    for (const value of [state, listing]) {
      const line = previous?.lines.get(value);
      if (line !== undefined) lines.set(value, line);
    }
  }
  return { head: head ?? null, states, lines, listings: () => listings };
}

/** The cache line of loadout `id`'s `listing`: the line `previous` read it from, else the line written for it now. */
export function listingLine(id: string, listing: CatalogueListing, previous?: BuildCache): string {
  return previous?.lines.get(listing) ?? JSON.stringify({ id, listing });
}

/**
 * The fingerprint of a build's settings: the base URL, `settings` (more settings, as text: the
 * pages' CLI route with the registry's version when the build was told the CLI is published
 * there, and the tree's plugins folder for a catalogue built for an address of this machine; whether
 * it writes native plugins and its marketplace), the fixtures folder's contents and the
 * builder's own code (every module file of this package, hashed), so that changing any of
 * them rebuilds everything (the code is hashed once per process). Paths are hashed relative
 * to their folder, so a checkout in another folder (a CI runner's) has the same fingerprint.
 * Read synchronously: a few hundred small files, which the thread pool's round trips would
 * make several times slower.
 */
export function fingerprintBuild(baseUrl: string, fixturesDir: string, settings = ''): string {
  const hash = createHash('sha256').update(`format ${FORMAT}\nbase ${baseUrl}\nsettings ${settings}\n`);
  hash.update(`code ${codeDigest()}\n`);
  hashFolder(hash, fixturesDir, () => true);
  return hash.digest('hex');
}

let code: string | undefined;

/** The sha256 of the builder's own code (every module file of this package): once per process, as the code a process runs does not change under it. */
function codeDigest(): string {
  if (code === undefined) {
    const hash = createHash('sha256');
    hashFolder(hash, fileURLToPath(new URL('../..', import.meta.url)), (name) => /\.(?:[cm]?js|ts|json)$/u.test(name));
    code = hash.digest('hex');
  }
  return code;
}

function hashFolder(hash: ReturnType<typeof createHash>, dir: string, include: (name: string) => boolean): void {
  const entries = existsSync(dir) ? listFolderEntries(dir) : [];
  const files = entries
    .filter((e) => e.dirent.isFile() && include(e.dirent.name))
    .map((e) => e.path)
    .sort();
  for (const file of files) hash.update(`${file}\n`).update(readFileSync(join(dir, file)));
}

/** The bundles of a loadout as its key and its cache state hold them ({@link LoadoutState.bundles}): their JSON, '' for none. Pure. */
export function mentionsKey(bundles: readonly BundleMention[] | undefined): string {
  return bundles === undefined || bundles.length === 0 ? '' : JSON.stringify(bundles);
}

/**
 * The key of one loadout's outputs: its manifest and files (path and bytes), its history
 * (published versions and the commits holding them, dates, and each version's changes, the
 * changelog of versions.json), the commit its verification names, and the bundles that name it
 * (`bundles`, {@link LoadoutState.bundles}: its page lists them; '' for none, which adds
 * nothing to the key). Pure.
 */
export function loadoutKey(source: LoadoutSource, history: Omit<LoadoutHistory, 'versions'> & { versions: readonly Omit<HistoricVersion, 'load'>[] }, commit: string, bundles = ''): string {
  const hash = createHash('sha256');
  hash.update(`manifest\n${source.manifestText ?? ''}\n`);
  for (const path of [...source.files.keys()].sort()) {
    hash.update(`file ${path}\n`).update(source.files.get(path) ?? new Uint8Array()).update('\n');
  }
  hash.update(`irregular ${source.irregular.join('\n')}\n`);
  // The changelog is an input too: a reworded or new commit subject changes versions.json.
  hash.update(JSON.stringify({ versions: history.versions.map((v) => [v.version, v.commit, v.date, v.changes]), published: history.published, updated: history.updated, since: history.currentSince, changes: history.currentChanges, commit }));
  if (bundles !== '') hash.update(`\nbundles ${bundles}`);
  return hash.digest('hex');
}
