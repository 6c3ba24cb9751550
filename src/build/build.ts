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
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { listLoadoutIds } from '../catalogue/source.js';
import { readManifestVersion } from '../catalogue/yaml-document.js';
import { mapConcurrent } from '../concurrency.js';
import { loadoutsDirOf } from '../verify/catalogue.js';
import type { CheckRun } from '../verify/run.js';
import { normaliseBaseUrl } from './addresses.js';
import { BUILD_CACHE_FILE, fingerprintBuild, makeBuildCache, readBuildCache, type BuildCache, type CachedLoadout } from './cache.js';
import { writeCatalogueDocuments } from './catalogue-documents.js';
import { changesSince, openHistory, openRepository, readHistoryData, type CatalogueHistory, type LoadoutHistory } from './history.js';
import { openTrees, type TreeSet } from './output.js';
import { buildLoadoutInPool, checkStampsInPool, linkEntriesInPool, POOL_THREADS } from './pool.js';
import { writeCatalogueDiscovery } from './skill-discovery.js';
import { collectGarbage, entriesOfNoLoadout, entryNameOf, isEntryComplete, linkEntry, removeEntry } from './store.js';

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
    const live = clean || trees.live === undefined ? undefined : await readBuildCache(trees.live, fingerprint);
    const result: BuildResult = { written: false, runs: [], refused: [], loadouts: [], reused: [], read: [], warnings: [], bytes: 0 };
    const built = await buildLoadouts(options, { base, loadoutsDir, ids, trees, live, result });
    if (built === undefined) return result;
    const names = new Set([...built.values()].map((b) => b.name));
    const standby = clean || trees.standby === undefined ? undefined : await readBuildCache(trees.standby, fingerprint);
    const cache = makeBuildCache(fingerprint, built.head, built);
    const written = await trees.write(
      async (tree, files) => {
        // The tree started as the standby or a copy of the live tree: what is not a loadout's
        // goes (the catalogue documents, removed loadouts), and the loadouts whose entry is not
        // the one that tree links to are re-pointed. An empty tree is linked to every entry.
        const origin = tree.origin === 'standby' ? standby : tree.origin === 'live' ? live : undefined;
        if (origin !== undefined) {
          for (const path of entriesOfNoLoadout(tree.dir, ids)) files.remove(path);
          for (const [id, b] of built) if (origin.loadouts[id]?.name !== b.name) linkEntry(files, trees.store, id, b.name);
        } else {
          const entries = [...built].map(([id, b]) => ({ id, name: b.name }));
          await Promise.all(slices(entries).map((slice) => linkEntriesInPool({ tree: tree.dir, store: trees.store, entries: slice })));
        }
        await writeCatalogueDocuments(tree, base, [...built.values()].map((b) => b.entry));
        await writeCatalogueDiscovery(tree, [...built.values()].map((b) => ({ ...b.entry, discovery: b.discovery })));
        await tree.write(BUILD_CACHE_FILE, JSON.stringify(cache));
        return tree.bytes;
      },
      // A tree whose cache is for this build's settings can be updated; the first build, a
      // clean one, or one after a change of the builder's code starts from an empty tree.
      { startFrom: async (_dir, origin) => (origin === 'standby' ? standby : live) !== undefined },
    );
    result.bytes += written.result;
    // Entries neither the live tree nor its standby links to: replaced loadouts, and what refused or killed builds left.
    collectGarbage(trees.store, new Set([...names, ...(written.standby === undefined ? [] : entriesLinkedBy(written.standby))]));
    result.loadouts = [...built].map(([id, b]) => ({ id, version: b.entry.version, versions: b.versions }));
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
  /** The live tree's build cache, when it is for this build's settings. */
  live: BuildCache | undefined;
  result: BuildResult;
}

/**
 * Steps 1 and 2 of the module comment: every loadout in the store, each with what the cache
 * keeps of it, in `ids` order, and the HEAD commit; undefined when a loadout refused the
 * build (the entries this build wrote are then removed, and `result` says why).
 */
async function buildLoadouts(options: BuildOptions, context: BuildContext): Promise<(Map<string, CachedLoadout> & { head: string | undefined }) | undefined> {
  const { loadoutsDir, ids, trees, live, result } = context;
  const repo = await openRepository(loadoutsDir);
  const { touched } = await changesSince(repo, live?.head ?? undefined);
  // Kept from the live tree: a loadout whose entry is whole, that no commit since touched, and
  // whose folder stamp holds.
  const previous = (id: string): CachedLoadout | undefined => {
    const cached = live?.loadouts[id];
    return cached !== undefined && isEntryComplete(trees.store, cached.name) ? cached : undefined;
  };
  const candidates = touched === undefined ? [] : ids.filter((id) => {
    const cached = previous(id);
    return cached?.stamp !== undefined && !touched.has(id) && !(cached.dirty && repo?.head !== live?.head);
  });
  const unread = new Set((await Promise.all(slices(candidates).map((slice) => checkStampsInPool({ loadoutsDir, items: slice.map((id) => ({ id, stamp: previous(id)?.stamp ?? { paths: [], digest: '' } })) })))).flat());
  result.read = ids.filter((id) => !unread.has(id));
  const history = await openHistory(repo, live === undefined ? undefined : result.read);
  if (history.head === undefined) result.warnings.push('not a git repository (or no commits yet): only the working-tree version of each loadout is built');

  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const checkedAt = (options.now ?? new Date()).toISOString();
  const built = new Map<string, CachedLoadout>();
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
        built.set(id, { ...outcome.built, ...kept });
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
  return Object.assign(all, { head: repo?.head });
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

/** The names of the store entries that the tree at `dir` links to (by its `raw/<id>` links, store.ts). */
function entriesLinkedBy(dir: string): string[] {
  let ids: string[];
  try {
    ids = readdirSync(join(dir, 'raw'));
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const id of ids) {
    try {
      names.push(basename(readlinkSync(join(dir, 'raw', id))));
    } catch {
      // not a link: a tree written before the store
    }
  }
  return names;
}
