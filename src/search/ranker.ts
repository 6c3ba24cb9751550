/**
 * BM25+ ranking over the binary index (DESIGN.md sections 5 and 7), computing what MiniSearch
 * 7.2's `search` computes for the options that `engine.ts` used to pass it (`combineWith: 'OR'`,
 * the `prefix` and `fuzzy` rules of `settings.ts`, field `boost`, `weights`, `bm25`, the document
 * boosts), so the server ranks exactly as the pages' MiniSearch does over the same index:
 *
 *   score(doc) = quality × Σ over query terms, Σ over the terms each one reaches (itself; with
 *                prefix, the words it starts; with fuzzy, the words within the edit distance),
 *                Σ over fields: weight × fieldBoost × docBoost × BM25+(tf, df, fieldLength)
 *
 * where quality is the number of distinct query terms that reached the document, a prefix
 * word weighs `weights.prefix × len / (len + 0.3 × extra letters)` and a fuzzy one
 * `weights.fuzzy × len / (len + distance)` (a word reached both ways counts as a prefix word).
 * Each product is formed in MiniSearch's order, so scores agree bit for bit except where
 * several prefix or fuzzy words are summed for one document: MiniSearch adds them in the order
 * of its radix tree, this code in sorted order (a difference in the last bits, far below the
 * three decimals shown). `test/search/ranker.test.ts` compares the two.
 *
 * Postings are typed arrays and scores accumulate in arrays indexed by document, reused from
 * one query to the next: nothing is allocated per posting.
 */
import type { RankingIndex } from './ranking-file.js';
import { DOC_FLAG } from './ranking-file.js';
import { documentBoostOf, fuzzyRule, prefixRule } from './settings.js';

/**
 * The matches of one query, unsorted: `docs[i]` has `scores[i]` for i below `count`. The arrays
 * are reused by the next call: read them before ranking again.
 */
export interface Matches {
  count: number;
  docs: Int32Array;
  scores: Float64Array;
}

/**
 * Ranks query terms (already processed by `queryTerms`); `keep` filters documents; `boosts`
 * weighs a term's matches (MiniSearch's `boostTerm`; a term not in it weighs 1).
 */
export type Ranker = (terms: readonly string[], keep: (doc: number) => boolean, boosts?: ReadonlyMap<string, number>) => Matches;

/** MiniSearch's `maxFuzzy`, the bound on a fractional `fuzzyDistance`. */
const MAX_FUZZY = 6;

