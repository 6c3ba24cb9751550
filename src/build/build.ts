/**
 * `loadout build`: checks every loadout and writes the static API tree (DESIGN.md sections
 * 1, 3 and 5): records, raw files for every version and `latest`, six per-agent zips and a
 * source zip per loadout, the list, tag and agent documents, the description document, the
 * authoring schema, the search index, the pages and the Agent Skills discovery indexes
 * (skill-discovery.ts). A loadout that fails a check refuses the whole build, and `out` is
 * then left untouched. Loadouts whose inputs did not change since
 * the previous build stay as they are, and only the changed ones are written (`cache.ts`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../catalogue/manifest.js';
import { listLoadoutIds, readLoadoutSource, type LoadoutSource } from '../catalogue/source.js';
import { parse as parseYaml } from 'yaml';
import { readManifestVersion } from '../catalogue/yaml-document.js';
import { loadoutsDirOf, passed } from '../verify/catalogue.js';
import { runChecks, type CheckRun } from '../verify/run.js';
import { normaliseBaseUrl } from './addresses.js';
import { BUILD_CACHE_FILE, fingerprintBuild, loadoutKey, makeBuildCache, readBuildCache } from './cache.js';
import { writeCatalogueDocuments } from './catalogue-documents.js';
import { mapConcurrent } from '../concurrency.js';
import { openHistory, type CatalogueHistory, type LoadoutHistory } from './history.js';
import { entriesOfNoLoadout, loadoutOutputPaths, writeLoadoutOutputs } from './loadout-output.js';
import { findStandby, writeTree, type OutputTree } from './output.js';
import type { PublishedRecord } from './record.js';
import { writeCatalogueDiscovery, writeLoadoutDiscovery } from './skill-discovery.js';

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
  /** The check runs of every loadout (refused ones have a failing check). */
  runs: CheckRun[];
  /** Ids of the loadouts that failed a check; non-empty means nothing was written. */
  refused: string[];
  /** Loadouts built, with the versions published for each. */
  loadouts: { id: string; version: string; versions: string[] }[];
  /** Ids left unchanged from the previous tree. */
  reused: string[];
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

