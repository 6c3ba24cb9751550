/**
 * The catalogue-wide documents of the static tree: `api/loadouts.json`, `api/tags.json`,
 * `api/agents.json`, the description document, the authoring schema, the search index, the
 * pages that list them (home, docs, sitemap, feed and the pages' assets; DESIGN.md section 5,
 * `src/pages/`) and the catalogue's Agent Skills discovery indexes, all made from the
 * loadouts' listings (catalogue-entry.ts) and the search index.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readAuthoringSchema, readCapabilitiesSchema } from '../../catalogue/schema.js';
import { PUBLISHED_AGENTS } from '../../catalogue/vocabulary.js';
import { ADAPTER_TARGETS, SKILL_DIRS } from '../../layout/layout.js';
import type { Guide, GuideImage } from '../../pages/guides.js';
import { writeCataloguePages, type CataloguePageRecord } from '../../pages/write.js';
import { skillsPieces, SKILLS_PATH, writeSearchIndex } from '../../search/index-file.js';
import type { SearchRow } from '../../search/document.js';
import type { InvertedIndex } from '../../search/inverted-index.js';
import { SEARCH_SETTINGS } from '../../search/settings.js';
import { cliTarballTreePath, cliTarballUrl, CLI_LATEST_TREE_PATH, DESCRIPTION_TREE_PATH, schemaUrl } from '../../tree-format/index.js';
import { capabilitiesSchemaUrl, CLI_PACKAGE_NAME, PLUGINS_FOLDER, urlMarketplaceUrl } from '../../tree-format/addresses.js';
import type { CliPackage } from '../cli-package/pack.js';
import { describeApi, type CliDescription, type PluginsDescription } from './description.js';
import type { MarketplaceSettings } from '../../layout/plugin-marketplaces.js';
import { writeMarketplaces } from './plugin-marketplaces.js';
import type { ContentPieces, OutputTree } from '../write/tree-files.js';
import { writeFolderUnlessSame, writeUnlessSame, type PreviousDocuments } from './previous-documents.js';
import { LoadoutError } from '../../catalogue/errors.js';
import type { CatalogueListing } from './catalogue-entry.js';
import { DISCOVERY_FOLDER, writeCatalogueDiscovery } from './skill-discovery.js';
import { digestBytes, digestPieces, digestText, writeSignedSnapshot, type SigningSettings } from './signed-snapshot.js';
import { jsonDocumentPieces } from '../write/json-pieces.js';
import { CATALOGUE_INDEX_PATH, type DocumentDigest } from '../../tree-format/signing/snapshot.js';
import { BUNDLES_LIST_TREE_PATH } from '../../tree-format/bundle.js';
import { bundleListText, writeBundleDocuments, type BuiltBundle } from './bundles.js';

/** What {@link writeCatalogueDocuments} needs to sign the build (signed-snapshot.ts). */
export interface CatalogueSigning {
  settings: SigningSettings;
  /** The versions documents' digests by tree path, and by store entry name (signed-snapshot.ts `digestVersionsDocuments`). */
  versions: { byPath: Map<string, DocumentDigest>; byEntry: Record<string, [string, number]> };
  /** `generated_at` of the snapshot. */
  now: Date;
}

/** What the catalogue documents carry beyond the loadouts: the guides' pages and the consumer CLI's tarball. */
export interface CatalogueExtras {
  /** The repository's guides and their pictures (pages/guides.ts). */
  docs?: { guides: readonly Guide[]; images: readonly GuideImage[] };
  /** The consumer CLI packed for this tree (cli-package/pack.ts). */
  cli?: CliPackage | undefined;
  /** The version of `loadout-cli` on the npm registry, when the build was told it is published (build.ts `BuildOptions.cliPublished`). */
  cliPublished?: string | undefined;
  /** The key and the digests to sign the tree's snapshot with. */
  signing?: CatalogueSigning | undefined;
  /** The marketplaces' settings, when the build writes plugins (plugin-marketplaces.ts). */
  marketplace?: MarketplaceSettings | undefined;
  /**
   * Settles when the loadouts' folders are in the tree, for a writer that links them meanwhile
   * (build.ts): awaited before the catalogue's discovery indexes, which link files through them,
   * and so before anything that reads the tree. Rejects with the linking's error. Default: they are in.
   */
  loadoutsLinked?: Promise<void> | undefined;
  /**
   * The live tree's documents and the listings they were made from: the list, the skills list
   * and the marketplaces are linked from there when they would be the same (previous-documents.ts).
   * Never with `signing`.
   */
  previous?: PreviousDocuments | undefined;
  /** The catalogue's bundles, ready to write (bundles.ts); none when absent. */
  bundles?: readonly BuiltBundle[] | undefined;
}