/** Builds the ranker of `index` (its arrays: about 40 bytes a document and 8 a document field). */
export function createRanker(index: RankingIndex): Ranker {
  const { settings, terms, termPairs, pairField, pairPostings, postingDocs, postingFreqs, fieldLengths, averageFieldLength, docFlags } = index;
  const documents = index.documents;
  const fieldCount = settings.fields.length;
  const totalCount = index.documentCount;
  const { k, b, d: delta } = settings.bm25;
  // MiniSearch merges the weights over its defaults, and a field without a boost counts 1.
  const prefixWeight = settings.weights.prefix ?? 0.375;
  const fuzzyWeight = settings.weights.fuzzy ?? 0.45;
  const fieldBoost = Float64Array.from(settings.fields, (f) => (Object.hasOwn(settings.boost, f) ? settings.boost[f] : 0) || 1);
  const docBoost = Float64Array.from({ length: documents }, (_, d) => {
    const flags = docFlags[d] ?? 0;
    return documentBoostOf(settings, { featured: (flags & DOC_FLAG.featured) !== 0, verified: (flags & DOC_FLAG.verified) !== 0, deprecated: (flags & DOC_FLAG.deprecated) !== 0 });
  });
  const known = (term: string): boolean => findTerm(terms, term) >= 0;
  const prefixOf = prefixRule(settings, known);
  const fuzzyOf = fuzzyRule(settings, known);
  let fuzzyIndex: FuzzyIndex | undefined;

  // Scratch, per document: the score of the current query term and of the whole query, the
  // number of distinct query terms matched, and stamps saying which query or term wrote them.
  const termScore = new Float64Array(documents);
  const termStamp = new Uint32Array(documents);
  const total = new Float64Array(documents);
  const totalStamp = new Uint32Array(documents);
  const quality = new Uint16Array(documents);
  const termTouched = new Int32Array(documents);
  const touched = new Int32Array(documents);
  const out: Matches = { count: 0, docs: new Int32Array(documents), scores: new Float64Array(documents) };
  let stamp = 0;
  const nextStamp = (): number => {
    if (stamp === 0xffffffff) {
      stamp = 0;
      termStamp.fill(0);
      totalStamp.fill(0);
    }
    return ++stamp;
  };

  // MiniSearch's BM25+ length normalisation of each document's field, `k × (1 − b + b × length / average)`:
  // the same operations, done once here instead of once per posting.
  const norm = new Float64Array(documents * fieldCount);
  for (let doc = 0; doc < documents; doc++) {
    for (let field = 0; field < fieldCount; field++) {
      norm[doc * fieldCount + field] = k * (1 - b + (b * (fieldLengths[doc * fieldCount + field] ?? 0)) / (averageFieldLength[field] ?? 1));
    }
  }
  const k1 = k + 1;

  let termCount = 0;
  let termStampNow = 0;
  /** Adds the postings of `term` (a term number) with `weight` to the current query term's scores. */
  const score = (term: number, weight: number): void => {
    for (let p = termPairs[term] ?? 0, pEnd = termPairs[term + 1] ?? 0; p < pEnd; p++) {
      const field = pairField[p] ?? 0;
      const from = pairPostings[p] ?? 0;
      const to = pairPostings[p + 1] ?? 0;
      const matchingCount = to - from;
      // MiniSearch's calcBM25Score and weighting, term for term (the same operations in the same order).
      const invDocFreq = Math.log(1 + (totalCount - matchingCount + 0.5) / (matchingCount + 0.5));
      const weightedBoost = weight * (fieldBoost[field] ?? 1);
      for (let i = from; i < to; i++) {
        const doc = postingDocs[i] ?? 0;
        const termFreq = postingFreqs[i] ?? 0;
        const rawScore = invDocFreq * (delta + (termFreq * k1) / (termFreq + (norm[doc * fieldCount + field] ?? 0)));
        const weighted = weightedBoost * (docBoost[doc] ?? 1) * rawScore;
        if (termStamp[doc] === termStampNow) {
          termScore[doc] = (termScore[doc] ?? 0) + weighted;
        } else {
          termStamp[doc] = termStampNow;
          termScore[doc] = weighted;
          termTouched[termCount++] = doc;
        }
      }
    }
  };

  return (queryTerms, keep, boosts) => {
    const queryStamp = nextStamp();
    let touchedCount = 0;
    // Documents already counted for a query term that appears more than once.
    const repeated = new Map<string, Set<number>>();
    queryTerms.forEach((queryTerm, i) => {
      if (queryTerms.indexOf(queryTerm) !== i || queryTerms.lastIndexOf(queryTerm) !== i) repeated.set(queryTerm, repeated.get(queryTerm) ?? new Set());
    });

    queryTerms.forEach((queryTerm, i) => {
      termStampNow = nextStamp();
      termCount = 0;
      // MiniSearch's termWeight × termBoost, in its order (× 1 changes nothing).
      const boost = boosts?.get(queryTerm) ?? 1;
      const exact = findTerm(terms, queryTerm);
      if (exact >= 0) score(exact, 1 * boost);
      const prefix = prefixOf(queryTerm, i, queryTerms as string[]);
      if (prefix) {
        for (let t = exact >= 0 ? exact + 1 : lowerBound(terms, queryTerm); t < terms.length && (terms[t] as string).startsWith(queryTerm); t++) {
          const length = (terms[t] as string).length;
          score(t, ((prefixWeight * length) / (length + 0.3 * (length - queryTerm.length))) * boost);
        }
      }
      const fuzzy = fuzzyOf(queryTerm);
      const maxDistance = fuzzy === false ? 0 : fuzzy < 1 ? Math.min(MAX_FUZZY, Math.round(queryTerm.length * fuzzy)) : fuzzy;
      if (maxDistance > 0) {
        fuzzyIndex ??= createFuzzyIndex(terms);
        for (const [t, distance] of fuzzyIndex.matches(queryTerm, maxDistance)) {
          if (distance === 0 || (prefix && (terms[t] as string).startsWith(queryTerm))) continue;
          const length = (terms[t] as string).length;
          score(t, ((fuzzyWeight * length) / (length + distance)) * boost);
        }
      }

      // OR: add this term's scores to the query's (MiniSearch's `existing.score + score`).
      const seen = repeated.get(queryTerm);
      for (let j = 0; j < termCount; j++) {
        const doc = termTouched[j] ?? 0;
        const counts = seen === undefined || !seen.has(doc);
        seen?.add(doc);
        if (totalStamp[doc] === queryStamp) {
          total[doc] = (total[doc] ?? 0) + (termScore[doc] ?? 0);
          if (counts) quality[doc] = (quality[doc] ?? 0) + 1;
        } else {
          totalStamp[doc] = queryStamp;
          total[doc] = termScore[doc] ?? 0;
          quality[doc] = 1;
          touched[touchedCount++] = doc;
        }
      }
    });

    let count = 0;
    for (let j = 0; j < touchedCount; j++) {
      const doc = touched[j] ?? 0;
      if (!keep(doc)) continue;
      out.docs[count] = doc;
      out.scores[count] = (total[doc] ?? 0) * (quality[doc] ?? 1);
      count++;
    }
    out.count = count;
    return out;
  };
}

