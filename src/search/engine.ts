/**
 * Ranked search over the built index (DESIGN.md section 5): BM25+ over weighted fields,
 * prefix matching as the user types, typo tolerance, featured and verified ranked up and
 * deprecated down; an empty query lists every loadout by featured, then updated (newest
 * first), then id. Filters combine with AND. Loaded once per process.
 *
 * The server ranks over the binary form of the index (`ranking-file.ts`, `ranker.ts`), which
 * scores as MiniSearch does over `api/search-index.json` (what the pages use), in typed
 * arrays: no result object per match, and only the page asked for is sorted.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import type { SearchRow } from './document.js';
import { rankingSourceOf, type SearchIndexFile } from './index-file.js';
import type { SearchQuery } from './query.js';
import { createRanker, findTerm } from './ranker.js';
import { decodeRankingIndex, DOC_FLAG, encodeRankingIndex, SEARCH_RANKING_PATH, type RankingIndex } from './ranking-file.js';
import { compileSettings, queryTerms, SEARCH_INDEX_FORMAT, SEARCH_INDEX_PATH } from './settings.js';
import { MAX_SUGGESTIONS, suggestSearches, type Suggestion } from './suggestions.js';
import { addTranspositions } from './transposition.js';
import { createBundleSearch, type BundleResult } from './bundles.js';
import { BUNDLES_LIST_TREE_PATH, type BundleList, type BundleListEntry } from '../tree-format/bundle.js';

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
  /**
   * Present when the search found nothing for a non-empty `q`: up to three loadout ids,
   * stacks or categories close to it, best first (`suggestions.ts`); possibly empty.
   */
  suggestions?: Suggestion[];
  /**
   * Present when the catalogue has bundles (issue 56): those that match `q`, best first, at most
   * ten, each marked `kind: "bundle"` (bundles.ts); not counted in `total` nor paged.
   */
  bundles?: BundleResult[];
}

/** A loaded index. */
export interface SearchEngine {
  /** Number of loadouts. */
  readonly size: number;
  /** Runs a checked query. Never throws for any `q`. */
  search(query: SearchQuery): SearchResponse;
  /** The same answer as {@link search}, as the JSON text `JSON.stringify` would give, built from each row's JSON made at build time. */
  searchJson(query: SearchQuery): string;
}

/** Options of {@link openSearchEngine}. */
export interface SearchEngineOptions {
  /**
   * Matches kept, over all cached searches, for repeated searches (kept from the second time a
   * search is made; least recently used searches dropped first; 12 bytes a match); 0 turns the
   * cache off. The index never changes while a server runs, so kept matches stay right: a
   * repeated search (another page, an agent asking again) skips scoring and only selects its page. Default 100,000 (1.2 MB at
   * most): scoring costs about as much as answering the request, so a larger cache would buy
   * little and hold memory. No target depends on it: the benchmark's headline figures have
   * every query different.
   */
  cacheMatches?: number;
  /** The catalogue's bundles (`api/bundles.json`), searched beside the loadouts (bundles.ts); none when absent. */
  bundles?: readonly BundleListEntry[];
}

/** Builds an engine from a parsed index file (encoding its binary form in memory). @throws LoadoutError `invalid_content` on another format. */
export function createSearchEngine(file: SearchIndexFile, options: SearchEngineOptions = {}): SearchEngine {
  if (file.format !== SEARCH_INDEX_FORMAT) {
    throw new LoadoutError('invalid_content', `the search index has format ${JSON.stringify(file.format)} (expected ${SEARCH_INDEX_FORMAT})`, { hint: 'Run `loadout build` again.' });
  }
  return openSearchEngine(decodeRankingIndex(encodeRankingIndex(rankingSourceOf(file))), options);
}

