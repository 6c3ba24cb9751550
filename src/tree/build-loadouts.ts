/**
 * The loadouts of one build (build.ts, step 2): those that must be read are read, checked and
 * written as new entries of the store in the pool's worker threads (pool.ts,
 * loadout-worker.ts), while this thread reads git for them (history.ts); the others are kept
 * as the previous build left them (previous-build.ts). For each loadout built, this thread
 * makes its listing (catalogue-entry.ts) and the words the search index takes from it
 * (search/inverted-index.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import { readManifestVersion } from '../catalogue/yaml-document.js';
import { mapConcurrent } from '../concurrency.js';
import { searchDocumentOf } from '../search/document.js';
import { vectorOf, type DocumentVector } from '../search/inverted-index.js';
import { compileSettings, SEARCH_SETTINGS } from '../search/settings.js';
import type { BuildOptions, BuildResult } from './build.js';
import { mentionsKey, type CachedLoadout, type LoadoutState } from './incremental/cache.js';
import { listingOf } from './render/catalogue-entry.js';
import { noHistory, openHistory, readHistoryData, type CatalogueHistory, type CatalogueRepository, type EarlyHistoryReads, type LoadoutHistory } from './history/history.js';
import { buildLoadoutInPool, prepareLoadoutBuilds, runningThreads } from './pool/pool.js';
import type { Unchanged } from './incremental/previous-build.js';
import { readDirtyFolders, stampsThatHeld, type FolderStamp } from './incremental/stamp.js';
import { entryNameOf, removeEntry } from './write/store.js';
import type { CliRoute } from '../tree-format/index.js';
import type { BundleMention } from '../tree-format/bundle.js';

/** What {@link buildLoadouts} works with. */
export interface LoadoutsContext {
  /** `{base_url}`, normalised. */
  base: string;
  /** How the pages' install commands run the consumer CLI. */
  route: CliRoute | undefined;
  loadoutsDir: string;
  /** Every loadout, sorted. */
  ids: readonly string[];
  /** The store the entries go to. */
  store: string;
  repo: CatalogueRepository | undefined;
  /** git's reads for the changed loadouts, when the build started them before it opened `repo` (history.ts). */
  early?: EarlyHistoryReads | undefined;
  /** The status of every folder as the build started (stamp.ts `readDirtyFolders`), which the histories take (history.ts `openHistory`). */
  dirty?: Promise<Set<string>> | undefined;
  unchanged: Unchanged;
  /** The folders' stamps taken before they were read (stamp.ts). */
  stamps: ReadonlyMap<string, FolderStamp>;
  /** True when there is no previous build: git is read for every loadout at once. */
  fresh: boolean;
  /** Filled in: `read`, `reused`, `refused`, `runs`, `warnings`, `bytes`. */
  result: BuildResult;
  /** The bundles that name each loadout, which its page lists (render/bundles.ts `bundleMentionsOf`); none when absent. */
  bundles?: ReadonlyMap<string, BundleMention[]>;
}

/** The loadouts of a build. */
export interface BuiltLoadouts {
  /** Every loadout, in id order, with what the cache keeps of it. */
  loadouts: Map<string, CachedLoadout>;
  /** The words of the loadouts built now (the others' are in the previous search index). */
  vectors: Map<string, DocumentVector>;
  /** The HEAD commit, undefined outside git. */
  head: string | undefined;
  /**
   * Settles once the states in `loadouts` of the loadouts read carry their folder stamps, which
   * wait for a git status after the reading (at 10,000 loadouts, 0.25 to 0.45 s of git's that the
   * build would otherwise wait for with its threads idle): await it before reading the states'
   * stamps (the cache). Rejects with a LoadoutError `git` when git fails (the build then fails
   * as it writes the tree, which is not switched to; the store entries written are collected
   * by the next build, store.ts `collectGarbage`).
   */
  stamped: Promise<void>;
}

/**
 * Every loadout in the store, each with what the cache keeps of it; undefined when a loadout
 * refused the build (the entries this build wrote are then removed, and `context.result`
 * says why).
 * @throws LoadoutError `git` when git fails, `io` when a manifest changed while it was read;
 *   the file system's error. The entries written so far are removed first.
 */