/** The place of `term` in the sorted `terms`, or -1. */
export function findTerm(terms: readonly string[], term: string): number {
  const at = lowerBound(terms, term);
  return terms[at] === term ? at : -1;
}

/** The first place whose term is not below `term` (UTF-16 code unit order). */
function lowerBound(terms: readonly string[], term: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((terms[mid] as string) < term) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Finds the terms near a query term. Built on the first fuzzy query (a few ms at 20,000 terms). */
interface FuzzyIndex {
  /**
   * The terms within `maxDistance` Levenshtein edits (insertions, deletions, substitutions of
   * UTF-16 units, as MiniSearch's `fuzzyGet`) of `query`, as [term number, distance], in sorted order.
   */
  matches(query: string, maxDistance: number): [number, number][];
}

function createFuzzyIndex(terms: readonly string[]): FuzzyIndex {
  // Term numbers by length: `byLength[start[n]]` to `byLength[start[n + 1]]` have n units.
  const longest = terms.reduce((max, t) => Math.max(max, t.length), 0);
  const start = new Int32Array(longest + 2);
  for (const t of terms) start[t.length + 1] = (start[t.length + 1] ?? 0) + 1;
  for (let n = 1; n < start.length; n++) start[n] = (start[n] ?? 0) + (start[n - 1] ?? 0);
  const next = start.slice();
  const byLength = new Int32Array(terms.length);
  terms.forEach((t, i) => {
    byLength[next[t.length] ?? 0] = i;
    next[t.length] = (next[t.length] ?? 0) + 1;
  });
  // The terms written backwards, sorted, with their numbers: terms that end alike are neighbours.
  const reversedOrder = terms.map((t, i) => [reverse(t), i] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const reversed = reversedOrder.map(([r]) => r);
  const reversedTerm = Int32Array.from(reversedOrder, ([, i]) => i);
  const previous = new Uint8Array(256);
  const current = new Uint8Array(256);

  /** Every term of length `lowest` to `highest` compared with the query (any distance). */
  const scan = (query: string, maxDistance: number): [number, number][] => {
    const found: [number, number][] = [];
    const rows = query.length + 1 > previous.length ? [new Uint8Array(query.length + 1), new Uint8Array(query.length + 1)] : [previous, current];
    for (let n = Math.max(0, query.length - maxDistance); n <= Math.min(longest, query.length + maxDistance); n++) {
      for (let j = start[n] ?? 0, end = start[n + 1] ?? 0; j < end; j++) {
        const t = byLength[j] ?? 0;
        const distance = editDistance(query, terms[t] as string, maxDistance, rows[0] as Uint8Array, rows[1] as Uint8Array);
        if (distance <= maxDistance) found.push([t, distance]);
      }
    }
    return found;
  };

  /**
   * One edit at most: a term within one edit either starts with the query's first unit (the
   * edit is later: one range of the sorted terms) or differs there, and then the rest of it
   * is the query without its first unit (a deletion), the query's rest after another first
   * unit (a substitution) or the whole query after one more unit (an insertion): the last two
   * are ranges of the reversed terms.
   */
  const near = (query: string): [number, number][] => {
    const candidates = new Set<number>();
    const first = query.charCodeAt(0);
    for (let t = lowerBound(terms, query.charAt(0)), end = first === 0xffff ? terms.length : lowerBound(terms, String.fromCharCode(first + 1)); t < end; t++) {
      if (Math.abs((terms[t] as string).length - query.length) <= 1) candidates.add(t);
    }
    const deleted = findTerm(terms, query.slice(1));
    if (deleted >= 0) candidates.add(deleted);
    for (const [ending, length] of [[reverse(query.slice(1)), query.length], [reverse(query), query.length + 1]] as const) {
      for (let r = lowerBound(reversed, ending); r < reversed.length && (reversed[r] as string).startsWith(ending); r++) {
        if ((reversed[r] as string).length === length) candidates.add(reversedTerm[r] ?? 0);
      }
    }
    const found: [number, number][] = [];
    for (const t of candidates) {
      const distance = editDistance(query, terms[t] as string, 1, previous, current);
      if (distance <= 1) found.push([t, distance]);
    }
    return found;
  };

  return {
    matches: (query, maxDistance) => (query.length > 0 && maxDistance === 1 ? near(query) : scan(query, maxDistance)).sort((x, y) => x[0] - y[0]),
  };
}

const reverse = (text: string): string => {
  let out = '';
  for (let i = text.length - 1; i >= 0; i--) out += text.charAt(i);
  return out;
};

/** Levenshtein distance of `a` and `b`, or `max + 1` once it must exceed `max` (rows of `a.length + 1`, reused). */
function editDistance(a: string, b: string, max: number, previous: Uint8Array, current: Uint8Array): number {
  // One edit at most (the default): a linear comparison instead of the matrix.
  if (max === 1) {
    if (a.length === b.length) {
      let differences = 0;
      for (let i = 0; i < a.length && differences <= 1; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) differences++;
      return differences;
    }
    // One insertion: skip the common start, then the rest of the longer word, one unit on, must equal the rest of the shorter.
    const [short, long] = a.length < b.length ? [a, b] : [b, a];
    if (long.length - short.length !== 1) return 2;
    let i = 0;
    while (i < short.length && short.charCodeAt(i) === long.charCodeAt(i)) i++;
    for (; i < short.length; i++) if (short.charCodeAt(i) !== long.charCodeAt(i + 1)) return 2;
    return 1;
  }
  let prev = previous;
  let curr = current;
  for (let j = 0; j <= a.length; j++) prev[j] = Math.min(j, 255);
  for (let i = 1; i <= b.length; i++) {
    curr[0] = Math.min(i, 255);
    let rowMin = curr[0] ?? 0;
    const code = b.charCodeAt(i - 1);
    for (let j = 1; j <= a.length; j++) {
      const substitution = (prev[j - 1] ?? 0) + (a.charCodeAt(j - 1) === code ? 0 : 1);
      const value = Math.min(substitution, (prev[j] ?? 0) + 1, (curr[j - 1] ?? 0) + 1, 255);
      curr[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [prev, curr] = [curr, prev];
  }
  return prev[a.length] ?? max + 1;
}