/** Builds an engine over a decoded ranking file. */
export function openSearchEngine(index: RankingIndex, options: SearchEngineOptions = {}): SearchEngine {
  const compiled = compileSettings(index.settings);
  const rank = createRanker(index);
  const known = (term: string): boolean => findTerm(index.terms, term) >= 0;
  // MiniSearch merges `weights` over its defaults (fuzzy 0.45), as the ranker does.
  const fuzzyWeight = index.settings.weights.fuzzy ?? 0.45;
  const rows = Buffer.from(index.rows.buffer, index.rows.byteOffset, index.rows.byteLength);
  const cache = createMatchCache(options.cacheMatches ?? 100_000);
  const bundles = options.bundles === undefined || options.bundles.length === 0 ? undefined : createBundleSearch(options.bundles, compiled);

  /** The page of `query`: documents and scores, best first, and the total before paging. */
  const pageOf = (query: SearchQuery): { total: number; docs: number[]; scores: number[] } => {
    const keep = filterOf(index, query);
    const end = query.offset + query.limit;
    if (query.q === '') {
      const docs: number[] = [];
      let total = 0;
      for (const doc of index.listing) {
        if (!keep(doc)) continue;
        if (total >= query.offset && total < end) docs.push(doc);
        total++;
      }
      return { total, docs, scores: docs.map(() => 0) };
    }
    const terms = queryTerms(compiled, query.q);
    if (terms.length === 0) return { total: 0, docs: [], scores: [] };
    // Same terms and filters, same matches: "Next.js", "nextjs " and "NEXTJS" share an entry.
    const key = JSON.stringify([terms, query.agent, query.tags, query.category, query.verified, query.has, query.runs, query.max_always_tokens]);
    let matches = cache.get(key);
    if (matches === undefined) {
      const transposed = addTranspositions(terms, known, index.settings.fuzzyMinLength, fuzzyWeight);
      matches = rank(transposed.terms, keep, transposed.boosts);
      cache.set(key, matches);
    }
    const best = bestOf(matches, end).slice(query.offset);
    return { total: matches.count, docs: best.map((i) => matches.docs[i] ?? 0), scores: best.map((i) => matches.scores[i] ?? 0) };
  };
  /** Every id, stack and category, built on the first search that finds nothing. */
  let candidates: Suggestion[] | undefined;
  const suggestionsFor = (query: SearchQuery, total: number): Suggestion[] | undefined => {
    if (total > 0 || query.q === '') return undefined;
    candidates ??= [
      ...Array.from({ length: index.documents }, (_, doc): Suggestion => ({ kind: 'id', value: (JSON.parse(jsonOf(doc, 0)) as { id: string }).id })),
      ...index.stacks.map((value): Suggestion => ({ kind: 'stack', value })),
      ...index.categories.map((value): Suggestion => ({ kind: 'category', value })),
    ];
    return suggestSearches(query.q, candidates, MAX_SUGGESTIONS);
  };
  /** The result JSON of `doc` with `score`. */
  const jsonOf = (doc: number, score: number): string => {
    const start = index.rowStart[doc] ?? 0;
    const split = index.rowSplit[doc] ?? 0;
    return `${rows.toString('utf8', start, split)}${roundScore(score)}${rows.toString('utf8', split, index.rowStart[doc + 1] ?? 0)}`;
  };

  return {
    size: index.documents,
    search(query) {
      const page = pageOf(query);
      // One parse for the page (the rows are JSON already).
      const results = JSON.parse(`[${page.docs.map((doc, i) => jsonOf(doc, page.scores[i] ?? 0)).join(',')}]`) as SearchResult[];
      const suggestions = suggestionsFor(query, page.total);
      return { query: query.q, total: page.total, limit: query.limit, offset: query.offset, results, ...(suggestions === undefined ? {} : { suggestions }), ...(bundles === undefined ? {} : { bundles: bundles(query) }) };
    },
    searchJson(query) {
      const page = pageOf(query);
      const results = page.docs.map((doc, i) => jsonOf(doc, page.scores[i] ?? 0));
      const suggestions = suggestionsFor(query, page.total);
      return `{"query":${JSON.stringify(query.q)},"total":${page.total},"limit":${query.limit},"offset":${query.offset},"results":[${results.join(',')}]${suggestions === undefined ? '' : `,"suggestions":${JSON.stringify(suggestions)}`}${bundles === undefined ? '' : `,"bundles":${JSON.stringify(bundles(query))}`}}`;
    },
  };
}

/**
 * Reads the index of the built tree at `distDir` and builds the engine: the binary
 * `.search-ranking.bin` when the tree has one this code can read, else `api/search-index.json`
 * (a tree built by an older version), encoded in memory.
 * @throws LoadoutError `not_found` when the index is missing, `invalid_content` when it does not parse.
 */
