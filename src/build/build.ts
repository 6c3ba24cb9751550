/**
 * `loadout build`: checks every loadout and writes the static API tree (DESIGN.md sections
 * 1, 3 and 5): records, raw files for every version and `latest`, six per-agent zips and a
 * source zip per loadout, the list, tag and agent documents, the description document, the
 * authoring schema, the search index, the pages and the Agent Skills discovery indexes
 * (skill-discovery.ts). A loadout that fails a check refuses the whole build, and `out` is
 * then left untouched.
 *
 * How (issue 13):
 * 1. The loadouts that cannot have changed since the live tree's build are told by their
 *    folder stamps and by git, without reading them (cache.ts, stamp.ts).
 * 2. The others are read, checked and written as new entries of the store, in the pool's
 *    worker threads (pool.ts, loadout-worker.ts), while this thread reads git for them.
 * 3. The standby tree is re-pointed at the changed entries, or a new tree is linked to
 *    every entry (store.ts), the catalogue documents are written into it, and `out` is
 *    switched to it (output.ts). Entries no tree links to any more are removed.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listLoadoutIds } from '../catalogue/source.js';
import { readManifestVersion } from '../catalogue/yaml-document.js';
import { mapConcurrent } from '../concurrency.js';
import { loadoutsDirOf } from '../verify/catalogue.js';
import type { CheckRun } from '../verify/run.js';
import { searchDocumentOf } from '../search/document.js';
import { readWholeIndex } from '../search/index-file.js';
import { updateIndex, vectorOf, type DocumentVector, type InvertedIndex } from '../search/inverted-index.js';
import { compileSettings, SEARCH_SETTINGS } from '../search/settings.js';
import { normaliseBaseUrl } from './addresses.js';
import { BUILD_CACHE_FILE, buildCacheText, fingerprintBuild, readBuildCache, type CachedLoadout, type ReadBuildCache } from './cache.js';
import { writeCatalogueDocuments } from './catalogue-documents.js';
import { listingOf } from './catalogue-entry.js';
import { changesSince, openHistory, openRepository, readHistoryData, type CatalogueHistory, type CatalogueRepository, type LoadoutHistory } from './history.js';
import { openTrees, type TreeSet } from './output.js';
import { buildLoadoutInPool, checkStampsInPool, linkEntriesInPool, POOL_THREADS } from './pool.js';
import { collectGarbage, documentPathsOf, entriesLinkedBy, entryNameOf, isEntryComplete, linkEntry, listEntries, removeEntry, unlinkEntry } from './store.js';

/** Options of {@link buildCatalogue}. */
export interface BuildOptions {
  /** Catalogue root (holds `loadouts/`). */
  root: string;
  /** Output folder, e.g. `dist`. */
  out: string;
  /** `{base_url}` of the published addresses, e.g. `http://localhost:8787`. */
  baseUrl: string;
  /** Time stamped into `verification.checked_at`; default now. */
  now?: Date;
  /** Ignore the previous tree and build every loadout again. */
  clean?: boolean;
  /**
   * Loadouts read, checked and written at once; default 16 per thread of the pool (enough to hide git's latency on this thread). 1 builds
   * them one after another, and gives the same bytes (a test compares the two).
   */
  concurrency?: number;
  /** Called after each loadout read is done with (for progress on a TTY). */
  onProgress?: (done: number, total: number, id: string) => void;
}

/** What a build did. */
export interface BuildResult {
  /** True when the tree was written. */
  written: boolean;
  /**
   * The check runs of the loadouts that refused the build (each has a failing check); empty
   * when the build was written. The runs of loadouts that passed are not kept: they hold
   * every file's bytes.
   */
  runs: CheckRun[];
  /** Ids of the loadouts that failed a check; non-empty means nothing was written. */
  refused: string[];
  /** Loadouts built, with the versions published for each. */
  loadouts: { id: string; version: string; versions: string[] }[];
  /** Ids left unchanged from the previous tree. */
  reused: string[];
  /**
   * Ids whose folders were read in this build: all of them without a previous tree; on a
   * rebuild, those that a folder stamp or git could not tell unchanged (cache.ts, stamp.ts).
   */
  read: string[];
  /** Non-fatal notes (e.g. not a git repository). */
  warnings: string[];
  /** Bytes written (unchanged loadouts not counted). */
  bytes: number;
}

