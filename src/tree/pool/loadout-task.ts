/**
 * The task of the build's worker threads that reads, checks and writes one loadout as an
 * entry of the store (store.ts). loadout-worker.ts imports this module on a thread's first
 * `prepare` or `loadout` task (pool.ts sends those), so that a thread that only links a tree
 * never loads the checks, renderers and compression.
 */
import type { Policy } from '../../policy/policy.js';
import { LoadoutError } from '../../catalogue/errors.js';
import { readLoadoutSource, type LoadoutSource } from '../../catalogue/source.js';
import { prepareSchema } from '../../catalogue/schema.js';
import { readManifestVersion } from '../../catalogue/yaml-document.js';
import { checksBudgetMs } from '../../verify/budget.js';
import { passed } from '../../verify/catalogue.js';
import { runChecks, type CheckRun } from '../../verify/run.js';
import { loadoutKey, mentionsKey, type LoadoutState } from '../incremental/cache.js';
import type { LoadoutDiscovery } from '../render/catalogue-entry.js';
import { catalogueEntryOf, type CatalogueEntry } from '../../tree-format/catalogue-entry.js';
import type { LoadoutHistoryData } from '../history/history.js';
import { writeLoadoutOutputs } from '../render/loadout-output.js';
import { writeLoadoutDiscovery } from '../render/skill-discovery.js';
import type { PluginListing } from '../render/plugins.js';
import { openStoreEntry } from '../write/store.js';
import { rawUrl, type CliRoute } from '../../tree-format/index.js';
import type { Agent } from '../../catalogue/vocabulary.js';
import type { InstalledFiles } from '../../layout/installed-files.js';
import type { BundleMention } from '../../tree-format/bundle.js';
import type { ConsentKind } from '../../capabilities/consent.js';

/** One loadout to read, check and write (see {@link buildLoadout}). */
export interface LoadoutTask {
  loadoutsDir: string;
  fixturesDir: string;
  /** The store the entry goes to. */
  store: string;
  /** `{base_url}` of the published addresses. */
  base: string;
  /** How the pages' install commands run the consumer CLI. */
  route: CliRoute | undefined;
  /** `verification.checked_at`, ISO 8601. */
  checkedAt: string;
  id: string;
  /** The entry's name (`<id>@<tag>` of this build). */
  name: string;
  /** The manifest's version that `history` was read for ('' when it has none). */
  version: string;
  history: LoadoutHistoryData;
  /** `verification.commit`. */
  commit: string;
  /** The key the live tree holds the loadout under, if any: the same key means nothing to write. */
  previousKey: string | undefined;
  /** Write its native plugin too (render/plugins.ts). */
  plugins: boolean;
  /** The bundles that name it, which its page lists (render/bundles.ts `bundleMentionsOf`); none when absent. */
  bundles?: BundleMention[];
  /** Kinds of content needing consent that this catalogue publishes (`RunChecksOptions.allowConsent`); none when absent. */
  allowConsent?: ConsentKind[];
  /** A maintainer's policy its checks hold it to (`BuildOptions.policy`); none when absent. */
  policy?: Policy;
}

/** What {@link buildLoadout} found: the loadout's key, and then one of three outcomes. */
export type LoadoutOutcome = { id: string; key: string } & (
  | { kind: 'unchanged' }
  | { kind: 'refused'; run: CheckRun }
  | {
      kind: 'built';
      /** Its key, entry name and versions (for the build cache), and what the catalogue documents read of it (catalogue-entry.ts). */
      built: Pick<LoadoutState, 'key' | 'name' | 'versions'> & { entry: CatalogueEntry; discovery: LoadoutDiscovery; plugin: PluginListing | undefined };
      /** Warnings from writing it (historic files left out). */
      warnings: string[];
      /** Bytes written. */
      bytes: number;
    }
);

/**
 * Reads the loadout, computes its key, and unless the
 * live tree holds that key, runs the ten checks and, when they pass, writes its entry.
 * The checks have the time budget `LOADOUT_CHECKS_BUDGET_MS` (verify/budget.ts); past it the
 * loadout is refused with a failing check that names the check and file.
 * @throws LoadoutError `io` when its manifest's version changed since the main thread read
 *   its history (an edit during the build; building again picks it up); `config` for a bad
 *   `LOADOUT_CHECKS_BUDGET_MS`; the file system's error.
 */
export async function buildLoadout(task: LoadoutTask): Promise<LoadoutOutcome> {
  const source = await readLoadoutSource(task.loadoutsDir, task.id);
  if (versionOf(source) !== task.version) {
    throw new LoadoutError('io', `loadouts/${task.id}/loadout.yaml changed while the build read it (version ${JSON.stringify(versionOf(source))}, expected ${JSON.stringify(task.version)})`, { hint: 'Run the build again once the edit is saved.' });
  }
  const key = loadoutKey(source, task.history, task.commit, mentionsKey(task.bundles));
  const found = { id: task.id, key };
  if (key === task.previousKey) return { ...found, kind: 'unchanged' };
  // Every loadout has the checks' time budget (verify/budget.ts): past it, a failing check refuses it.
  // The checks lay the loadout out with the catalogue's raw addresses, and the record takes those layouts.
  const installs = new Map<Agent, InstalledFiles>();
  const run = await runChecks(source, { fixturesDir: task.fixturesDir, budgetMs: checksBudgetMs(), rawUrl: (id, version, path) => rawUrl(task.base, id, version, path), installs, ...(task.allowConsent === undefined ? {} : { allowConsent: task.allowConsent }), ...(task.policy === undefined ? {} : { policy: task.policy }) });
  if (!passed(run)) return { ...found, kind: 'refused', run };
  const entry = openStoreEntry(task.store, task.id, task.name);
  const written = await writeLoadoutOutputs(entry, { base: task.base, route: task.route, run, installs, history: task.history, commit: task.commit, checkedAt: new Date(task.checkedAt), plugins: task.plugins, bundles: task.bundles ?? [] });
  // Agent Skills discovery below loadouts/<id>/ (skill-discovery.ts).
  const discovery = await writeLoadoutDiscovery(entry, written.record, written.contents);
  const bytes = entry.complete();
  const built = { key, name: task.name, entry: catalogueEntryOf(written.record), discovery, plugin: written.plugin, versions: written.versions.map((v) => v.version) };
  return { ...found, kind: 'built', built, warnings: written.warnings, bytes };
}

/** The manifest's version (read cheaply), or '' when it has none. */
export function versionOf(source: Pick<LoadoutSource, 'manifestText'>): string {
  return source.manifestText === undefined ? '' : (readManifestVersion(source.manifestText) ?? '');
}

/**
 * Readies this thread for {@link buildLoadout} (loading this module did the rest): loads the
 * authoring schema's validator, which the first loadout's checks would otherwise wait for.
 */
export function prepareLoadoutTask(): undefined {
  prepareSchema();
  return undefined;
}
