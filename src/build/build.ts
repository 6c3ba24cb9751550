/**
 * `loadout build`: checks every loadout and writes the static API tree (DESIGN.md sections
 * 1, 3 and 5): records, raw files for every version and `latest`, six per-agent zips and a
 * source zip per loadout, the list, tag and agent documents, the description document, the
 * authoring schema, the search index, the pages and the Agent Skills discovery indexes
 * (skill-discovery.ts). A loadout that fails a check refuses the whole build, and `out` is
 * then left untouched. Loadouts whose inputs did not change since the previous build stay as
 * they are, and only the changed ones are read, checked and written (`cache.ts`, `stamp.ts`).
 */
import { join } from 'node:path';
import { listLoadoutIds, readLoadoutSource, type LoadoutSource } from '../catalogue/source.js';
import { readManifestVersion } from '../catalogue/yaml-document.js';
import { mapConcurrent } from '../concurrency.js';
import { loadoutsDirOf, passed } from '../verify/catalogue.js';
import { runChecks, type CheckRun } from '../verify/run.js';
import { normaliseBaseUrl } from './addresses.js';
import { BUILD_CACHE_FILE, fingerprintBuild, loadoutKey, makeBuildCache, readBuildCache, type CachedLoadout } from './cache.js';
import { writeCatalogueDocuments } from './catalogue-documents.js';
import { catalogueEntryOf } from './catalogue-entry.js';
import { changesSince, openHistory, openRepository, type CatalogueHistory, type LoadoutHistory } from './history.js';
import { entriesOfNoLoadout, loadoutOutputPaths, writeLoadoutOutputs } from './loadout-output.js';
import { findStandby, writeTree, type OutputTree } from './output.js';
import { writeCatalogueDiscovery, writeLoadoutDiscovery } from './skill-discovery.js';
import { stampCollector, stampHolds, type FolderStamp } from './stamp.js';

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
   * Loadouts checked and written at once; default {@link CONCURRENCY}. 1 builds them one after
   * another, and gives the same bytes (a test compares the two).
   */
  concurrency?: number;
  /** Called after each loadout is written (for progress on a TTY). */
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

/**
 * Loadouts in flight at once: enough to cover the compression thread's round trips (the tree's
 * writer thread is not waited for, output.ts). Each in flight holds its files and outputs;
 * 8 and 32 built 1,000 loadouts in the same time.
 */
const CONCURRENCY = 8;

/**
 * One loadout between the check phase and the write phase: either carried over (`previous`,
 * what the previous tree holds of it, whose outputs stay as they are) or checked in this build
 * (`checked`, and its outputs are written).
 */
type Planned = {
  id: string;
  key: string;
  /** Its stamp as read in this build; the previous one when it was not read. */
  stamp: FolderStamp | undefined;
  dirty: boolean;
  /** Its warnings from history (versions not published). */
  warnings: string[];
} & ({ previous: CachedLoadout; checked?: undefined } | { previous?: undefined; checked: { run: CheckRun; history: LoadoutHistory; commit: string } });

/**
 * Builds the catalogue at `options.root` into `options.out`.
 * @throws LoadoutError `not_found` when there is no `loadouts/` folder, `git` when git fails.
 */