/** Loadouts whose folder stamps one task checks, or that one task links into a tree. */
const SLICE = 500;

/**
 * Builds the catalogue at `options.root` into `options.out`.
 * @throws LoadoutError `not_found` when there is no `loadouts/` folder, `git` when git fails,
 *   `io` when another build is writing `out` or a manifest changed during the build.
 */
export async function buildCatalogue(options: BuildOptions): Promise<BuildResult> {
  const base = normaliseBaseUrl(options.baseUrl);
  const loadoutsDir = loadoutsDirOf(options.root);
  const ids = await listLoadoutIds(loadoutsDir);
  const fingerprint = await fingerprintBuild(base, join(options.root, 'fixtures'));
  const trees = await openTrees(options.out);
  try {
    const clean = options.clean === true;
    const live = clean || trees.live === undefined ? undefined : readPreviousBuild(trees.live, fingerprint);
    const result: BuildResult = { written: false, runs: [], refused: [], loadouts: [], reused: [], read: [], warnings: [], bytes: 0 };
    const repo = await openRepository(loadoutsDir);
    const unchanged = findUnchanged(loadoutsDir, ids, trees.store, live, repo);
    // Read while the worker threads check folder stamps: what the trees link to, and what the store holds.
    const linkedByLive = trees.live === undefined ? new Map<string, string>() : entriesLinkedBy(trees.live);
    const linkedByStandby = trees.standby === undefined ? new Map<string, string>() : entriesLinkedBy(trees.standby);
    const stored = listEntries(trees.store);
    const built = await buildLoadouts(options, { base, loadoutsDir, ids, trees, repo, unchanged: await unchanged, result });
    if (built === undefined) return result;
    const names = new Set([...built.loadouts.values()].map((b) => b.name));
    // The search index: the live tree's, with the words of the loadouts built now.
    const index = updateIndex(SEARCH_SETTINGS.fields, live?.index, ids, built.vectors);
    const written = await trees.write(
      async (tree, files) => {
        if (tree.origin !== undefined) {
          // The tree started as the standby or a copy of the live tree: its catalogue documents
          // and removed loadouts go, and the loadouts whose entry is not the one it links to are
          // re-pointed.
          const linked = tree.origin === 'standby' ? linkedByStandby : linkedByLive;
          for (const path of documentPathsOf(tree.dir)) files.remove(path);
          for (const id of linked.keys()) if (!built.loadouts.has(id)) unlinkEntry(files, id);
          for (const [id, b] of built.loadouts) if (linked.get(id) !== b.name) linkEntry(files, trees.store, id, b.name);
        } else {
          const entries = [...built.loadouts].map(([id, b]) => ({ id, name: b.name }));
          await Promise.all(slices(entries).map((slice) => linkEntriesInPool({ tree: tree.dir, store: trees.store, entries: slice })));
        }
        await writeCatalogueDocuments(tree, base, [...built.loadouts.values()].map((b) => b.listing), index);
        await tree.write(BUILD_CACHE_FILE, buildCacheText(fingerprint, built.head, built.loadouts, live?.cache));
        return tree.bytes;
      },
      // A clean build links a new tree to every entry; others update the standby (or a copy of the live tree).
      { startFrom: async () => !clean },
    );
    result.bytes += written.result;
    // Entries neither the live tree nor its standby (the tree live before, or the first build's
    // copy) links to: replaced loadouts, and what refused or killed builds left.
    const standbyLinks = written.standby === undefined ? [] : trees.live === undefined ? names : linkedByLive.values();
    collectGarbage(trees.store, stored, new Set([...names, ...standbyLinks]));
    result.loadouts = [...built.loadouts].map(([id, b]) => ({ id, version: b.listing.row.version, versions: b.versions }));
    result.reused.sort();
    result.written = true;
    return result;
  } finally {
    trees.close();
  }
}

