/**
 * What the catalogue-wide documents (the list, tag and agent documents, the search index, the
 * skills document, the home page, sitemap and feed, and the catalogue's Agent Skills indexes)
 * read of one published record: its metadata without file contents, install plans, context
 * details or check results (about 2 KB). The builder makes one per loadout
 * (`tree/render/catalogue-entry.ts` keeps what it needs of it between builds); search indexes
 * it. It lives with the format so that search reads the record's shape, never the builder.
 */
import type { Agent } from '../catalogue/vocabulary.js';
import type { PublishedFileEntry, PublishedRecord } from './record.js';
import type { Capabilities } from './capabilities.js';

/** The metadata of a record that the catalogue-wide documents read. */
export type CatalogueEntry = Pick<
  PublishedRecord,
  'id' | 'title' | 'summary' | 'description' | 'highlights' | 'version' | 'categories' | 'stacks' | 'compatibility' | 'counts' | 'featured' | 'deprecated' | 'published' | 'updated' | 'author' | 'url' | 'api_url'
> & {
  files: Pick<PublishedFileEntry, 'path' | 'role' | 'description' | 'skill' | 'bytes' | 'lang'>[];
  verification: Pick<PublishedRecord['verification'], 'verified'>;
  /** Per agent, the estimated tokens loaded at every session start (`context[agent].always.tokens`). */
  context: Record<Agent, { always: { tokens: number } }>;
  /** Of its capability list (`capabilities.ts`), what search filters on: `runs`, its hooks and its scripts. */
  capabilities: Pick<Capabilities, 'runs' | 'hooks' | 'scripts'>;
};

/** The entry of a record (the record may come with or without file contents). Pure. */
export function catalogueEntryOf(r: PublishedRecord): CatalogueEntry {
  return {
    id: r.id,
    title: r.title,
    summary: r.summary,
    description: r.description,
    highlights: r.highlights,
    version: r.version,
    categories: r.categories,
    stacks: r.stacks,
    compatibility: r.compatibility,
    counts: r.counts,
    featured: r.featured,
    deprecated: r.deprecated,
    ...(r.published === undefined ? {} : { published: r.published }),
    ...(r.updated === undefined ? {} : { updated: r.updated }),
    author: r.author,
    url: r.url,
    api_url: r.api_url,
    files: r.files.map((f) => ({ path: f.path, role: f.role, description: f.description, skill: f.skill, bytes: f.bytes, lang: f.lang })),
    verification: { verified: r.verification.verified },
    context: Object.fromEntries(Object.entries(r.context).map(([agent, cost]) => [agent, { always: { tokens: cost.always.tokens } }])) as CatalogueEntry['context'],
    capabilities: { runs: r.capabilities.runs, hooks: r.capabilities.hooks, scripts: r.capabilities.scripts },
  };
}
