/**
 * BM25+ ranking over the binary index (issue 13), computing what MiniSearch 7.2's `search`
 * computes for the options that `engine.ts` used to pass it (`combineWith: 'OR'`, the
 * `prefix` and `fuzzy` rules of `settings.ts`, field `boost`, `weights`, `bm25`, the document
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

/** Ranks query terms (already processed by `queryTerms`); `keep` filters documents. */
export type Ranker = (terms: readonly string[], keep: (doc: number) => boolean) => Matches;

/** MiniSearch's `maxFuzzy`, the bound on a fractional `fuzzyDistance`. */
const MAX_FUZZY = 6;

/** Builds the ranker of `index` (its scratch arrays: about 40 bytes a document). */
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
  const byLength = termsByLength(terms);

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

  let termCount = 0;
  let termStampNow = 0;
  /** Adds the postings of `term` (a term number) with `weight` to the current query term's scores. */
  const score = (term: number, weight: number): void => {
    for (let p = termPairs[term] ?? 0, pEnd = termPairs[term + 1] ?? 0; p < pEnd; p++) {
      const field = pairField[p] ?? 0;
      const from = pairPostings[p] ?? 0;
      const to = pairPostings[p + 1] ?? 0;
      const matchingCount = to - from;
      const avgFieldLength = averageFieldLength[field] ?? 1;
      const boost = fieldBoost[field] ?? 1;
      // MiniSearch's calcBM25Score, term for term (the same operations in the same order).
      const invDocFreq = Math.log(1 + (totalCount - matchingCount + 0.5) / (matchingCount + 0.5));
      for (let i = from; i < to; i++) {
        const doc = postingDocs[i] ?? 0;
        const termFreq = postingFreqs[i] ?? 0;
        const fieldLength = fieldLengths[doc * fieldCount + field] ?? 0;
        const rawScore = invDocFreq * (delta + (termFreq * (k + 1)) / (termFreq + k * (1 - b + (b * fieldLength) / avgFieldLength)));
        const weighted = weight * boost * (docBoost[doc] ?? 1) * rawScore;
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

  return (queryTerms, keep) => {
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
      const exact = findTerm(terms, queryTerm);
      if (exact >= 0) score(exact, 1);
      const prefix = prefixOf(queryTerm, i, queryTerms as string[]);
      if (prefix) {
        for (let t = exact >= 0 ? exact + 1 : lowerBound(terms, queryTerm); t < terms.length && (terms[t] as string).startsWith(queryTerm); t++) {
          const length = (terms[t] as string).length;
          score(t, (prefixWeight * length) / (length + 0.3 * (length - queryTerm.length)));
        }
      }
      const fuzzy = fuzzyOf(queryTerm);
      const maxDistance = fuzzy === false ? 0 : fuzzy < 1 ? Math.min(MAX_FUZZY, Math.round(queryTerm.length * fuzzy)) : fuzzy;
      if (maxDistance > 0) {
        for (const [t, distance] of fuzzyMatches(terms, byLength, queryTerm, maxDistance)) {
          if (distance === 0 || (prefix && (terms[t] as string).startsWith(queryTerm))) continue;
          const length = (terms[t] as string).length;
          score(t, (fuzzyWeight * length) / (length + distance));
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

/** Term numbers grouped by length: `order[start[n]]` to `order[start[n + 1]]` have n UTF-16 units, in sorted order. */
interface LengthIndex {
  order: Int32Array;
  start: Int32Array;
}

function termsByLength(terms: readonly string[]): LengthIndex {
  const longest = terms.reduce((max, t) => Math.max(max, t.length), 0);
  const start = new Int32Array(longest + 2);
  for (const t of terms) start[t.length + 1] = (start[t.length + 1] ?? 0) + 1;
  for (let n = 1; n < start.length; n++) start[n] = (start[n] ?? 0) + (start[n - 1] ?? 0);
  const next = start.slice();
  const order = new Int32Array(terms.length);
  terms.forEach((t, i) => {
    order[next[t.length] ?? 0] = i;
    next[t.length] = (next[t.length] ?? 0) + 1;
  });
  return { order, start };
}

/**
 * The terms within `maxDistance` Levenshtein edits (insertions, deletions, substitutions of
 * UTF-16 units, as MiniSearch's `fuzzyGet`) of `query`, as [term number, distance], in sorted
 * order. Only terms whose length is within `maxDistance` of the query's are compared.
 */
function fuzzyMatches(terms: readonly string[], byLength: LengthIndex, query: string, maxDistance: number): [number, number][] {
  const found: [number, number][] = [];
  const lowest = Math.max(0, query.length - maxDistance);
  const highest = Math.min(byLength.start.length - 2, query.length + maxDistance);
  const previous = new Uint8Array(query.length + 1);
  const current = new Uint8Array(query.length + 1);
  for (let n = lowest; n <= highest; n++) {
    for (let j = byLength.start[n] ?? 0, end = byLength.start[n + 1] ?? 0; j < end; j++) {
      const t = byLength.order[j] ?? 0;
      const distance = editDistance(query, terms[t] as string, maxDistance, previous, current);
      if (distance <= maxDistance) found.push([t, distance]);
    }
  }
  return found.sort((x, y) => x[0] - y[0]);
}

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
