/**
 * `loadout build`: checks every loadout and writes the static API tree (DESIGN.md sections
 * 1, 3 and 5): records, raw files for every version and `latest`, six per-agent zips and a
 * source zip per loadout, the list, tag and agent documents, the description document, the
 * authoring schema, the search index, the pages and the Agent Skills discovery indexes
 * (skill-discovery.ts). A loadout that fails a check refuses the whole build, and `out` is
 * then left untouched.
 *
 * How (docs/architecture.md):
 * 1. The loadouts that cannot have changed since the live tree's build are told by their
 *    folder stamps and by git, without reading them (previous-build.ts, stamp.ts).
 * 2. The others are read, checked and written as new entries of the store, in the pool's
 *    worker threads, while this thread reads git for them (build-loadouts.ts).
 * 3. The standby tree is re-pointed at the changed entries, or a new tree is linked to
 *    every entry (store.ts), the catalogue documents are written into it from the loadouts'
 *    listings and the search index patched with their words (catalogue-documents.ts), and
 *    `out` is switched to it (output.ts). Entries no tree links to any more are removed.
 */
import type { Policy } from '../policy/policy.js';
import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bundlesDirOf } from '../bundles/manifest.js';
import type { Diagnostic } from '../catalogue/diagnostics.js';
import { LoadoutError } from '../catalogue/errors.js';
import type { ConsentKind } from '../capabilities/consent.js';
import { listLoadoutIds, loadoutsDirOf } from '../catalogue/source.js';
import { allSettled, slicesOf } from '../concurrency.js';
import { updateIndex, type InvertedIndex } from '../search/inverted-index.js';
import { SEARCH_SETTINGS } from '../search/settings.js';
import type { CheckRun } from '../verify/run.js';
import { normaliseBaseUrl, PLUGINS_FOLDER, type CliRoute } from '../tree-format/addresses.js';
import { namesThisMachine } from '../layout/base-url-reach.js';
import { DEFAULT_MARKETPLACE, type MarketplaceSettings } from '../layout/plugin-marketplaces.js';
import { buildLoadouts } from './build-loadouts.js';
import { BUILD_CACHE_FILE, BUILT_SINCE_FILE, buildCachePieces, cacheOf, fingerprintBuild, mentionsKey, readBuiltSince, type BuildCache } from './incremental/cache.js';
import type { BuiltBundle } from './render/bundles.js';
import { keptPrevious, keptStandbyLinks, type KeptBuild } from './incremental/kept-build.js';
import { deferDocuments, type DeferredDocuments } from './deferred-documents.js';
import { readGuides } from '../pages/guides.js';
import { writeCatalogueDocuments } from './render/catalogue-documents.js';
import { DISCOVERY_FOLDER } from './render/skill-discovery.js';
import { packConsumerCli } from './cli-package/pack.js';
import { readCliPackageJson } from './cli-package/bundle.js';
import { digestVersionsDocuments, readVersionsDigests, versionsDigestOf, type SigningSettings } from './render/signed-snapshot.js';
import { ATTESTATIONS_FILE, attestationKeyOf, attestationsText, attestedOnly, claimOf, readAttestations } from './incremental/signed-reuse.js';
import type { GitCommands } from './history/git-commands.js';
import { openRepository, startHistoryReads, type EarlyHistoryReads } from './history/history.js';
import { COMPLETE_MARKER, openTrees, treesFolderOf } from './write/output.js';
import { deleteTrashInPool, linkEntriesInPool, startPool } from './pool/pool.js';
import { phaseTimings } from './phase-timings.js';
import { findUnchanged, readPreviousBuild } from './incremental/previous-build.js';
import { readDirtyFolders, readFolderStamps } from './incremental/stamp.js';
import { collectGarbage, documentPathsOf, entriesLinkedBy, linkEntry, listEntries, removeEntry, unlinkEntry } from './write/store.js';
import { TreeFiles, type OutputTree } from './write/tree-files.js';
import { Trash } from './write/trash.js';

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
   * Loadouts read, checked and written at once; default 16 per thread of the pool (enough to
   * hide git's latency on this thread). 1 builds them one after another, and gives the same
   * bytes (a test compares the two).
   */
  concurrency?: number;
  /**
   * Sign the build with these settings (render/signed-snapshot.ts `takeSigningSettings`); the
   * tree is unsigned without them. Used on this thread only: never passed to the pool.
   */
  signing?: SigningSettings;
  /**
   * Write each loadout's native plugin and the marketplaces (DESIGN.md "Native plugins";
   * render/plugins.ts, render/plugin-marketplaces.ts); default true. False leaves `plugins/`
   * and the plugin zips out (the build benchmark measures both).
   */
  plugins?: boolean;
  /** The marketplaces' name, owner and description; default layout/plugin-marketplaces.ts `DEFAULT_MARKETPLACE`. */
  marketplace?: MarketplaceSettings;
  /**
   * The version of `loadout-cli` published on the npm registry, when it is (`loadout build
   * --cli-published`): it must be the version this build packs (packages/cli/package.json),
   * and only then do the pages show `npx -y loadout-cli@<version>` (issue 57, point 2; the
   * pages' route is part of the build's fingerprint, so changing it rebuilds every page).
   */
  cliPublished?: string;
  /**
   * Kinds of content needing the user's consent (`capabilities/consent.ts`: hooks, permission
   * modes, auto-approval, wildcard grants) that this catalogue publishes all the same: notices of
   * `safety` and `mcp` instead of refusals (`RunChecksOptions.allowConsent`). The installer still
   * asks each user, and plugins never carry them. Part of the build's fingerprint. Default none.
   */
  allowConsent?: readonly ConsentKind[];
  /** Called after each loadout read is done with (for progress on a TTY). */
  onProgress?: (done: number, total: number, id: string) => void;
  /**
   * A maintainer's policy (`loadout build --policy`; issue 55): a loadout it refuses fails its
   * checks (verify/policy-findings.ts) and refuses the build. Part of the build's fingerprint, so
   * a changed policy checks every loadout again.
   */
  policy?: Policy;
  /**
   * The loadouts that may have changed since the live tree's build, as a watcher of
   * `loadouts/` saw them (`loadout dev`): every other loadout that tree holds is carried over
   * without asking git about its folder (stamp.ts), unless a commit since that build touched
   * it. Undefined (the default): git's tree ids and working-tree status tell.
   */
  changed?: readonly string[];
  /**
   * What the last build in this process kept (`BuildResult.kept`): taken instead of reading the
   * live tree's cache, search index and the standby's links while they are still that build's
   * (incremental/kept-build.ts).
   */
  kept?: KeptBuild;
  /**
   * How the build runs git in a folder (history/git-commands.ts): from this process by default;
   * `loadout dev` runs it from its helper process (history/git-helper.ts).
   */
  gitFor?: (cwd: string) => GitCommands;
  /**
   * `defer`: when there is a live tree of the same settings and the build does not sign, the new
   * tree carries the live tree's catalogue documents and `BuildResult.deferred` writes them
   * afterwards (deferred-documents.ts); `loadout dev` switches to a changed loadout's pages
   * first. Default `write`: every document is written before the switch.
   */
  documents?: 'write' | 'defer';
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
  /**
   * The findings of the catalogue's bundles (`bundles/<id>/bundle.yaml`, issue 56), each naming
   * the file and line; non-empty means nothing was written, as for a loadout that fails a check.
   */
  bundleDiagnostics: Diagnostic[];
  /** Loadouts built, with the versions published for each. */
  loadouts: { id: string; version: string; versions: string[] }[];
  /** Bundles published, with their versions. */
  bundles: { id: string; version: string; versions: string[] }[];
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
  /** What the next build in this process may take instead of reading the tree (`BuildOptions.kept`); set when the tree was written. */
  kept?: KeptBuild;
  /** The catalogue documents still to write, when the build deferred them (`BuildOptions.documents`). */
  deferred?: DeferredDocuments;
}

