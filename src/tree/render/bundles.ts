/**
 * The bundles in the built tree (issue 56, point 2): per bundle its record `api/bundles/<id>.json`
 * (bundles/record.ts), its page `bundles/<id>/`, its plugin folder `plugins/<id>/` and the zip of
 * that plugin `bundles/<id>/plugin-<version>.zip` (layout/bundle-plugin.ts); the list
 * `api/bundles.json`, the page `bundles/` and the bundle schema `api/bundle.schema.json`.
 *
 * They are catalogue documents (docs/architecture.md): written with the list and the
 * marketplaces on every build, never into a loadout's store entry, so that a changed bundle is
 * in the next tree whatever the build cache says. A catalogue has few bundles, and a bundle is
 * made from its members' listings and versions documents alone: no per-loadout work.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadBundle } from '../../bundles/read.js';
import { bundleListEntryOf, composeBundleRecord, type MemberFacts } from '../../bundles/record.js';
import type { BundleManifest } from '../../bundles/manifest.js';
import { readBundleSchema } from '../../catalogue/schema.js';
import { bundleDependencies, bundlePluginDescription, bundlePluginFiles, type BundlePluginFile, type BundlePluginInput } from '../../layout/bundle-plugin.js';
import type { BundleMarketplaceEntry, MarketplaceSettings } from '../../layout/plugin-marketplaces.js';
import { renderBundleListPage, renderBundlePage } from '../../pages/bundle.js';
import { pluginTreeFolder, urlMarketplaceUrl } from '../../tree-format/addresses.js';
import { BUNDLE_SCHEMA_TREE_PATH, BUNDLES_LIST_TREE_PATH, BUNDLES_PAGE_FOLDER, bundlePageTreePath, bundlePluginZipTreePath, bundlePluginZipUrl, bundleRecordTreePath, type BundleList, type BundleMention, type BundleRecord } from '../../tree-format/bundle.js';
import { sha256 } from '../../tree-format/digest.js';
import type { VersionsDocument } from '../../tree-format/versions.js';
import type { DocumentDigest } from '../../tree-format/signing/snapshot.js';
import type { CachedLoadout } from '../incremental/cache.js';
import type { BundleHistory } from '../history/bundle-history.js';
import type { OutputTree } from '../write/tree-files.js';
import { writeZip } from './zip.js';

/** One bundle ready to write: its record and, when the build writes plugins, its plugin's files and zip. */
export interface BuiltBundle {
  record: BundleRecord;
  plugin: { files: BundlePluginFile[]; zip: Buffer; marketplace: BundleMarketplaceEntry } | undefined;
}

/**
 * The bundles that name each loadout, by loadout id, each list in bundle id order: what the
 * loadouts' pages show (pages/loadout-bundles.ts). Made from the manifests that read. Pure.
 */
export function bundleMentionsOf(bundles: readonly ReadBundle[]): Map<string, BundleMention[]> {
  const mentions = new Map<string, BundleMention[]>();
  for (const { manifest } of [...bundles].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    if (manifest === undefined) continue;
    for (const member of manifest.loadouts) {
      const list = mentions.get(member.id) ?? [];
      if (!list.some((m) => m.id === manifest.id)) list.push({ id: manifest.id, title: manifest.title, range: member.range });
      mentions.set(member.id, list);
    }
  }
  return mentions;
}

/**
 * What the catalogue publishes of loadout `loadout` (its listing, and its versions document read
 * from its store entry in `storeDir`), as a bundle's record reads it.
 * @throws the file system's or JSON's error when the entry's versions document cannot be read
 *   (the entry is whole: the build links only whole entries).
 */
export function memberFactsOf(storeDir: string, loadout: CachedLoadout): MemberFacts {
  const { row } = loadout.listing;
  let document: VersionsDocument | undefined;
  const versionsDocument = (): VersionsDocument => (document ??= JSON.parse(readFileSync(join(storeDir, 'api', 'loadouts', loadout.state.name, 'versions.json'), 'utf8')) as VersionsDocument);
  return {
    versions: loadout.state.versions,
    latest: row.version,
    title: row.title,
    summary: row.summary,
    at(version) {
      const entry = versionsDocument().versions.find((v) => v.version === version);
      return entry?.capabilities === undefined ? undefined : { context: entry.context, capabilities: entry.capabilities };
    },
  };
}

/** What {@link prepareBundles} needs. */
export interface PrepareBundlesInput {
  base: string;
  /** The bundles, each read and checked without findings (its manifest set). */
  bundles: readonly { manifest: BundleManifest }[];
  histories: ReadonlyMap<string, BundleHistory>;
  member(id: string): MemberFacts | undefined;
  /** The marketplaces' settings when the build writes plugins. */
  marketplace: MarketplaceSettings | undefined;
}