/** One loadout between the check phase and the write phase. */
interface Planned {
  run: CheckRun;
  history: LoadoutHistory;
  commit: string;
  key: string;
  /** The previous tree's record when its outputs stay as they are. */
  previous: PublishedRecord | undefined;
}

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
  const history = await openHistory(loadoutsDir);
  const result: BuildResult = { written: false, runs: [], refused: [], loadouts: [], reused: [], warnings: [], bytes: 0 };
  if (history.head === undefined) result.warnings.push('not a git repository (or no commits yet): only the working-tree version of each loadout is built');
  try {
    const concurrency = options.concurrency ?? CONCURRENCY;
    const plan = async (id: string): Promise<Planned> => {
      const source = await readLoadoutSource(loadoutsDir, id);
      const loadoutHistory = await history.historyOf(id, versionOf(source));
      const commit = commitOf(history, loadoutHistory, id);
      const key = loadoutKey(source, loadoutHistory, commit);
      const previous = cache?.loadouts[id] === key ? readPreviousRecord(options.out, id) : undefined;
      const run = previous === undefined ? await runChecks(source, { fixturesDir }) : reusedRun(source, previous);
      return { run, history: loadoutHistory, commit, key, previous };
    };
    /** Records what the checks said; false when the loadout refuses the build. */
    const admit = (p: Planned): boolean => {
      result.runs.push(p.run);
      for (const s of p.history.skipped) result.warnings.push(`loadouts/${p.run.source.id}: version ${JSON.stringify(s.version)} in loadout.yaml of commit ${s.commit} ${s.reason}: not published`);
      if (passed(p.run)) return true;
      result.refused.push(p.run.source.id);
      return false;
    };

    let done = 0;
    // The loadouts' keys in the standby tree, when this build updates it (output.ts).
    const standby = options.clean === true ? undefined : findStandby(options.out);
    const standbyCache = standby === undefined ? undefined : await readBuildCache(standby, fingerprint);
    const standbyKeys: Record<string, string> = standbyCache?.loadouts ?? {};
    const writeLoadout = async (tree: OutputTree, p: Planned): Promise<PublishedRecord> => {
      let record: PublishedRecord;
      let versions: string[];
      const paths = loadoutOutputPaths(p.run.source.id);
      const owned = [...paths.files, ...paths.folders];
      // Unchanged since the live tree and since the standby's generation: the standby holds it already.
      const kept = tree.updating && p.previous !== undefined && standbyKeys[p.previous.id] === p.key;
      // What the standby holds for a loadout whose key changed since its generation goes first.
      if (tree.updating && !kept) for (const path of owned) await tree.remove(path);
      if (p.previous !== undefined) {
        if (!kept) for (const path of owned) await tree.reuse(path);
        record = p.previous;
        versions = [...p.history.versions.map((v) => v.version), record.version];
        result.reused.push(record.id);
      } else {
        const written = await writeLoadoutOutputs(tree, { base, run: p.run, history: p.history, commit: p.commit, checkedAt });
        record = written.record;
        // Agent Skills discovery below loadouts/<id>/ (carried over with that folder when unchanged).
        await writeLoadoutDiscovery(tree, record);
        versions = written.versions.map((v) => v.version);
        result.warnings.push(...written.warnings);
      }
      options.onProgress?.(++done, ids.length, record.id);
      result.loadouts.push({ id: record.id, version: record.version, versions });
      // Kept for the catalogue documents without file contents, so memory stays flat in the catalogue's size.
      return { ...record, files: record.files.map((f) => ({ ...f, content: '' })) };
    };
    const finish = async (tree: OutputTree, records: PublishedRecord[], keys: Map<string, string>): Promise<number> => {
      await writeCatalogueDocuments(tree, base, records);
      await writeCatalogueDiscovery(tree, records);
      await tree.writeJson(BUILD_CACHE_FILE, makeBuildCache(fingerprint, keys));
      return tree.bytes;
    };
    const keysOf = (planned: Planned[]): Map<string, string> => new Map(planned.map((p) => [p.run.source.id, p.key]));

    if (standbyCache !== undefined) {
      // The standby will be brought up to date in place (output.ts): every loadout is checked
      // before anything in it changes, so a refused build leaves it whole for the next one.
      const planned = await mapConcurrent(ids, concurrency, plan);
      if (!planned.map(admit).every(Boolean)) return result;
      result.bytes = await writeTree(
        options.out,
        async (tree) => {
          if (tree.updating) for (const path of await entriesOfNoLoadout(tree.dir, ids)) await tree.remove(path);
          return finish(tree, await mapConcurrent(planned, concurrency, (p) => writeLoadout(tree, p)), keysOf(planned));
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
          const planned: Planned[] = [];
          let failing = false;
          const records = await mapConcurrent(ids, concurrency, async (id, index) => {
            const p = await plan(id);
            planned[index] = p;
            failing ||= !passed(p.run);
            return failing ? undefined : writeLoadout(tree, p);
          });
          if (!planned.map(admit).every(Boolean)) throw refusal;
          return finish(tree, records.filter((r): r is PublishedRecord => r !== undefined), keysOf(planned));
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

function readPreviousRecord(out: string, id: string): PublishedRecord | undefined {
  try {
    // Synchronous for the same reason as reading sources: one small file, no thread-pool round trips.
    return JSON.parse(readFileSync(join(out, 'api', 'loadouts', `${id}.json`), 'utf8')) as PublishedRecord;
  } catch {
    return undefined;
  }
}

/**
 * A check run for an unchanged loadout: the checks' stored results, which still hold. The
 * manifest (valid, since the loadout was built) is parsed only if someone reads it.
 */
function reusedRun(source: LoadoutSource, previous: PublishedRecord): CheckRun {
  let manifest: Manifest | undefined;
  return {
    source,
    get manifest() {
      manifest ??= parseYaml(source.manifestText ?? '') as Manifest;
      return manifest;
    },
    results: previous.verification.checks,
    diagnostics: [],
  };
}