/**
 * Writes the documents for the loadouts `listings` (sorted by id, as cache.ts keeps them)
 * into `tree`, with `index`, the whole search index of those loadouts (search/inverted-index.ts),
 * the catalogue's Agent Skills discovery indexes (skill-discovery.ts), whose loadouts'
 * own files must be in the tree by then (`extras.loadoutsLinked`), and `extras` (the guides'
 * pages, the consumer CLI).
 * With `extras.signing`, the description document names the key, and the snapshot of the
 * versions documents and of the index is signed and written last.
 * @throws LoadoutError `internal` from the tree on a bad path; the file system's error.
 */
export async function writeCatalogueDocuments(tree: OutputTree, base: string, listings: readonly CatalogueListing[], index: InvertedIndex, extras: CatalogueExtras = {}): Promise<void> {
  const { docs, cli, signing, marketplace } = extras;
  if (signing !== undefined && extras.previous !== undefined) throw new LoadoutError('internal', 'a signing build carries no document: the snapshot hashes each one as it is written');
  const previous = extras.previous;
  const rows = listings.map((l) => l.row);
  // The list carries the same fields as a search result row; hashed for a signed snapshot.
  const covered = new Map<string, DocumentDigest>();
  const list = (): ContentPieces => {
    const pieces = jsonDocumentPieces({ total: rows.length, loadouts: rows });
    return signing === undefined ? pieces : digestPieces(pieces, (digest) => covered.set(CATALOGUE_INDEX_PATH, digest));
  };
  await writeUnlessSame(tree, CATALOGUE_INDEX_PATH, list, previous, listings, (l) => l.row);
  await tree.writeJson('api/tags.json', { stacks: countTags(rows, (r) => r.stacks), categories: countTags(rows, (r) => r.categories) });
  await tree.writeJson('api/agents.json', {
    agents: PUBLISHED_AGENTS.map((agent) => ({
      id: agent,
      authoring: agent !== 'antigravity-cli',
      adapter: ADAPTER_TARGETS[agent] ?? null,
      skills_dir: SKILL_DIRS[agent],
      loadouts: rows.reduce((n, r) => (r.compatibility[agent] === 'unsupported' ? n : n + 1), 0),
    })),
  });
  // Besides the versions documents and the index, the snapshot covers the description document
  // and the CLI's tarballs, so that a CLI the user trusts can check what this catalogue serves
  // (SECURITY.md, "The CLI's own route").
  // Only a signing build hashes what it writes: the digests serve the snapshot alone.
  let cliDescription: CliDescription | undefined;
  if (cli !== undefined) {
    for (const path of [cliTarballTreePath(cli.version), CLI_LATEST_TREE_PATH]) {
      await tree.write(path, cli.tarball);
      if (signing !== undefined) covered.set(path, digestBytes(cli.tarball));
    }
    cliDescription = { url: cliTarballUrl(base, cli.version), version: cli.version, integrity: cli.integrity, ...(extras.cliPublished === undefined ? {} : { registry: { package: CLI_PACKAGE_NAME, version: extras.cliPublished } }) };
  }
  // The bundles' documents (bundles.ts), and their entries in the marketplaces: a marketplace is
  // carried from the live tree only when the bundles' list there is this one (the entries are made
  // from what the list holds), as well as every loadout's part of it.
  const bundles = extras.bundles ?? [];
  const bundleList = bundleListText(bundles);
  const bundlesSame = previous !== undefined && readTextIfAny(join(previous.dir, BUNDLES_LIST_TREE_PATH)) === bundleList;
  for (const [path, digest] of await writeBundleDocuments(tree, base, bundles, bundleList, { digests: signing !== undefined })) covered.set(path, digest);
  // The marketplaces; the snapshot covers them and the plugin zips.
  if (marketplace !== undefined) {
    const bundleEntries = bundles.flatMap((b) => (b.plugin === undefined ? [] : [b.plugin.marketplace]));
    for (const [path, digest] of await writeMarketplaces(tree, base, marketplace, listings, { digests: signing !== undefined, previous: bundlesSame ? previous : undefined, bundles: bundleEntries })) covered.set(path, digest);
  }
  const plugins = marketplace === undefined || !listings.some((l) => l.plugin !== undefined) ? undefined : describePlugins(base, marketplace);
  const descriptionText = `${JSON.stringify(describeApi(base, false, { database: false, challenge_secret: false, challenge_site_key: false }, { cli: cliDescription, signingKeys: signing === undefined ? undefined : [signing.settings.key.published], plugins }), null, 2)}\n`;
  await tree.write(DESCRIPTION_TREE_PATH, descriptionText);
  if (signing !== undefined) covered.set(DESCRIPTION_TREE_PATH, digestText(descriptionText));
  await tree.writeJson('api/schema.json', { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: schemaUrl(base), ...readAuthoringSchema() });
  await tree.writeJson('api/capabilities.schema.json', { ...readCapabilitiesSchema(), $id: capabilitiesSchemaUrl(base) });
  await writeSearchIndex(tree, { settings: SEARCH_SETTINGS, rows, index });
  await writeUnlessSame(tree, SKILLS_PATH, () => skillsPieces(listings.map((l) => l.skills)), previous, listings, (l) => l.skills);
  const pages = listings.map(pageRecordOf);
  await writeCataloguePages(tree, base, pages, docs, (path, data) => writeUnlessSame(tree, path, data, previous, listings, pageRecordOf));
  await extras.loadoutsLinked;
  // Its legacy files are carried by the parts' 0.2 digests, which cover every byte of each skill's files (skill-discovery.ts).
  await writeFolderUnlessSame(tree, DISCOVERY_FOLDER, () => writeCatalogueDiscovery(tree, listings.map(discoveryOwnerOf)), previous, listings, discoveryOwnerOf);
  if (signing !== undefined) {
    const documents = new Map([...signing.versions.byPath, ...covered]);
    await writeSignedSnapshot(tree, { base, settings: signing.settings, documents, byEntry: signing.versions.byEntry, now: signing.now });
  }
}