/**
 * Each bundle's record and plugin, in id order (see the module comment).
 * @throws LoadoutError `internal` from bundles/record.ts for a member its checks should have refused.
 */
export function prepareBundles(input: PrepareBundlesInput): BuiltBundle[] {
  const { base, marketplace } = input;
  const empty = { versions: [], published: undefined, updated: undefined, lastCommit: undefined, currentSince: undefined };
  return [...input.bundles]
    .sort((a, b) => (a.manifest.id < b.manifest.id ? -1 : 1))
    .map(({ manifest }) => {
      const record = composeBundleRecord({ base, manifest, history: input.histories.get(manifest.id) ?? empty, member: input.member });
      if (marketplace === undefined) return { record, plugin: undefined };
      const plugin: BundlePluginInput = {
        id: record.id,
        version: record.version,
        title: record.title,
        summary: record.summary,
        license: record.license,
        author: record.author.url === undefined ? { name: record.author.name } : { name: record.author.name, url: record.author.url },
        homepage: record.url,
        members: record.loadouts,
        marketplace: marketplace.name,
      };
      const files = bundlePluginFiles(plugin);
      const zip = writeZip(files);
      const digest = sha256(zip);
      const zipUrl = bundlePluginZipUrl(base, record.id, record.version);
      record.plugin = { name: record.id, marketplace: marketplace.name, install: `claude plugin install ${record.id}@${marketplace.name}`, dependencies: bundleDependencies(record.loadouts), zip_url: zipUrl, sha256: digest };
      const entry: BundleMarketplaceEntry = { id: record.id, version: record.version, description: bundlePluginDescription(plugin), license: record.license, author: plugin.author, homepage: record.url, members: record.loadouts.map((m) => m.id), zip: { url: zipUrl, sha256: digest } };
      return { record, plugin: { files, zip, marketplace: entry } };
    });
}

/** The text of `api/bundles.json` for `bundles`: compared with the live tree's to tell whether the marketplaces' bundle entries changed. */
export function bundleListText(bundles: readonly BuiltBundle[]): string {
  const list: BundleList = { total: bundles.length, bundles: bundles.map((b) => bundleListEntryOf(b.record)) };
  return `${JSON.stringify(list, null, 2)}\n`;
}

/**
 * Writes the bundles' documents (see the module comment) into `tree`, the list as `listText`
 * ({@link bundleListText}). With `digests` (a signing build), returns the digest of the list and of
 * each record by tree path, for the signed snapshot; else an empty map.
 * @throws LoadoutError `internal` from the tree on a bad path; the file system's error.
 */
export async function writeBundleDocuments(tree: OutputTree, base: string, bundles: readonly BuiltBundle[], listText: string, options: { digests: boolean }): Promise<Map<string, DocumentDigest>> {
  const digests = new Map<string, DocumentDigest>();
  const covered = (path: string, text: string): void => {
    if (options.digests) digests.set(path, { sha256: sha256(text), bytes: Buffer.byteLength(text) });
  };
  // Published with its address as `$id`, as the authoring schema is (catalogue-documents.ts).
  const schema = readBundleSchema();
  await tree.writeJson(BUNDLE_SCHEMA_TREE_PATH, { $schema: schema['$schema'], $id: `${base}/${BUNDLE_SCHEMA_TREE_PATH}`, ...schema });
  await tree.write(BUNDLES_LIST_TREE_PATH, listText);
  covered(BUNDLES_LIST_TREE_PATH, listText);
  const marketplace = bundles.find((b) => b.plugin !== undefined)?.plugin === undefined ? undefined : { url: urlMarketplaceUrl(base) };
  for (const { record, plugin } of bundles) {
    const text = `${JSON.stringify(record, null, 2)}\n`;
    await tree.write(bundleRecordTreePath(record.id), text);
    covered(bundleRecordTreePath(record.id), text);
    await tree.write(bundlePageTreePath(record.id), renderBundlePage(base, record, marketplace));
    if (plugin === undefined) continue;
    for (const file of plugin.files) await tree.write(`${pluginTreeFolder(record.id)}/${file.path}`, file.data);
    await tree.write(bundlePluginZipTreePath(record.id, record.version), plugin.zip);
    if (options.digests) digests.set(bundlePluginZipTreePath(record.id, record.version), { sha256: plugin.marketplace.zip.sha256, bytes: plugin.zip.byteLength });
  }
  await tree.write(`${BUNDLES_PAGE_FOLDER}/index.html`, renderBundleListPage(base, bundles.map((b) => b.record)));
  return digests;
}