export async function buildCatalogue(options: BuildOptions): Promise<BuildResult> {
  const base = normaliseBaseUrl(options.baseUrl);
  const loadoutsDir = loadoutsDirOf(options.root);
  const fixturesDir = join(options.root, 'fixtures');
  const checkedAt = options.now ?? new Date();
  const ids = await listLoadoutIds(loadoutsDir);
  const fingerprint = await fingerprintBuild(base, fixturesDir);
  const cache = options.clean === true ? undefined : await readBuildCache(options.out, fingerprint);
  // The loadouts that may have changed since the previous build (cache.ts): the others keep
  // their key without being read.
  const repo = await openRepository(loadoutsDir);
  const previousHead = cache?.head ?? undefined;
  const { touched } = await changesSince(repo, previousHead);
  const unread = (id: string): boolean => {
    const cached = cache?.loadouts[id];
    if (cached?.stamp === undefined || touched === undefined || touched.has(id)) return false;
    if (cached.dirty && repo?.head !== previousHead) return false;
    return stampHolds(join(loadoutsDir, id), cached.stamp);
  };
  const carried = new Set(ids.filter(unread));
  const read = ids.filter((id) => !carried.has(id));
  const history = await openHistory(repo, cache === undefined ? undefined : read);
  const result: BuildResult = { written: false, runs: [], refused: [], loadouts: [], reused: [], read, warnings: [], bytes: 0 };
  if (history.head === undefined) result.warnings.push('not a git repository (or no commits yet): only the working-tree version of each loadout is built');
  try {
    const concurrency = options.concurrency ?? CONCURRENCY;
    const plan = async (id: string): Promise<Planned> => {
      const cached = cache?.loadouts[id];
      if (cached !== undefined && carried.has(id)) return { id, key: cached.key, previous: cached, stamp: cached.stamp, dirty: cached.dirty, warnings: cached.warnings };
      const stamps = stampCollector(Date.now());
      const source = await readLoadoutSource(loadoutsDir, id, undefined, stamps.observe);
      const loadoutHistory = await history.historyOf(id, versionOf(source));
      const commit = commitOf(history, loadoutHistory, id);
      const key = loadoutKey(source, loadoutHistory, commit);
      const warnings = loadoutHistory.skipped.map((s) => `loadouts/${id}: version ${JSON.stringify(s.version)} in loadout.yaml of commit ${s.commit} ${s.reason}: not published`);
      const planned = { id, key, stamp: stamps.stamp(), dirty: commit.endsWith('+dirty'), warnings };
      if (cached?.key === key) return { ...planned, previous: cached };
      return { ...planned, checked: { run: await runChecks(source, { fixturesDir }), history: loadoutHistory, commit } };
    };
    /** Records what the checks said; false when the loadout refuses the build. */
    const admit = (p: Planned): boolean => {
      result.warnings.push(...p.warnings);
      if (p.checked === undefined || passed(p.checked.run)) return true;
      result.runs.push(p.checked.run);
      result.refused.push(p.id);
      return false;
    };

    let done = 0;
    // The loadouts' keys in the standby tree, when this build updates it (output.ts).
    const standby = options.clean === true ? undefined : findStandby(options.out);
    const standbyCache = standby === undefined ? undefined : await readBuildCache(standby, fingerprint);
    const writeLoadout = async (tree: OutputTree, p: Planned): Promise<CachedLoadout> => {
      let built: CachedLoadout;
      const paths = loadoutOutputPaths(p.id);
      const owned = [...paths.files, ...paths.folders];
      // Unchanged since the live tree and since the standby's generation: the standby holds it already.
      const kept = tree.updating && p.previous !== undefined && standbyCache?.loadouts[p.id]?.key === p.key;
      // What the standby holds for a loadout whose key changed since its generation goes first.
      if (tree.updating && !kept) for (const path of owned) await tree.remove(path);
      if (p.checked === undefined) {
        if (!kept) for (const path of owned) await tree.reuse(path);
        built = { ...p.previous, warnings: p.warnings, stamp: p.stamp, dirty: p.dirty };
        result.reused.push(p.id);
      } else {
        const { run, history: loadoutHistory, commit } = p.checked;
        const written = await writeLoadoutOutputs(tree, { base, run, history: loadoutHistory, commit, checkedAt });
        // Agent Skills discovery below loadouts/<id>/ (carried over with that folder when unchanged).
        const discovery = await writeLoadoutDiscovery(tree, written.record);
        built = { key: p.key, entry: catalogueEntryOf(written.record), discovery, versions: written.versions.map((v) => v.version), warnings: p.warnings, dirty: p.dirty, ...(p.stamp === undefined ? {} : { stamp: p.stamp }) };
        result.warnings.push(...written.warnings);
      }
      options.onProgress?.(++done, ids.length, p.id);
      result.loadouts.push({ id: p.id, version: built.entry.version, versions: built.versions });
      return built;
    };
    const finish = async (tree: OutputTree, built: CachedLoadout[]): Promise<number> => {
      const entries = built.map((b) => b.entry);
      await writeCatalogueDocuments(tree, base, entries);
      await writeCatalogueDiscovery(tree, built.map((b) => ({ ...b.entry, discovery: b.discovery })));
      await tree.write(BUILD_CACHE_FILE, JSON.stringify(makeBuildCache(fingerprint, repo?.head, new Map(built.map((b) => [b.entry.id, b])))));
      return tree.bytes;
    };

    if (standbyCache !== undefined) {
      // The standby will be brought up to date in place (output.ts): every loadout is checked
      // before anything in it changes, so a refused build leaves it whole for the next one.
      const planned = await mapConcurrent(ids, concurrency, plan);
      if (!planned.map(admit).every(Boolean)) return result;
      result.bytes = await writeTree(
        options.out,
        async (tree) => {
          if (tree.updating) for (const path of await entriesOfNoLoadout(tree.dir, ids)) await tree.remove(path);
          return finish(tree, await mapConcurrent(planned, concurrency, (p) => writeLoadout(tree, p)));
        },
        { acceptStandby: async (dir) => dir === standby },
      );
    } else {
      // A new tree: each loadout is written as soon as its checks pass, while the next ones are
      // checked, so the writer thread works during the checks (issue 13). A refusal discards
      // the new tree, and the live tree and its standby stay as they were.
      const refusal = new Error('refused');
      result.bytes = await writeTree(
        options.out,
        async (tree) => {
          const built = await mapConcurrent(ids, concurrency, async (id) => {
            const p = await plan(id);
            return admit(p) && result.refused.length === 0 ? writeLoadout(tree, p) : undefined;
          });
          if (result.refused.length > 0) throw refusal;
          return finish(tree, built.filter((b): b is CachedLoadout => b !== undefined));
        },
        { acceptStandby: async () => false },
      ).catch((error: unknown) => {
        if (error === refusal) return 0;
        throw error;
      });
      if (result.refused.length > 0) return result;
    }
  } finally {
    history.close();
  }
  result.loadouts.sort((a, b) => (a.id < b.id ? -1 : 1));
  result.reused.sort();
  result.written = true;
  return result;
}

/** The manifest's version (read cheaply, before the checks), or '' when it has none. */
function versionOf(source: LoadoutSource): string {
  return source.manifestText === undefined ? '' : (readManifestVersion(source.manifestText) ?? '');
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