export async function buildLoadouts(options: BuildOptions, context: LoadoutsContext): Promise<BuiltLoadouts | undefined> {
  const { loadoutsDir, ids, store, repo, unchanged, result } = context;
  const { previous, unread } = unchanged;
  result.read = ids.filter((id) => !unread.has(id));
  prepareLoadoutBuilds(result.read.length);
  const history = await openHistory(repo, context.fresh ? undefined : result.read, context.early, context.dirty);
  if (history.head === undefined) result.warnings.push('not a git repository (or no commits yet): only the working-tree version of each loadout is built');

  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const checkedAt = (options.now ?? new Date()).toISOString();
  const built = new Map<string, CachedLoadout>();
  const vectors = new Map<string, DocumentVector>();
  const compiled = compileSettings(SEARCH_SETTINGS);
  let done = 0;
  /**
   * Reads, checks and writes the loadouts `read` in the pool's threads, with git's `from` for their
   * histories, and takes what comes back. @returns the loadouts found unchanged (their key the one
   * `previousKey` gave) whose listing the previous build did not keep after all, to build again.
   */
  const readAndBuild = async (read: readonly string[], from: CatalogueHistory, previousKey: (id: string) => string | undefined): Promise<string[]> => {
    // Enough loadouts in flight to hide git's latency on this thread.
    const outcomes = await mapConcurrent(read, options.concurrency ?? runningThreads() * 16, async (id) => {
      const version = manifestVersionOf(loadoutsDir, id);
      const loadoutHistory = await from.historyOf(id, version);
      const commit = commitOf(from, loadoutHistory, id);
      const bundles = context.bundles?.get(id);
      const building = buildLoadoutInPool({ loadoutsDir, fixturesDir: join(options.root, 'fixtures'), store, base: context.base, route: context.route, checkedAt, id, name: entryNameOf(id, tag), version, history: await readHistoryData(loadoutHistory), commit, previousKey: previousKey(id), plugins: options.plugins !== false, ...(bundles === undefined ? {} : { bundles }), ...(options.allowConsent === undefined ? {} : { allowConsent: [...options.allowConsent] }), ...(options.policy === undefined ? {} : { policy: options.policy }) });
      // With a loadout in a thread's hands, this thread parses the previous build's listings
      // (once; 0.2 s at 10,000 loadouts), which it needs only once the loadouts are back.
      unchanged.readListings();
      const outcome = await building;
      options.onProgress?.(++done, result.read.length, id);
      // Its listing and search words now, while the threads build the others: after the last
      // loadout, this thread's work holds up the build (10,000 of them took it 0.75 s).
      if (outcome.kind !== 'built') return { outcome, loadoutHistory, commit };
      const { entry, discovery, plugin } = outcome.built;
      vectors.set(id, vectorOf(searchDocumentOf(entry, compiled), compiled));
      return { outcome, loadoutHistory, commit, listing: listingOf(entry, discovery, plugin) };
    });
    const unlisted: string[] = [];
    for (const { outcome, loadoutHistory, commit, listing } of outcomes) {
      const { id } = outcome;
      const kept = outcome.kind === 'unchanged' ? previous(id) : undefined;
      if (outcome.kind === 'unchanged' && kept === undefined) {
        unlisted.push(id);
        continue;
      }
      const warnings = loadoutHistory.skipped.map((s) => `loadouts/${id}: version ${JSON.stringify(s.version)} in loadout.yaml of commit ${s.commit} ${s.reason}: not published`);
      result.warnings.push(...warnings);
      const mentions = mentionsKey(context.bundles?.get(id));
      const seen = { warnings, dirty: commit.endsWith('+dirty'), ...(mentions === '' ? {} : { bundles: mentions }) };
      if (outcome.kind === 'refused') {
        result.runs.push(outcome.run);
        result.refused.push(id);
      } else if (kept !== undefined) {
        const { stamp: _stale, bundles: _same, ...state } = kept.state;
        built.set(id, { state: { ...state, ...seen } satisfies LoadoutState, listing: kept.listing });
        result.reused.push(id);
      } else if (outcome.kind === 'built' && listing !== undefined) {
        const { entry: _entry, discovery: _discovery, plugin: _plugin, ...state } = outcome.built;
        built.set(id, { state: { ...state, ...seen }, listing });
        result.warnings.push(...outcome.warnings);
        result.bytes += outcome.bytes;
      }
    }
    return unlisted;
  };
  try {
    const unlisted = await readAndBuild(result.read, history, (id) => unchanged.previousKey(id));
    // The states were judged before the listings were parsed: a loadout whose listing line the
    // previous build's cache lacks or garbles (a damaged cache) is read and built now.
    const lost = [...unlisted, ...[...unread].filter((id) => previous(id) === undefined)].sort();
    if (lost.length > 0) {
      for (const id of lost) unread.delete(id);
      result.read = [...new Set([...result.read, ...lost])].sort();
      const more = await openHistory(repo, lost, undefined, context.dirty);
      try {
        await readAndBuild(lost, more, () => undefined);
      } finally {
        more.close();
      }
    }
  } catch (error) {
    for (const id of result.read) removeEntry(store, entryNameOf(id, tag));
    throw error;
  } finally {
    history.close();
  }
  if (result.refused.length > 0) {
    for (const b of built.values()) if (b.state.name.endsWith(`@${tag}`)) removeEntry(store, b.state.name);
    return undefined;
  }
  const all = new Map<string, CachedLoadout>();
  for (const id of ids) {
    const b = built.get(id) ?? (unread.has(id) ? previous(id) : undefined);
    if (b === undefined) throw new Error(`internal error: loadout ${id} was neither built nor kept`);
    if (unread.has(id)) result.reused.push(id);
    all.set(id, b);
  }
  // A folder edited while it was read keeps no stamp: it is read again next time. git is asked
  // now, after the reading, and answers while the tree is written.
  const stamped = stampsAfterReading(repo, result.read, context.stamps, loadoutsDir).then((stamps) => {
    for (const id of result.read) {
      const stamp = stamps.get(id);
      const b = all.get(id);
      if (stamp !== undefined && b !== undefined) all.set(id, { ...b, state: { ...b.state, stamp } });
    }
  });
  stamped.catch(() => undefined);
  return { loadouts: all, vectors, head: repo?.head, stamped };
}