/**
 * What the pages read of a listing. One object literal of the page's fields, not a copy of the
 * row spread with optional fields: 10,000 of those cost a measurable part of a rebuild. Pure.
 */
function pageRecordOf({ row, published, author }: CatalogueListing): CataloguePageRecord {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    version: row.version,
    categories: row.categories as CataloguePageRecord['categories'],
    stacks: row.stacks,
    compatibility: row.compatibility,
    counts: row.counts,
    capabilities: row.capabilities,
    featured: row.featured,
    deprecated: row.deprecated,
    updated: row.updated ?? undefined,
    // The pages treat an absent and an undefined date alike (feeds.ts `timeOf`).
    published: published ?? undefined,
    author,
    url: row.url,
    verification: { verified: row.verified },
  };
}

/** What the catalogue's discovery reads of a listing: the loadout's own entries, and what decides which loadout owns a shared skill name. Pure. */
function discoveryOwnerOf({ row, discovery }: CatalogueListing): Parameters<typeof writeCatalogueDiscovery>[1][number] {
  return { id: row.id, featured: row.featured, ...(row.updated === null ? {} : { updated: row.updated }), discovery };
}

/** The text of the file `path`, or undefined when it cannot be read (absent). */
function readTextIfAny(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** `plugins` of the description document (description.ts). Pure. */
function describePlugins(base: string, settings: MarketplaceSettings): PluginsDescription {
  return { name: settings.name, marketplace: urlMarketplaceUrl(base), folder: `${base}/${PLUGINS_FOLDER}/`, ...(settings.git === undefined ? {} : { git: settings.git }) };
}

/** Counts of the tags `tagsOf` each row, most used first, then by name. */
function countTags(rows: readonly SearchRow[], tagsOf: (row: SearchRow) => readonly string[]): { tag: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const row of rows) for (const v of tagsOf(row)) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1));
}
