/**
 * The catalogue's marketplace documents in the built tree (DESIGN.md "Native plugins"), made
 * from the loadouts' listings (catalogue-entry.ts) with the shapes of
 * layout/plugin-marketplaces.ts:
 * - `plugins/.claude-plugin/marketplace.json` (Claude Code, also read by Copilot CLI and Codex),
 *   `plugins/.agents/plugins/claude-marketplace.json` (Codex) and `plugins/.cursor-plugin/marketplace.json`
 *   (Cursor): `plugins/` is a folder marketplace of the plugin folders `plugins/<id>/`;
 * - `plugins/claude-marketplace.json`: the Claude Code marketplace to add by URL, whose entries are
 *   the plugin zips pinned by sha256.
 * Written with the other catalogue documents on every build: a rebuild rewrites these four (or
 * links from the live tree those whose entries did not change, previous-documents.ts) and the
 * changed loadouts' entries, nothing else (docs/architecture.md).
 */
import { claudeFolderMarketplace, claudeUrlMarketplace, codexMarketplace, cursorMarketplace, MARKETPLACE_PATHS, type BundleMarketplaceEntry, type MarketplaceEntry, type MarketplaceSettings } from '../../layout/plugin-marketplaces.js';
import { PLUGINS_FOLDER, pluginZipTreePath, pluginZipUrl, URL_MARKETPLACE_TREE_PATH } from '../../tree-format/addresses.js';
import type { DocumentDigest } from '../../tree-format/signing/snapshot.js';
import type { ContentPieces, OutputTree } from '../write/tree-files.js';
import { writeUnlessSame, type PreviousDocuments } from './previous-documents.js';
import type { CatalogueListing } from './catalogue-entry.js';
import { digestPieces } from './signed-snapshot.js';
import { jsonDocumentPieces } from '../write/json-pieces.js';

/** The tree paths of the four marketplace documents. */
export const MARKETPLACE_TREE_PATHS = {
  claude: `${PLUGINS_FOLDER}/${MARKETPLACE_PATHS.claude}`,
  codex: `${PLUGINS_FOLDER}/${MARKETPLACE_PATHS.codex}`,
  cursor: `${PLUGINS_FOLDER}/${MARKETPLACE_PATHS.cursor}`,
  url: URL_MARKETPLACE_TREE_PATH,
} as const;

/** The marketplace entries of the listings that have a plugin, in their order. Pure. */
export function marketplaceEntriesOf(base: string, listings: readonly CatalogueListing[]): MarketplaceEntry[] {
  const entries: MarketplaceEntry[] = [];
  for (const { row, author, plugin } of listings) {
    if (plugin === undefined) continue;
    entries.push({
      manifest: { id: row.id, version: row.version, summary: row.summary, license: plugin.license, categories: row.categories as MarketplaceEntry['manifest']['categories'], stacks: row.stacks, author: { name: author.name, url: author.url } },
      homepage: row.url,
      zip: { url: pluginZipUrl(base, row.id, row.version), sha256: plugin.sha256 },
    });
  }
  return entries;
}

/**
 * Writes the four marketplace documents for `listings` and the bundles' entries
 * `options.bundles` (after the loadouts') into `tree` (nothing when no listing has a plugin: a
 * build without plugins). With `digests` (a signing build), returns, for the signed
 * snapshot, the digest of each document and of each loadout's latest plugin zip, by tree path;
 * without, an empty map: hashing four documents of 10,000 entries is a measurable part of a
 * rebuild that signs nothing (DESIGN.md section 7). With `previous` (never with `digests`; the
 * caller passes it only when the live tree's bundle entries are these), a document whose every
 * loadout's entry is the same is linked from the live tree.
 */
export async function writeMarketplaces(tree: OutputTree, base: string, settings: MarketplaceSettings, listings: readonly CatalogueListing[], options: { digests: boolean; previous?: PreviousDocuments | undefined; bundles?: readonly BundleMarketplaceEntry[] }): Promise<Map<string, DocumentDigest>> {
  const digests = new Map<string, DocumentDigest>();
  const entries = marketplaceEntriesOf(base, listings);
  if (entries.length === 0) return digests;
  const bundles = options.bundles ?? [];
  // One document's graph at a time, so that no two are alive at once.
  const documents: [string, (settings: MarketplaceSettings, entries: readonly MarketplaceEntry[], bundles?: readonly BundleMarketplaceEntry[]) => unknown][] = [
    [MARKETPLACE_TREE_PATHS.claude, claudeFolderMarketplace],
    [MARKETPLACE_TREE_PATHS.codex, codexMarketplace],
    [MARKETPLACE_TREE_PATHS.cursor, cursorMarketplace],
    [MARKETPLACE_TREE_PATHS.url, claudeUrlMarketplace],
  ];
  for (const [path, documentOf] of documents) {
    const pieces = (): ContentPieces => {
      const made = jsonDocumentPieces(documentOf(settings, entries, bundles));
      return options.digests ? digestPieces(made, (digest) => digests.set(path, digest)) : made;
    };
    // A loadout's part of a document: the document of its entry alone (none without a plugin).
    await writeUnlessSame(tree, path, pieces, options.previous, listings, (listing) => documentOf(settings, marketplaceEntriesOf(base, [listing])));
  }
  if (options.digests) for (const { row, plugin } of listings) if (plugin !== undefined) digests.set(pluginZipTreePath(row.id, row.version), { sha256: plugin.sha256, bytes: plugin.bytes });
  return digests;
}