/**
 * The stamps of `before` that held while the loadouts `read` were read (stamp.ts
 * `stampsThatHeld`), by a git status asked now; `before` itself outside git, when nothing was
 * read, or when the build took no stamps (one told what changed).
 * @throws LoadoutError `git` when git fails.
 */
async function stampsAfterReading(repo: CatalogueRepository | undefined, read: readonly string[], before: ReadonlyMap<string, FolderStamp>, loadoutsDir: string): Promise<ReadonlyMap<string, FolderStamp>> {
  if (repo === undefined || read.length === 0 || before.size === 0) return before;
  try {
    return stampsThatHeld(before, await readDirtyFolders(repo, read));
  } catch (cause) {
    throw new LoadoutError('git', `cannot read the git status of ${loadoutsDir}: ${(cause as Error).message}`, { cause });
  }
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

/**
 * Has a build thread read, check and write the loadout `id` of `loadoutsDir` once, with no
 * history, into a scratch store that is then removed: nothing of the catalogue or its trees
 * changes. `loadout dev` rehearses so while it waits for the first save, which otherwise runs
 * the checks and renderers for the first time in that thread (its first build carries every
 * loadout over): on this project's machine the first save took 370 to 490 ms at 10,000
 * loadouts and the next ones 250 to 300 (docs/performance.md).
 * The scratch store is a new folder in `options.scratch` (default: the system's temp folder).
 * @returns the outcome's kind (`built`, or `refused` for a loadout whose checks fail).
 * @throws what reading or building the loadout throws (its manifest missing, a file unreadable).
 */
export async function rehearseLoadoutBuild(options: { loadoutsDir: string; fixturesDir: string; base: string; id: string; scratch?: string }): Promise<'built' | 'refused' | 'unchanged'> {
  const { loadoutsDir, fixturesDir, base, id } = options;
  const version = readManifestVersion(readFileSync(join(loadoutsDir, id, 'loadout.yaml'), 'utf8')) ?? '';
  const store = mkdtempSync(join(options.scratch ?? tmpdir(), 'loadout-rehearsal-'));
  try {
    const outcome = await buildLoadoutInPool({ loadoutsDir, fixturesDir, store, base, route: undefined, checkedAt: new Date().toISOString(), id, name: entryNameOf(id, 'rehearsal'), version, history: noHistory(), commit: '', previousKey: undefined, plugins: true });
    return outcome.kind;
  } finally {
    rmSync(store, { recursive: true, force: true });
  }
}