export async function loadSearchEngine(distDir: string, engineOptions: SearchEngineOptions = {}): Promise<SearchEngine> {
  const options = { ...engineOptions, bundles: engineOptions.bundles ?? (await readBundleList(distDir)) };
  const binary = await readFile(join(distDir, SEARCH_RANKING_PATH)).catch(() => undefined);
  if (binary !== undefined) {
    try {
      return openSearchEngine(decodeRankingIndex(binary), options);
    } catch (error) {
      if (!(error instanceof LoadoutError && error.code === 'invalid_content')) throw error;
    }
  }
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

/**
 * The bundles of the tree at `distDir` (`api/bundles.json`); none when it has no such document
 * (a tree built before bundles) or it does not read as a list of bundles.
 */
async function readBundleList(distDir: string): Promise<BundleListEntry[]> {
  const text = await readFile(join(distDir, BUNDLES_LIST_TREE_PATH), 'utf8').catch(() => undefined);
  if (text === undefined) return [];
  try {
    const list = JSON.parse(text) as Partial<BundleList>;
    return Array.isArray(list.bundles) ? list.bundles.filter((b) => typeof b?.id === 'string' && typeof b.title === 'string' && typeof b.summary === 'string' && typeof b.description === 'string' && Array.isArray(b.loadouts) && b.loadouts.every((m) => typeof m?.id === 'string' && typeof m.title === 'string')) : [];
  } catch {
    return [];
  }
}

/** The AND of the query's filters, over document numbers. */
function filterOf(index: RankingIndex, query: SearchQuery): (doc: number) => boolean {
  const { agent, tags, category, verified, has, runs } = query;
  // A loadout whose compatibility does not name the agent counts as supporting it (not `unsupported`).
  const agentBit = agent === undefined ? -1 : index.agents.indexOf(agent);
  const agentMask = agentBit < 0 ? 0 : (1 << agentBit) >>> 0;
  let flagMask = 0;
  let flagWant = 0;
  if (verified !== undefined) {
    flagMask |= DOC_FLAG.verified;
    if (verified) flagWant |= DOC_FLAG.verified;
  }
  if (has !== undefined) {
    flagMask |= DOC_FLAG[has];
    flagWant |= DOC_FLAG[has];
  }
  if (runs !== undefined) {
    const bit = runs === 'nothing' ? DOC_FLAG.runsNothing : DOC_FLAG.runsSomething;
    flagMask |= bit;
    flagWant |= bit;
  }
  // Each required tag as the numbers it may have in `docTags` (-1: no such stack or category).
  const categoryNumber = (c: string): number => {
    const i = index.categories.indexOf(c);
    return i < 0 ? -1 : index.stacks.length + i;
  };
  const required: [number, number][] = tags.map((t) => [index.stacks.indexOf(t), categoryNumber(t)]);
  if (category !== undefined) required.push([-1, categoryNumber(category)]);
  if (required.some(([s, c]) => s < 0 && c < 0)) return () => false;
  const { docAgents, docFlags, docTagStart, docTags } = index;
  const hasTag = (doc: number, [s, c]: [number, number]): boolean => {
    for (let i = docTagStart[doc] ?? 0, end = docTagStart[doc + 1] ?? 0; i < end; i++) {
      const tag = docTags[i];
      if (tag === s || tag === c) return true;
    }
    return false;
  };
  const fitsContext = contextFilterOf(index, query.max_always_tokens, agentBit);
  return (doc) => (((docAgents[doc] ?? 0) & agentMask) >>> 0) === agentMask && ((docFlags[doc] ?? 0) & flagMask) === flagWant && required.every((r) => hasTag(doc, r)) && fitsContext(doc);
}

/**
 * `max_always_tokens` (DESIGN.md section 8): the tokens loaded at session start are at most `max`
 * for the agent of bit `agentBit`, or, with no agent (-1), for every agent the loadout supports.
 */
function contextFilterOf(index: RankingIndex, max: number | undefined, agentBit: number): (doc: number) => boolean {
  if (max === undefined) return () => true;
  const { docAlwaysTokens, docAgents } = index;
  const agents = index.agents.length;
  if (agentBit >= 0) return (doc) => (docAlwaysTokens[doc * agents + agentBit] ?? 0) <= max;
  return (doc) => {
    const supported = docAgents[doc] ?? 0;
    for (let i = 0; i < agents; i++) if ((supported >>> i) & 1 && (docAlwaysTokens[doc * agents + i] ?? 0) > max) return false;
    return true;
  };
}

/** Scored matches: `docs[i]` has `scores[i]`. */
interface ScoredMatches {
  count: number;
  docs: ArrayLike<number>;
  scores: ArrayLike<number>;
}

/**
 * The places in `matches` of the best `k`, best first: higher score, then lower document
 * number (lower id). Selects with a heap of `k` when that is far fewer than the matches, so a
 * page of 20 out of 2,000 matches sorts 20.
 */
export function bestOf(matches: ScoredMatches, k: number): number[] {
  const { count, docs, scores } = matches;
  const better = (i: number, j: number): boolean => {
    const a = scores[i] ?? 0;
    const b = scores[j] ?? 0;
    return a > b || (a === b && (docs[i] ?? 0) < (docs[j] ?? 0));
  };
  const byRank = (i: number, j: number): number => (better(i, j) ? -1 : better(j, i) ? 1 : 0);
  if (k * 4 >= count) return Array.from({ length: count }, (_, i) => i).sort(byRank).slice(0, k);
  // A heap whose root is the worst of the best k so far.
  const heap: number[] = [];
  const siftDown = (at: number): void => {
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let worst = at;
      if (left < heap.length && better(heap[worst] ?? 0, heap[left] ?? 0)) worst = left;
      if (right < heap.length && better(heap[worst] ?? 0, heap[right] ?? 0)) worst = right;
      if (worst === at) return;
      [heap[at], heap[worst]] = [heap[worst] ?? 0, heap[at] ?? 0];
      at = worst;
    }
  };
  for (let i = 0; i < count; i++) {
    if (heap.length < k) {
      heap.push(i);
      for (let at = heap.length - 1; at > 0; ) {
        const parent = (at - 1) >> 1;
        if (!better(heap[parent] ?? 0, heap[at] ?? 0)) break;
        [heap[at], heap[parent]] = [heap[parent] ?? 0, heap[at] ?? 0];
        at = parent;
      }
    } else if (k > 0 && better(i, heap[0] ?? 0)) {
      heap[0] = i;
      siftDown(0);
    }
  }
  return heap.sort(byRank);
}

