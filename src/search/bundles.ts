/**
 * Search over the catalogue's bundles (issue 56, point 2: "search finds bundles"), beside the
 * loadouts' index: a catalogue has few bundles, so they are matched here from `api/bundles.json`
 * at each query rather than indexed with the loadouts, whose index (inverted-index.ts) stays the
 * one MiniSearch builds and whose result fields stay the spec's. Bundles come back in a list of
 * their own, each result marked `kind: "bundle"`.
 *
 * The text is read as the loadouts' is (settings.ts: the same terms, compounds joined, stop words
 * dropped); a query term matches a field's term exactly (weight 1) or, from `prefixMinLength`
 * characters, as its prefix (`weights.prefix`), and a bundle scores the sum over the query's
 * terms of the best match in each field times the field's boost. Bundles match any term (as
 * MiniSearch's default `OR` does for loadouts); an empty query lists every bundle. A query
 * narrowed by a loadout's property (tags, category, verified, has, runs, max_always_tokens) lists no
 * bundle; `agent` keeps the bundles with a loadout for that agent. Pure.
 */
import type { Agent } from '../catalogue/vocabulary.js';
import type { BundleListEntry } from '../tree-format/bundle.js';
import type { SearchQuery } from './query.js';
import { queryTerms, type CompiledSettings } from './settings.js';

/** One bundle found: `kind` says it is no loadout. */
export interface BundleResult {
  kind: 'bundle';
  id: string;
  title: string;
  summary: string;
  version: string;
  score: number;
  /** Its loadouts, with the ranges they are taken at and the versions those resolve to. */
  loadouts: { id: string; range: string; resolved: string }[];
  url: string;
  api_url: string;
}

/** The most bundles a search lists. */
export const MAX_BUNDLE_RESULTS = 10;

/** Field boosts: the bundle's title counts most, then its id and its loadouts' ids and titles. */
const BOOST = { title: 6, slug: 3, loadouts: 2, summary: 2, description: 1 } as const;

/** Searches `bundles` (see the module comment). */
export function createBundleSearch(bundles: readonly BundleListEntry[], compiled: CompiledSettings): (query: SearchQuery) => BundleResult[] {
  const { prefixMinLength, weights } = compiled.settings;
  const documents = bundles.map((b) => ({
    entry: b,
    fields: [
      [BOOST.title, new Set(queryTerms(compiled, b.title))],
      [BOOST.slug, new Set(queryTerms(compiled, b.id))],
      [BOOST.loadouts, new Set(queryTerms(compiled, b.loadouts.map((m) => `${m.id} ${m.title}`).join(' ')))],
      [BOOST.summary, new Set(queryTerms(compiled, b.summary))],
      [BOOST.description, new Set(queryTerms(compiled, b.description))],
    ] as const,
    agents: (agent: Agent): boolean => b.loadouts.some((m) => m.agents === null || m.agents.includes(agent)),
  }));
  /** The weight of the best match of `term` among `terms`: 1 exact, `weights.prefix` as a prefix, 0 none. */
  const matchOf = (term: string, terms: ReadonlySet<string>): number => {
    if (terms.has(term)) return 1;
    if (term.length < prefixMinLength) return 0;
    for (const t of terms) if (t.startsWith(term)) return weights.prefix;
    return 0;
  };
  return (query) => {
    if (query.tags.length > 0 || query.category !== undefined || query.verified !== undefined || query.has !== undefined || query.runs !== undefined || query.max_always_tokens !== undefined) return [];
    const terms = queryTerms(compiled, query.q);
    if (query.q.trim() !== '' && terms.length === 0) return [];
    const found: BundleResult[] = [];
    for (const d of documents) {
      if (query.agent !== undefined && !d.agents(query.agent)) continue;
      let score = 0;
      for (const term of terms) for (const [boost, fieldTerms] of d.fields) score += boost * matchOf(term, fieldTerms);
      if (terms.length > 0 && score === 0) continue;
      const b = d.entry;
      found.push({ kind: 'bundle', id: b.id, title: b.title, summary: b.summary, version: b.version, score: Math.round(score * 1000) / 1000, loadouts: b.loadouts.map((m) => ({ id: m.id, range: m.range, resolved: m.resolved })), url: b.url, api_url: b.api_url });
    }
    return found.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, MAX_BUNDLE_RESULTS);
  };
}
