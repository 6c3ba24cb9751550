/**
 * The catalogue-wide documents of the static tree: `api/loadouts.json`, `api/tags.json`,
 * `api/agents.json`, the description document, the authoring schema, the search index, and
 * the pages that list them: home, docs, sitemap, feed and the pages' assets (DESIGN.md
 * section 5; `src/pages/`).
 */
import { readAuthoringSchema } from '../catalogue/schema.js';
import { PUBLISHED_AGENTS } from '../catalogue/vocabulary.js';
import { ADAPTER_TARGETS, SKILL_DIRS } from '../install/layout/layout.js';
import { writeCataloguePages } from '../pages/write.js';
import { searchRowOf } from '../search/document.js';
import { writeSearchIndex } from '../search/index-file.js';
import { schemaUrl } from './addresses.js';
import { describeApi } from './description.js';
import type { OutputTree } from './tree-files.js';
import type { CatalogueEntry } from './catalogue-entry.js';

/**
 * Writes the documents for the loadouts `records`, listed in the order given.
 */
export async function writeCatalogueDocuments(tree: OutputTree, base: string, records: readonly CatalogueEntry[]): Promise<void> {
  // The list carries the same fields as a search result row.
  const summaries = records.map(searchRowOf);
  await tree.writeJson('api/loadouts.json', { total: summaries.length, loadouts: summaries });
  await tree.writeJson('api/tags.json', { stacks: countTags(records.flatMap((r) => r.stacks)), categories: countTags(records.flatMap((r) => r.categories)) });
  await tree.writeJson('api/agents.json', {
    agents: PUBLISHED_AGENTS.map((agent) => ({
      id: agent,
      authoring: agent !== 'antigravity-cli',
      adapter: ADAPTER_TARGETS[agent] ?? null,
      skills_dir: SKILL_DIRS[agent],
      loadouts: records.filter((r) => r.compatibility[agent] !== 'unsupported').length,
    })),
  });
  await tree.writeJson('api/v1/index.json', describeApi(base, false, { database: false, challenge_secret: false, challenge_site_key: false }));
  await tree.writeJson('api/schema.json', { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: schemaUrl(base), ...readAuthoringSchema() });
  await writeSearchIndex(tree, records);
  await writeCataloguePages(tree, base, records);
}

/** Tag counts, most used first, then by name. */
function countTags(values: string[]): { tag: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1));
}
