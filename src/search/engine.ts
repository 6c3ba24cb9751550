/**
 * Ranked search over the built index (DESIGN.md section 5): BM25+ over weighted fields
 * (MiniSearch), prefix matching as the user types, typo tolerance, featured and verified
 * ranked up and deprecated down; an empty query lists every loadout by featured, then
 * updated (newest first), then id. Filters combine with AND. Loaded once per process.
 */
import MiniSearch, { type SearchResult as MiniResult } from 'minisearch';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import type { SearchRow, SearchDocument } from './document.js';
import { miniSearchOptions, type SearchIndexFile } from './index-file.js';
import type { SearchQuery } from './query.js';
import { compileSettings, documentBoostOf, fuzzyRule, prefixRule, queryTerms, SEARCH_INDEX_FORMAT, SEARCH_INDEX_PATH } from './settings.js';

/** One result: the row's fields with `score` after `version` (DESIGN.md section 5). */
export type SearchResult = Pick<SearchRow, 'id' | 'title' | 'summary' | 'version'> & { score: number } & Omit<SearchRow, 'id' | 'title' | 'summary' | 'version'>;

/** The response of `GET /api/v1/search`. */
export interface SearchResponse {
  /** The `q` that was searched (trimmed). */
  query: string;
  /** Matches before `limit` and `offset`. */
  total: number;
  limit: number;
  offset: number;
  results: SearchResult[];
}

/** A loaded index. */
export interface SearchEngine {
  /** Number of loadouts. */
  readonly size: number;
  /** Runs a checked query. Never throws for any `q`. */
  search(query: SearchQuery): SearchResponse;
  /** The same answer as {@link search}, as the JSON text `JSON.stringify` would give, built from each row's JSON made once. */
  searchJson(query: SearchQuery): string;
  /** The row of one loadout, or undefined. */
  row(id: string): SearchRow | undefined;
}

/** Options of {@link createSearchEngine}. */
export interface SearchEngineOptions {
  /**
   * Matches kept, over all cached searches, for repeated searches (least recently used
   * searches dropped first; 12 bytes a match); 0 turns the cache off. The index never changes
   * while a server runs, so a kept ranking stays right: popular searches and agents repeating
   * a query are answered without ranking again. Default 1,000,000 (12 MB at most).
   */
  cacheMatches?: number;
}

/** Builds an engine from a parsed index file. @throws LoadoutError `invalid_content` on another format. */
export function createSearchEngine(file: SearchIndexFile, options: SearchEngineOptions = {}): SearchEngine {
  if (file.format !== SEARCH_INDEX_FORMAT) {
    throw new LoadoutError('invalid_content', `the search index has format ${JSON.stringify(file.format)} (expected ${SEARCH_INDEX_FORMAT})`, { hint: 'Run `loadout build` again.' });
  }
  const settings = file.settings;
  const compiled = compileSettings(settings);
  const mini = MiniSearch.loadJS<SearchDocument>(file.index, miniSearchOptions(settings));
  const rows = new Map(file.documents.map((r) => [r.id, r]));
  const boosts = new Map(file.documents.map((r) => [r.id, documentBoostOf(settings, r)]));
  const listing = [...file.documents].sort(listingOrder);
  // The index's own words: a query term found here is complete and spelled right.
  const vocabulary = new Set(file.index.index.map(([term]) => term));
  const known = (term: string): boolean => vocabulary.has(term);
  const prefix = prefixRule(settings, known);
  const fuzzy = fuzzyRule(settings, known);

  const rowList = file.documents;
  const rowIndex = new Map(rowList.map((r, i) => [r.id, i]));
  const cache = createRankingCache(options.cacheMatches ?? 1_000_000);

  const rank = (query: SearchQuery, terms: string[]): Match[] => {
    const keep = filterOf(query);
    let matches: Match[];
    if (query.q === '') {
      matches = listing.filter(keep).map((row) => ({ row, score: 0 }));
    } else {
      const found: MiniResult[] =
        terms.length === 0
          ? []
          : mini.search(terms.join(' '), {
              combineWith: 'OR',
              prefix,
              fuzzy,
              weights: settings.weights,
              boost: settings.boost,
              bm25: settings.bm25,
              boostDocument: (id: string) => boosts.get(id) ?? 1,
              filter: (result) => {
                const row = rows.get(result.id as string);
                return row !== undefined && keep(row);
              },
            });
      matches = found.map((m) => ({ row: rows.get(m.id as string) as SearchRow, score: m.score }));
      matches.sort((a, b) => b.score - a.score || compareIds(a.row.id, b.row.id));
    }
    return matches;
  };

  const ranked = (query: SearchQuery): Ranking => {
    const terms = query.q === '' ? [] : queryTerms(compiled, query.q);
    // Same terms and filters, same ranking: "Next.js", "nextjs " and "NEXTJS" share an entry.
    const key = JSON.stringify([query.q === '', terms, query.agent, query.tags, query.category, query.verified, query.has]);
    let ranking = cache.get(key);
    if (ranking === undefined) {
      const matches = rank(query, terms);
      ranking = { rows: Int32Array.from(matches, (m) => rowIndex.get(m.row.id) ?? 0), scores: Float64Array.from(matches, (m) => m.score) };
      cache.set(key, ranking);
    }
    return ranking;
  };
  const pageOf = (query: SearchQuery, ranking: Ranking): number[] => {
    const end = Math.min(ranking.rows.length, query.offset + query.limit);
    const indexes: number[] = [];
    for (let i = query.offset; i < end; i++) indexes.push(i);
    return indexes;
  };
  // The JSON of each result around its score, made once per row the first time it is shown.
  const rowJson: ([string, string] | undefined)[] = new Array(rowList.length);
  const jsonOf = (index: number, score: number): string => {
    let parts = rowJson[index];
    if (parts === undefined) {
      const { id, title, summary, version, ...rest } = rowList[index] as SearchRow;
      parts = [`${JSON.stringify({ id, title, summary, version }).slice(0, -1)},"score":`, `,${JSON.stringify(rest).slice(1)}`];
      rowJson[index] = parts;
    }
    return `${parts[0]}${roundScore(score)}${parts[1]}`;
  };

  return {
    size: rows.size,
    row: (id) => rows.get(id),
    search(query) {
      const ranking = ranked(query);
      const results = pageOf(query, ranking).map((i) => resultOf(rowList[ranking.rows[i] ?? 0] as SearchRow, ranking.scores[i] ?? 0));
      return { query: query.q, total: ranking.rows.length, limit: query.limit, offset: query.offset, results };
    },
    searchJson(query) {
      const ranking = ranked(query);
      const results = pageOf(query, ranking).map((i) => jsonOf(ranking.rows[i] ?? 0, ranking.scores[i] ?? 0));
      return `{"query":${JSON.stringify(query.q)},"total":${ranking.rows.length},"limit":${query.limit},"offset":${query.offset},"results":[${results.join(',')}]}`;
    },
  };
}

