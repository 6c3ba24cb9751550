/**
 * A build's bundles (issue 56; build.ts loads this module only when the catalogue has a
 * `bundles/` folder, so a catalogue without bundles loads and runs none of it):
 * 1. before the loadouts are built, every `bundle.yaml` is read and checked on its own and
 *    against the loadouts' ids (bundles/read.ts, bundles/check.ts), and the bundles that name
 *    each loadout are known, which its page lists;
 * 2. while they are built, git is read for the bundles' versions (history/bundle-history.ts);
 * 3. once they are built, each range is checked against the versions the build publishes, and
 *    each bundle's record and plugin are made from its members' listings and versions documents
 *    (render/bundles.ts), to be written with the catalogue documents.
 * A bundle with a finding refuses the build, as a loadout that fails a check does.
 */
import { checkBundleIds, checkBundleRanges } from '../../bundles/check.js';
import type { BundleManifest } from '../../bundles/manifest.js';
import type { Diagnostic } from '../../catalogue/diagnostics.js';
import type { MarketplaceSettings } from '../../layout/plugin-marketplaces.js';
import type { BundleMention } from '../../tree-format/bundle.js';
import { readBundleHistories, type BundleHistory } from '../history/bundle-history.js';
import type { CatalogueRepository } from '../history/history.js';
import type { CachedLoadout } from '../incremental/cache.js';
import { bundleMentionsOf, memberFactsOf, prepareBundles, type BuiltBundle } from '../render/bundles.js';
import type { ReadBundle } from '../../bundles/read.js';
import { readCatalogueBundles } from './check-bundles.js';

/** The manifests of the bundles that read without a finding. */
const manifestsOf = (open: OpenBundles): BundleManifest[] => open.clean.map((b) => b.manifest as BundleManifest);

/** A build's bundles as read before its loadouts are built. */
export interface OpenBundles {
  /** The bundles that read without a finding, in id order (each with its manifest). */
  clean: ReadBundle[];
  /** The bundles that name each loadout (render/bundles.ts `bundleMentionsOf`). */
  mentions: Map<string, BundleMention[]>;
  /** The findings of every bundle so far: non-empty refuses the build. */
  diagnostics: Diagnostic[];
}

/**
 * Reads and checks the bundles of the catalogue at `root` against its loadouts `loadoutIds`
 * (step 1 of the module comment).
 * @throws the file system's error when `bundles/` cannot be read.
 */
export function openBundles(root: string, loadoutIds: readonly string[]): OpenBundles {
  const reads = readCatalogueBundles(root);
  const diagnostics = reads.flatMap((b) => [...b.diagnostics, ...checkBundleIds(b, loadoutIds)]);
  const clean = reads.filter((b) => b.manifest !== undefined && !diagnostics.some((d) => d.file === b.file));
  return { clean, mentions: bundleMentionsOf(reads), diagnostics };
}

/**
 * Starts reading the bundles' histories from git (step 2); the promise rejects with a
 * LoadoutError `git` when git fails.
 */
export function readHistories(open: OpenBundles, repo: CatalogueRepository | undefined, root: string): Promise<Map<string, BundleHistory>> {
  return readBundleHistories(repo, root, new Map(manifestsOf(open).map((m) => [m.id, m.version])));
}

/** What {@link finishBundles} needs of the build. */
export interface FinishBundlesInput {
  base: string;
  /** The store the loadouts' entries are in. */
  store: string;
  /** Every loadout of the tree, with its state and listing. */
  loadouts: ReadonlyMap<string, CachedLoadout>;
  histories: ReadonlyMap<string, BundleHistory>;
  marketplace: MarketplaceSettings | undefined;
}

/**
 * Step 3: the findings of ranges that allow no published version, or, when there are none,
 * every bundle ready to write.
 * @throws the file system's error when a member's versions document cannot be read.
 */
export function finishBundles(open: OpenBundles, input: FinishBundlesInput): { diagnostics: Diagnostic[] } | { built: BuiltBundle[] } {
  const diagnostics = open.clean.flatMap((b) => checkBundleRanges(b, (id) => input.loadouts.get(id)?.state.versions));
  if (diagnostics.length > 0) return { diagnostics };
  const facts = new Map<string, ReturnType<typeof memberFactsOf>>();
  const member = (id: string): ReturnType<typeof memberFactsOf> | undefined => {
    const loadout = input.loadouts.get(id);
    if (loadout === undefined) return undefined;
    let known = facts.get(id);
    if (known === undefined) facts.set(id, (known = memberFactsOf(input.store, loadout)));
    return known;
  };
  return { built: prepareBundles({ base: input.base, bundles: manifestsOf(open).map((manifest) => ({ manifest })), histories: input.histories, member, marketplace: input.marketplace }) };
}