/** What {@link buildLoadouts} works with. */
interface BuildContext {
  base: string;
  loadoutsDir: string;
  ids: readonly string[];
  trees: TreeSet;
  repo: CatalogueRepository | undefined;
  unchanged: Unchanged;
  result: BuildResult;
}

/** What {@link findUnchanged} found. */
interface Unchanged {
  /** What the live tree's build kept of a loadout whose entry is whole; undefined for the others. */
  previous: (id: string) => CachedLoadout | undefined;
  /** The loadouts whose folders need not be read: no commit since touched them and their folder stamps hold. */
  unread: Set<string>;
  /** True when there is no previous build to compare with: every loadout is read, and git for all of them. */
  fresh: boolean;
}

/**
 * Step 1 of the module comment: the loadouts that cannot have changed since the live tree's
 * build, by git (commits since its HEAD) and by their folder stamps, checked in the worker
 * threads (the promise resolves when they are done).
 */
async function findUnchanged(loadoutsDir: string, ids: readonly string[], store: string, live: PreviousBuild | undefined, repo: CatalogueRepository | undefined): Promise<Unchanged> {
  const { touched } = await changesSince(repo, live?.cache.head ?? undefined);
  const whole = new Map<string, CachedLoadout | undefined>();
  const previous = (id: string): CachedLoadout | undefined => {
    if (!whole.has(id)) {
      const cached = live?.cache.loadouts[id];
      whole.set(id, cached !== undefined && isEntryComplete(store, cached.name) ? cached : undefined);
    }
    return whole.get(id);
  };
  const candidates = touched === undefined ? [] : ids.flatMap((id) => {
    const cached = previous(id);
    return cached?.stamp !== undefined && !touched.has(id) && !(cached.dirty && repo?.head !== live?.cache.head) ? [{ id, stamp: cached.stamp }] : [];
  });
  const unread = new Set((await Promise.all(slices(candidates).map((items) => checkStampsInPool({ loadoutsDir, items })))).flat());
  return { previous, unread, fresh: live === undefined };
}

/**
 * Steps 1 and 2 of the module comment: every loadout in the store, each with what the cache
 * keeps of it, in `ids` order, and the HEAD commit; undefined when a loadout refused the
 * build (the entries this build wrote are then removed, and `result` says why).
 */