/**
 * Reads `dist/api/search-index.json` and builds the engine.
 * @throws LoadoutError `not_found` when the index is missing, `invalid_content` when it does not parse.
 */
export async function loadSearchEngine(distDir: string, options: SearchEngineOptions = {}): Promise<SearchEngine> {
  const path = join(distDir, SEARCH_INDEX_PATH);
  const text = await readFile(path, 'utf8').catch((cause: unknown) => {
    throw new LoadoutError('not_found', `${path} is missing: the catalogue was built without a search index`, { cause, hint: 'Run `loadout build` first.' });
  });
  let file: SearchIndexFile;
  try {
    file = JSON.parse(text) as SearchIndexFile;
  } catch (cause) {
    throw new LoadoutError('invalid_content', `${path} is not valid JSON`, { cause, hint: 'Run `loadout build` again.' });
  }
  return createSearchEngine(file, options);
}

/** The AND of the query's filters. */
function filterOf(query: SearchQuery): (row: SearchRow) => boolean {
  const { agent, tags, category, verified, has } = query;
  return (row) =>
    (agent === undefined || row.compatibility[agent] !== 'unsupported') &&
    (category === undefined || row.categories.includes(category)) &&
    (verified === undefined || row.verified === verified) &&
    (has === undefined || row.counts[has] > 0) &&
    tags.every((t) => row.stacks.includes(t) || row.categories.includes(t));
}

/** Empty-query order: featured first, then updated (newest first, undated last), then id. */
function listingOrder(a: SearchRow, b: SearchRow): number {
  if (a.featured !== b.featured) return a.featured ? -1 : 1;
  if (a.updated !== b.updated) {
    if (a.updated === null) return 1;
    if (b.updated === null) return -1;
    return a.updated < b.updated ? 1 : -1;
  }
  return compareIds(a.id, b.id);
}

/** A ranking as kept in the cache: row indexes and scores, best first. */
interface Ranking {
  rows: Int32Array;
  scores: Float64Array;
}

/** An LRU map of rankings holding at most `budget` matches in all (a Map iterates oldest first). */
function createRankingCache(budget: number): { get(key: string): Ranking | undefined; set(key: string, ranking: Ranking): void } {
  const entries = new Map<string, Ranking>();
  let held = 0;
  return {
    get(key) {
      const hit = entries.get(key);
      if (hit !== undefined) {
        entries.delete(key);
        entries.set(key, hit);
      }
      return hit;
    },
    set(key, ranking) {
      if (ranking.rows.length > budget) return;
      entries.set(key, ranking);
      held += ranking.rows.length;
      for (const [oldest, old] of entries) {
        if (held <= budget) break;
        entries.delete(oldest);
        held -= old.rows.length;
      }
    },
  };
}

/** A ranked match. */
interface Match {
  row: SearchRow;
  score: number;
}

const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function resultOf(row: SearchRow, score: number): SearchResult {
  const { id, title, summary, version, ...rest } = row;
  return { id, title, summary, version, score: roundScore(score), ...rest };
}

/** Scores are shown with three decimals. */
const roundScore = (score: number): number => Math.round(score * 1000) / 1000;