/** Searches remembered as seen once, for the cache's admission (see {@link createMatchCache}). */
const SEEN_KEYS = 4096;

/**
 * An LRU map of matches holding at most `budget` matches in all (a Map iterates oldest first);
 * 0 keeps none. A search is kept the second time it misses, not the first: under searches that
 * are all different, entries that would never be asked for again would otherwise churn through
 * the cache, live just long enough for V8 to move them to the old generation, and grow the heap.
 * Seen keys are held in a set of at most {@link SEEN_KEYS}, emptied when full.
 */
function createMatchCache(budget: number): { get(key: string): ScoredMatches | undefined; set(key: string, found: ScoredMatches): void } {
  const entries = new Map<string, ScoredMatches>();
  const seen = new Set<string>();
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
    set(key, found) {
      // An entry counts one match at least, so that searches without matches are bounded too.
      const size = Math.max(1, found.count);
      if (size > budget) return;
      if (!seen.has(key)) {
        if (seen.size >= SEEN_KEYS) seen.clear();
        seen.add(key);
        return;
      }
      seen.delete(key);
      // A copy (the ranker reuses its arrays), in plain arrays: on the JS heap, not a backing
      // store per entry (small backing stores, freed by the thousand, held malloc's arenas and
      // the server's resident memory up after a load).
      const matches: ScoredMatches = { count: found.count, scores: Array.from({ length: found.count }, (_, i) => found.scores[i] ?? 0), docs: Array.from({ length: found.count }, (_, i) => found.docs[i] ?? 0) };
      entries.set(key, matches);
      held += size;
      for (const [oldest, old] of entries) {
        if (held <= budget) break;
        entries.delete(oldest);
        held -= Math.max(1, old.count);
      }
    },
  };
}

/** Scores are shown with three decimals. */
const roundScore = (score: number): number => Math.round(score * 1000) / 1000;