/** What a tree says of itself alone: never carried from another tree (the cache and the whole index are, with {@link BUILT_SINCE_FILE}). */
const NEVER_CARRIED: ReadonlySet<string> = new Set([COMPLETE_MARKER, ATTESTATIONS_FILE, BUILT_SINCE_FILE]);

/** Loadouts that one task links into a tree. */
const SLICE = 500;

/**
 * Builds the catalogue at `options.root` into `options.out`.
 * @throws LoadoutError `not_found` when there is no `loadouts/` folder, `git` when git fails,
 *   `io` when another build is writing `out` or a manifest changed during the build.
 */
export async function buildCatalogue(options: BuildOptions): Promise<BuildResult> {
  const timings = phaseTimings();
  const base = normaliseBaseUrl(options.baseUrl);
  if (options.cliPublished !== undefined) {
    const packed = (await readCliPackageJson()).version;
    if (options.cliPublished !== packed) throw new LoadoutError('config', `--cli-published is ${JSON.stringify(options.cliPublished)}, but this build serves loadout-cli ${packed} (packages/cli/package.json): publish ${packed} to the npm registry and pass --cli-published ${packed}, or leave the option out`);
  }
  // The consumer CLI every catalogue serves (DESIGN.md section 2, distribution): bundled by
  // esbuild's own process while the loadouts are read and checked.
  const packing = packConsumerCli(treesFolderOf(options.out));
  packing.catch(() => undefined);
  startPool();
  const loadoutsDir = loadoutsDirOf(options.root);
  // git reads the folders' tree ids and the working tree's changes (stamp.ts) in its own
  // processes while this thread lists the loadouts, opens the trees and reads the previous build.
  const opening = openRepository(loadoutsDir, options.gitFor);
  // One status of the whole working tree, for the stamps and, in a first build, every loadout's history.
  const dirtyAtStart = options.changed === undefined ? opening.then((repo) => (repo === undefined ? new Set<string>() : readDirtyFolders(repo))) : undefined;
  const stamping = (dirtyAtStart === undefined ? Promise.resolve(new Map<string, never>()) : opening.then((repo) => readFolderStamps(repo, dirtyAtStart))).catch((cause: unknown) => {
    throw new LoadoutError('git', `cannot read the git trees of ${loadoutsDir}: ${(cause as Error).message}`, { cause });
  });
  opening.catch(() => undefined);
  dirtyAtStart?.catch(() => undefined);
  stamping.catch(() => undefined);
  const ids = await listLoadoutIds(loadoutsDir);
  // Bundles (issue 56): their code is loaded only for a catalogue that has them.
  const bundling = existsSync(bundlesDirOf(options.root)) ? await import('./bundles/build-bundles.js') : undefined;
  timings.mark('listed');
  // The pages show the npm registry's CLI only when told it is published, and lead with it when
  // the build signs (DESIGN.md "Trust route of the CLI"; layout/install-routes.ts): which route
  // leads, the version pinned and the plugins folder are inputs of every page, so of the fingerprint.
  const marketplace = options.plugins === false ? undefined : (options.marketplace ?? DEFAULT_MARKETPLACE);
  // A catalogue built for an address of this machine is used where its tree lies, whose plugins
  // folder is then a marketplace every plugin manager adds (layout/plugin-commands.ts).
  const folder = namesThisMachine(base) ? join(resolve(options.out), PLUGINS_FOLDER) : undefined;
  const route: CliRoute = {
    ...(options.cliPublished === undefined ? {} : { registry_version: options.cliPublished }),
    signed: options.signing !== undefined,
    ...(marketplace === undefined ? {} : { plugins: { name: marketplace.name, ...(folder === undefined ? {} : { folder }), ...(marketplace.git === undefined ? {} : { git: marketplace.git }) } }),
  };
  // The marketplaces' settings too: a rebuild links from the live tree the marketplace documents whose entries did not change (render/previous-documents.ts).
  const fingerprint = fingerprintBuild(base, join(options.root, 'fixtures'), JSON.stringify({ route, plugins: options.plugins !== false, marketplace, ...(options.allowConsent === undefined || options.allowConsent.length === 0 ? {} : { allowConsent: [...options.allowConsent].sort() }), ...(options.policy === undefined ? {} : { policy: options.policy }) }));
  const trees = await openTrees(options.out);
  timings.mark('trees opened');
  let early: EarlyHistoryReads | undefined;
  try {
    // Told what changed, in the repository the last build in this process read: git's reads of those
    // loadouts start now, beside the one for HEAD (openHistory takes them when they are the ones it needs).
    early = options.changed === undefined || options.kept?.repository === undefined ? undefined : startHistoryReads(options.kept.repository, [...new Set(options.changed)].sort(), { blobs: true });
    const result: BuildResult = { written: false, runs: [], refused: [], bundleDiagnostics: [], loadouts: [], bundles: [], reused: [], read: [], warnings: [], bytes: 0 };
    // The bundles read and checked on their own before any loadout is built; the loadouts they
    // name list them on their pages (render/bundles.ts).
    const bundles = bundling?.openBundles(options.root, ids);
    if (bundles !== undefined && bundles.diagnostics.length > 0) {
      result.bundleDiagnostics = bundles.diagnostics;
      return result;
    }
    const bundlesOf = (id: string): string => mentionsKey(bundles?.mentions.get(id));
    // This thread reads what the previous build left (its cache, the standby's links) while git
    // opens the repository and reads the folders' stamps and status, which come after. The
    // listings are parsed once the first loadout to build is in a thread's hands (build-loadouts.ts).
    const live = options.clean === true || trees.live === undefined ? undefined : (keptPrevious(options.kept, trees.live, fingerprint) ?? readPreviousBuild(trees.live, fingerprint));
    const stored = listEntries(trees.store);
    timings.mark('previous build read');
    const linkedByStandby = trees.standby === undefined ? new Map<string, string>() : (keptStandbyLinks(options.kept, realpathSync(trees.standby)) ?? entriesLinkedBy(trees.standby));
    timings.mark('standby read');
    const repo = await opening;
    const stamps = await stamping;
    timings.mark('git answered');
    // The bundles' versions are read from git while the loadouts are built.
    const bundleHistories = bundles === undefined ? undefined : bundling?.readHistories(bundles, repo, options.root);
    bundleHistories?.catch(() => undefined);
    const found = await findUnchanged(ids, stored, live, repo, stamps, options.changed === undefined ? undefined : new Set(options.changed), bundlesOf);
    timings.mark('unchanged found');
    // A signing build reuses only what a signing build with its key derived from the source
    // (incremental/signed-reuse.ts); the rest is built again from the commit.
    const attesting = options.signing === undefined ? undefined : attestationKeyOf(options.signing.key);
    const previousDigests = options.signing === undefined ? {} : readVersionsDigests(trees.live);
    const unchanged =
      attesting === undefined || live === undefined
        ? found
        : attestedOnly(found, { key: attesting, attestations: readAttestations(trees.live), cache: live.cache, digestOf: (name) => digestIfReadable(trees.store, previousDigests, name) });
    const built = await buildLoadouts(options, { base, route, loadoutsDir, ids, store: trees.store, repo, early, dirty: dirtyAtStart, unchanged, stamps, fresh: live === undefined, result, ...(bundles === undefined ? {} : { bundles: bundles.mentions }) });
    timings.mark('loadouts built');
    if (built === undefined) return result;
    let builtBundles: BuiltBundle[] = [];
    if (bundles !== undefined && bundling !== undefined && bundleHistories !== undefined) {
      const histories = await bundleHistories;
      for (const [id, history] of histories) result.warnings.push(...history.skipped.map((why) => `bundles/${id}: ${why}: not published`));
      const finished = bundling.finishBundles(bundles, { base, store: trees.store, loadouts: built.loadouts, histories, marketplace });
      if ('diagnostics' in finished) {
        // Refused as a failing loadout refuses the build: the entries this build wrote go.
        for (const b of built.loadouts.values()) if (!stored.has(b.state.name)) removeEntry(trees.store, b.state.name);
        result.bundleDiagnostics = finished.diagnostics;
        return result;
      }
      builtBundles = finished.built;
    }
    // The store entry of each loadout, by id: what the new tree links to.
    const linked = new Map([...built.loadouts].map(([id, b]) => [id, b.state.name]));
    const names = new Set(linked.values());
    // The search index: the live tree's, with the words of the loadouts built now; made when
    // first needed (a build that defers its documents does not need it before the switch).
    let index: InvertedIndex | undefined;
    const indexNow = (): InvertedIndex => (index ??= updateIndex(SEARCH_SETTINGS.fields, live?.index, ids, built.vectors));
    const cli = await packing;
    if (cli === undefined) result.warnings.push('the consumer CLI was not packed into cli/: esbuild is not installed and packages/cli/dist/loadout.mjs was not built (npm run build)');
    // The signed snapshot's digests of the versions documents: hashed once per store entry.
    const signing = options.signing === undefined ? undefined : { settings: options.signing, versions: digestVersionsDocuments(trees.store, previousDigests, linked), now: options.now ?? new Date() };
    const listings = [...built.loadouts.values()].map((b) => b.listing);
    // The cache holds the loadouts' folder stamps, which git gives while the tree is written.
    let cache: BuildCache | undefined;
    const cacheNow = async (): Promise<BuildCache> => {
      await built.stamped;
      return (cache ??= cacheOf(built.head, built.loadouts, live?.cache));
    };
    /** The catalogue documents, the cache and the whole search index (which the documents' writer writes). */
    const writeDocuments = async (tree: OutputTree, loadoutsLinked?: Promise<void>): Promise<void> => {
      await writeCatalogueDocuments(tree, base, listings, indexNow(), { docs: readGuides(join(options.root, 'docs')), cli, cliPublished: route.registry_version, signing, marketplace, loadoutsLinked, previous: previousDocuments, bundles: builtBundles });
      const stampedCache = await cacheNow();
      await tree.write(BUILD_CACHE_FILE, () => buildCachePieces(fingerprint, built.head, built.loadouts, stampedCache));
    };
    // The live tree's documents can stand in for this build's while a changed loadout's own pages
    // go live first; its cache and whole index too, without the lines of the loadouts built since.
    const carried = options.documents === 'defer' && signing === undefined && live !== undefined ? carriedDocumentsOf(trees.live as string) : undefined;
    // A build that writes its documents before the switch links from the live tree those that would
    // be the same, when that tree's documents are its own build's (render/previous-documents.ts).
    const previousDocuments = carried === undefined && signing === undefined && live !== undefined && trees.live !== undefined && readBuiltSince(trees.live)?.length === 0 ? { dir: trees.live, listings: live.cache.listings() } : undefined;
    /** Links every loadout into the tree folder `dir`, in the pool's threads: from its entry (`linked`), or as the tree `from` holds it. */
    const linkAllInPool = async (dir: string, from?: string): Promise<void> => {
      const slices = slicesOf([...linked].map(([id, name]) => ({ id, name })), SLICE);
      await allSettled(slices.map((slice) => linkEntriesInPool({ tree: dir, store: trees.store, entries: slice, ...(from === undefined ? {} : { from }) })));
    };
    const written = await trees.write(
      async (tree, files) => {
        const writesDocuments = carried === undefined;
        if (tree.origin !== undefined) {
          // The tree started as the standby or a copy of the live tree: its catalogue documents
          // and removed loadouts go, and the loadouts whose entry is not the one it links to are
          // re-pointed.
          const linked = tree.origin === 'standby' ? linkedByStandby : entriesLinkedBy(tree.dir);
          // Into the store's trash, one `rename` each, which a thread of the pool deletes while this
          // thread writes the documents: removing them here took 50 ms of a rebuild at 10,000
          // loadouts. The discovery folder stays: the documents' writer brings it up to date in
          // place (render/previous-documents.ts `writeFolderUnlessSame`).
          const aside = new Trash(trees.store);
          for (const path of documentPathsOf(tree.dir)) {
            if (carried?.paths.has(path) !== true && !(writesDocuments && path === DISCOVERY_FOLDER)) files.remove(path, { setAside: (file) => aside.take(file) });
          }
          const clearing = aside.folder === undefined ? Promise.resolve() : deleteTrashInPool(aside.folder).catch(() => undefined);
          for (const id of linked.keys()) if (!built.loadouts.has(id)) unlinkEntry(files, id);
          for (const [id, b] of built.loadouts) if (linked.get(id) !== b.state.name) linkEntry(files, trees.store, id, b.state.name);
          // What the thread leaves (it failed, or this build stops first), the next build's deleter deletes.
          await allSettled([clearing, writesDocuments ? writeDocuments(tree) : Promise.resolve()]);
        } else {
          // A new tree: the pool links the loadouts while this thread writes the documents (other
          // paths; those that link through the loadouts' folders wait for them).
          const linking = linkAllInPool(tree.dir);
          await allSettled(writesDocuments ? [linking, writeDocuments(tree, linking)] : [linking]);
        }
        if (carried !== undefined) {
          // What the tree holds already of the live tree's documents (its standby shares the unchanged files) stays.
          // A document it replaces goes into the store's trash, deleted after the documents are
          // written (collectGarbage): it is often the last link of a file of megabytes, whose
          // removal here cost `loadout dev` 70 ms a save at 10,000 loadouts (docs/performance.md).
          const aside = new Trash(trees.store);
          for (const path of carried.paths) files.syncFrom(carried.from, path, { setAside: (file) => aside.take(file) });
          await tree.write(BUILT_SINCE_FILE, `${JSON.stringify({ loadouts: [...new Set([...carried.builtSince, ...result.read])].sort() })}\n`);
        }
        if (attesting !== undefined && signing !== undefined) {
          await built.stamped;
          const claims = [...built.loadouts].map(([id, b]) => claimOf(id, b, signing.versions.byEntry[b.state.name] as [string, number], built.head, live?.cache));
          await tree.write(ATTESTATIONS_FILE, attestationsText(attesting, built.head, claims));
        }
        return tree.bytes;
      },
      // A clean build links a new tree to every entry; others update the standby (or a copy of the live tree).
      // The first build's own standby: the pool copies the loadouts' links while this thread links the documents.
      {
        startFrom: async () => options.clean !== true,
        copy: async (from, to) => {
          const linking = linkAllInPool(to, from);
          const files = new TreeFiles(to);
          // The copy is complete when output.ts says so: the marker is its own.
          const documents = async (): Promise<void> => {
            for (const path of documentPathsOf(from)) if (path !== COMPLETE_MARKER) files.syncFrom(from, path);
          };
          await allSettled([linking, documents()]);
        },
      },
    );
    result.bytes += written.result;
    timings.mark('tree written');
    // Entries neither the live tree nor its standby (the tree live before, or the first build's
    // copy) links to: replaced loadouts, and what refused or killed builds left.
    // The tree live before links to its cache's names, and for a loadout missing from its
    // cache, to what its link says; without a cache for these settings, to what its links say.
    const liveLinks = (): Map<string, string> => {
      if (live === undefined) return entriesLinkedBy(trees.live as string);
      const linkedBefore = new Map([...live.cache.states].map(([id, state]) => [id, state.name]));
      for (const [id, name] of entriesLinkedBy(trees.live as string, ids.filter((id) => !linkedBefore.has(id)))) linkedBefore.set(id, name);
      return linkedBefore;
    };
    const standbyLinked = written.standby === undefined ? undefined : trees.live === undefined ? linked : liveLinks();
    const keep = new Set([...names, ...(standbyLinked?.values() ?? [])]);
    // A build that deferred its documents leaves the store to their writer (the next build collects what it did not).
    if (carried === undefined) collectGarbage(trees.store, stored, keep);
    result.loadouts = [...built.loadouts].map(([id, b]) => ({ id, version: b.listing.row.version, versions: b.state.versions }));
    result.bundles = builtBundles.map(({ record }) => ({ id: record.id, version: record.version, versions: record.versions.map((v) => v.version) }));
    // Trees are compared by their real paths (trees.live is one).
    const standbyDir = written.standby === undefined ? undefined : realpathSync(written.standby);
    const previous = {
      cache: await cacheNow(),
      get index(): InvertedIndex {
        return indexNow();
      },
    };
    const before = standbyDir === undefined || standbyLinked === undefined ? undefined : { tree: standbyDir, linked: standbyLinked };
    result.kept = { tree: realpathSync(written.live), linked, fingerprint, previous, before, repository: repo === undefined ? undefined : { git: repo.git, top: repo.top, prefix: repo.prefix } };
    if (carried !== undefined) {
      result.deferred = deferDocuments(options.out, result.kept.tree, async (tree) => {
        await writeDocuments(tree);
        collectGarbage(trees.store, stored, keep);
      });
    }
    result.reused.sort();
    result.written = true;
    timings.mark('done');
    return result;
  } finally {
    if (early?.claimed === false) early.discard();
    trees.close();
    timings.report();
  }
}

/**
 * The live tree's catalogue documents that a deferring build carries into its own tree (every
 * document path but {@link NEVER_CARRIED}), and the loadouts built since the cache it carries was
 * written; undefined when that list cannot be read (the build then writes its documents).
 */
function carriedDocumentsOf(live: string): { from: string; paths: Set<string>; builtSince: string[] } | undefined {
  const builtSince = readBuiltSince(live);
  if (builtSince === undefined) return undefined;
  return { from: live, paths: new Set(documentPathsOf(live).filter((path) => !NEVER_CARRIED.has(path))), builtSince };
}

/** {@link versionsDigestOf}, or undefined when the entry's versions document cannot be read (the loadout is then built again). */
function digestIfReadable(storeDir: string, previous: Readonly<Record<string, [string, number]>>, name: string): [string, number] | undefined {
  try {
    return versionsDigestOf(storeDir, previous, name);
  } catch {
    return undefined;
  }
}