async function buildLoadouts(options: BuildOptions, context: BuildContext): Promise<BuiltLoadouts | undefined> {
  const { loadoutsDir, ids, trees, repo, unchanged, result } = context;
  const { previous, unread } = unchanged;
  result.read = ids.filter((id) => !unread.has(id));
  const history = await openHistory(repo, unchanged.fresh ? undefined : result.read);
  if (history.head === undefined) result.warnings.push('not a git repository (or no commits yet): only the working-tree version of each loadout is built');

  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const checkedAt = (options.now ?? new Date()).toISOString();
  const built = new Map<string, CachedLoadout>();
  const vectors = new Map<string, DocumentVector>();
  const compiled = compileSettings(SEARCH_SETTINGS);
  let done = 0;
  try {
    const outcomes = await mapConcurrent(result.read, options.concurrency ?? POOL_THREADS * 16, async (id) => {
      const version = manifestVersionOf(loadoutsDir, id);
      const loadoutHistory = await history.historyOf(id, version);
      const commit = commitOf(history, loadoutHistory, id);
      const outcome = await buildLoadoutInPool({ loadoutsDir, fixturesDir: join(options.root, 'fixtures'), store: trees.store, base: context.base, checkedAt, id, name: entryNameOf(id, tag), version, history: await readHistoryData(loadoutHistory), commit, previousKey: previous(id)?.key });
      options.onProgress?.(++done, result.read.length, id);
      return { outcome, loadoutHistory, commit };
    });
    for (const { outcome, loadoutHistory, commit } of outcomes) {
      const { id } = outcome;
      const warnings = loadoutHistory.skipped.map((s) => `loadouts/${id}: version ${JSON.stringify(s.version)} in loadout.yaml of commit ${s.commit} ${s.reason}: not published`);
      result.warnings.push(...warnings);
      const kept = { warnings, dirty: commit.endsWith('+dirty'), ...(outcome.stamp === undefined ? {} : { stamp: outcome.stamp }) };
      if (outcome.kind === 'refused') {
        result.runs.push(outcome.run);
        result.refused.push(id);
      } else if (outcome.kind === 'unchanged') {
        const { stamp: _stale, ...cached } = previous(id) as CachedLoadout;
        built.set(id, { ...cached, ...kept });
        result.reused.push(id);
      } else {
        const { entry, discovery, ...rest } = outcome.built;
        built.set(id, { ...rest, listing: listingOf(entry, discovery), ...kept });
        vectors.set(id, vectorOf(searchDocumentOf(entry, compiled), compiled));
        result.warnings.push(...outcome.warnings);
        result.bytes += outcome.bytes;
      }
    }
  } catch (error) {
    for (const id of result.read) removeEntry(trees.store, entryNameOf(id, tag));
    throw error;
  } finally {
    history.close();
  }
  if (result.refused.length > 0) {
    for (const b of built.values()) if (b.name.endsWith(`@${tag}`)) removeEntry(trees.store, b.name);
    return undefined;
  }
  const all = new Map<string, CachedLoadout>();
  for (const id of ids) {
    const b = built.get(id) ?? (unread.has(id) ? previous(id) : undefined);
    if (b === undefined) throw new Error(`internal error: loadout ${id} was neither built nor kept`);
    if (unread.has(id)) result.reused.push(id);
    all.set(id, b);
  }
  return { loadouts: all, vectors, head: repo?.head };
}

/** The loadouts of this build (see {@link buildLoadouts}). */
interface BuiltLoadouts {
  /** Every loadout, in id order, with what the cache keeps of it. */
  loadouts: Map<string, CachedLoadout>;
  /** The words of the loadouts built now (the others' are in the previous search index). */
  vectors: Map<string, DocumentVector>;
  /** The HEAD commit, undefined outside git. */
  head: string | undefined;
}

/** What a build left in its tree for the next one: its cache and its whole search index. */
interface PreviousBuild {
  cache: ReadBuildCache;
  index: InvertedIndex;
}

/**
 * What the build of the tree at `dir` left for this one, when it was for the same settings
 * (`fingerprint`) and whole: else undefined, and every loadout is built again.
 */
function readPreviousBuild(dir: string, fingerprint: string): PreviousBuild | undefined {
  const cache = readBuildCache(dir, fingerprint);
  const index = cache === undefined ? undefined : readWholeIndex(dir);
  if (cache === undefined || index === undefined) return undefined;
  // A loadout the index lacks is built again (a cache part whose words were lost).
  const indexed = new Set(index.ids);
  const loadouts = Object.fromEntries(Object.entries(cache.loadouts).filter(([id]) => indexed.has(id)));
  return { cache: { ...cache, loadouts }, index };
}

/** `items` in slices of {@link SLICE}, one task each. */
function slices<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += SLICE) out.push(items.slice(i, i + SLICE));
  return out;
}

/** The version in a loadout's manifest (read cheaply), or '' when it has none or no manifest. */
function manifestVersionOf(loadoutsDir: string, id: string): string {
  try {
    return readManifestVersion(readFileSync(join(loadoutsDir, id, 'loadout.yaml'), 'utf8')) ?? '';
  } catch {
    return '';
  }
}

/**
 * `verification.commit`: the last commit that changed the loadout, `+dirty` when the working
 * tree differs from it (a loadout never committed names HEAD), or `working-tree` outside git.
 */
function commitOf(history: CatalogueHistory, loadout: LoadoutHistory, id: string): string {
  if (history.head === undefined) return 'working-tree';
  const commit = loadout.lastCommit ?? history.head;
  return history.dirty.has(id) || loadout.lastCommit === undefined ? `${commit}+dirty` : commit;
}
