/**
 * The server's ranker against MiniSearch, the engine of the pages and formerly of the server:
 * over the same index file, both must give the same matches, in the same order, with the same
 * scores as shown (three decimals), for every query and filter here: whole words, words being
 * typed, typos, repeated words, stop words only, and each filter (the empty query's listing is
 * `ranking.test.ts`'s). MiniSearch is driven exactly as `client-script.ts` drives it in the
 * browser.
 */
import MiniSearch from 'minisearch';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allDifferentQueries, BENCH_QUERIES, syntheticLoadouts, syntheticRecord } from '../../bench/search-generate.js';
import { createSearchEngine, type SearchEngine } from '../../src/search/engine.js';
import { buildSearchIndexFile, miniSearchOptions, type SearchIndexFile } from '../../src/search/index-file.js';
import { fromRecord, fromSearchParams, parseSearchParameters, type SearchQuery } from '../../src/search/query.js';
import { compileSettings, documentBoostOf, fuzzyRule, prefixRule, queryTerms, SEARCH_INDEX_PATH } from '../../src/search/settings.js';
import { addTranspositions } from '../../src/search/transposition.js';
import { buildFixtureCatalogue, type FixtureCatalogue } from './fixture.js';

/** The ranking of the browser's script (and formerly of the server): ids and scores, best first, before paging. */
function miniSearchRanking(file: SearchIndexFile): (query: SearchQuery) => { id: string; score: number }[] {
  const s = file.settings;
  const compiled = compileSettings(s);
  const mini = MiniSearch.loadJS(file.index, miniSearchOptions(s));
  const vocabulary = new Set(file.index.index.map(([term]) => term));
  const known = (term: string): boolean => vocabulary.has(term);
  const rows = new Map(file.documents.map((r) => [r.id, r]));
  return (query) => {
    const terms = queryTerms(compiled, query.q);
    if (terms.length === 0) return [];
    const transposed = addTranspositions(terms, known, s.fuzzyMinLength, s.weights.fuzzy);
    const found = mini.search(transposed.terms.join(' '), {
      combineWith: 'OR',
      prefix: prefixRule(s, known),
      fuzzy: fuzzyRule(s, known),
      weights: s.weights,
      boost: s.boost,
      bm25: s.bm25,
      boostDocument: (id: string) => documentBoostOf(s, rows.get(id) ?? { featured: false, verified: false, deprecated: false }),
      boostTerm: (term: string) => transposed.boosts.get(term) ?? 1,
      filter: (result) => {
        const row = rows.get(result.id as string);
        if (row === undefined) return false;
        const { agent, tags, category, verified, has, runs } = query;
        return (
          (agent === undefined || row.compatibility[agent] !== 'unsupported') &&
          (category === undefined || row.categories.includes(category)) &&
          (verified === undefined || row.verified === verified) &&
          (has === undefined || (has === 'hooks' || has === 'scripts' ? row.capabilities[has] > 0 : row.counts[has] > 0)) &&
          (runs === undefined || row.capabilities.runs === runs) &&
          tags.every((t) => row.stacks.includes(t) || row.categories.includes(t))
        );
      },
    });
    found.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return found.map((m) => ({ id: m.id as string, score: Math.round(m.score * 1000) / 1000 }));
  };
}

const parse = (params: Record<string, string>): SearchQuery => {
  const { query, errors } = parseSearchParameters(fromRecord(params));
  expect(errors).toEqual([]);
  return query as SearchQuery;
};

/** Checks the engine against MiniSearch for `queries`, on every page of 50. */
function expectSameRanking(engine: SearchEngine, reference: (query: SearchQuery) => { id: string; score: number }[], queries: SearchQuery[]): void {
  for (const query of queries) {
    const expected = reference(query);
    const got: { id: string; score: number }[] = [];
    for (let offset = 0; offset === 0 || offset < expected.length; offset += 50) {
      const page = engine.search({ ...query, limit: 50, offset });
      expect(page.total, `total of ${JSON.stringify(query)}`).toBe(expected.length);
      got.push(...page.results.map((r) => ({ id: r.id, score: r.score })));
    }
    expect(got, JSON.stringify(query)).toEqual(expected);
  }
}

describe('the ranker on the fixture catalogue', () => {
  let fixture: FixtureCatalogue;
  let file: SearchIndexFile;
  beforeAll(async () => {
    fixture = await buildFixtureCatalogue();
    file = JSON.parse(readFileSync(join(fixture.dist, SEARCH_INDEX_PATH), 'utf8')) as SearchIndexFile;
  });
  afterAll(() => fixture?.remove());

  it('ranks as MiniSearch does, with and without filters', () => {
    const words = ['nextjs', 'nexjs', 'next.js', 'fastap', 'fastpi', 'tail', 'django rest api', 'unty', 'security review', 'postgres analytics', 'react', 'game', 'model context protocol', 'langchain agnts', 'threat model', 'add-endpoint', 'svelte', 'vue starter', 'vue', 'react react', 'react vite react', 'the and of', 'a', 'ts', 'app', 'python', 'pyhton', 'ptyhon django', 'nextsj app', 'eract vite', 'python pyhton'];
    const filters: Record<string, string>[] = [{}, { agent: 'cursor' }, { tags: 'python,web-app' }, { tags: 'react' }, { category: 'gamedev' }, { verified: 'true' }, { verified: 'false' }, { has: 'skills' }, { has: 'mcp' }, { has: 'hooks' }, { has: 'scripts' }, { runs: 'nothing' }, { runs: 'something' }, { tags: 'no-such-stack' }];
    const queries = words.flatMap((q) => filters.map((f) => parse({ q, ...f })));
    expectSameRanking(createSearchEngine(file, { cacheMatches: 0 }), miniSearchRanking(file), queries);
  });
});

describe('the ranker on 600 synthetic loadouts (the long fields pruned)', () => {
  const records = syntheticLoadouts(600, 13).map((spec) => syntheticRecord(spec, 'http://127.0.0.1:8787'));
  const file = buildSearchIndexFile(records);
  const reference = miniSearchRanking(file);
  const engine = createSearchEngine(file, { cacheMatches: 0 });

  it('ranks every query of the benchmark as MiniSearch does: words, prefixes, typos and filters', () => {
    const queries = [...allDifferentQueries(300, 5).map((q) => parse({ q })), ...BENCH_QUERIES.map((qs) => parseSearchParameters(fromSearchParams(new URLSearchParams(qs))).query as SearchQuery).filter((q) => q.q !== '')];
    expectSameRanking(engine, reference, queries);
  });

  it('selects each page of the full ranking, however the page is cut', () => {
    const query = parse({ q: 'python testing' });
    const all = reference(query).map((r) => r.id);
    for (const [limit, offset] of [[1, 0], [7, 3], [20, 40], [50, all.length - 5], [10, all.length + 10]] as const) {
      expect(engine.search({ ...query, limit, offset }).results.map((r) => r.id), `${limit} at ${offset}`).toEqual(all.slice(offset, offset + limit));
    }
  });
});
