/**
 * What the build keeps of one loadout for the catalogue-wide documents (the list, tag and
 * agent documents, the search index, the skills document, the home page, sitemap and feed, and
 * the catalogue's Agent Skills indexes). A loadout's worker thread sends its `CatalogueEntry`
 * (`tree-format/catalogue-entry.ts`: its record's metadata without file contents, install
 * plans, context details or check results, about 2 KB); the build cache (cache.ts) keeps only its {@link CatalogueListing} (its search
 * result row, feed fields, skills and discovery entries, about 1 KB), and the build keeps its
 * indexed words in the search index it patches (search/inverted-index.ts), so a rebuild has all
 * it needs of every unchanged loadout without reading or parsing its record (a whole record
 * is many times the size of its listing, and parsing every record was a measurable part of a
 * rebuild of a large catalogue, whose target DESIGN.md section 7 sets).
 */
import { searchRowOf, type SearchRow } from '../../search/document.js';
import { skillEntriesOf } from '../../search/index-file.js';
import type { CatalogueEntry } from '../../tree-format/catalogue-entry.js';
import type { PublishedRecord } from '../../tree-format/index.js';
import type { DiscoveryEntry, LegacyEntry } from './skill-discovery.js';
import type { PluginListing } from './plugins.js';

/** A loadout's own Agent Skills indexes (skill-discovery.ts), which the catalogue's are made from. */
export interface LoadoutDiscovery {
  /** The entries of `loadouts/<id>/.well-known/agent-skills/index.json`. */
  skills: DiscoveryEntry[];
  /** The entries of `loadouts/<id>/.well-known/skills/index.json`. */
  legacy: LegacyEntry[];
}

/** What the build cache keeps of a loadout for the catalogue-wide documents (see the module comment). */
export interface CatalogueListing {
  /** Its search result row: also its line in `api/loadouts.json`, its card on the home page and its sitemap entry. */
  row: SearchRow;
  /** For the feed: the first commit's date, and the author. */
  published: string | null;
  author: PublishedRecord['author'];
  /** Its skills as `api/skills.json` lists them: the JSON of its entries, joined by commas ('' for none). */
  skills: string;
  /** Its own Agent Skills index entries. */
  discovery: LoadoutDiscovery;
  /** Its native plugin's zip (plugins.ts), for the marketplaces; absent when the build writes no plugins. */
  plugin?: PluginListing;
}

/** The listing of an entry, with its discovery entries and its plugin's zip (if any). Pure. */
export function listingOf(entry: CatalogueEntry, discovery: LoadoutDiscovery, plugin?: PluginListing): CatalogueListing {
  return { row: searchRowOf(entry), published: entry.published ?? null, author: entry.author, skills: JSON.stringify(skillEntriesOf(entry)).slice(1, -1), discovery, ...(plugin === undefined ? {} : { plugin }) };
}
