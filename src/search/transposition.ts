/**
 * Typo tolerance for a swapped pair of letters (`pyhton`): an adjacent transposition is one
 * edit (Damerau's definition, as in the optimal string alignment distance), while the fuzzy
 * matching of MiniSearch and of `ranker.ts` counts edits as Levenshtein does, where a
 * transposition is two. A query word of at least `fuzzyMinLength` characters that is not a
 * word of the index is followed, in the query, by each word of the index that it becomes by
 * swapping two adjacent characters, weighted as a one-edit fuzzy match
 * (`weights.fuzzy × length / (length + 1)`, MiniSearch's fuzzy weight at distance 1).
 *
 * The server (`engine.ts`, through `ranker.ts`'s term boosts) and the pages (`client-script.ts`
 * embeds {@link addTranspositions} as its source, and passes the boosts as MiniSearch's
 * `boostTerm`) run this one function, so both rank a transposed query alike.
 */

/** Query terms with the transposition corrections, and the boost of each added word. */
export interface TransposedTerms {
  terms: string[];
  /** Added word → its weight (every other term weighs 1). */
  boosts: Map<string, number>;
}

/**
 * `terms` with, after each unknown term of `minLength` or more UTF-16 units, the known words
 * one adjacent transposition away (in the order of the swapped position), skipping words the
 * query already has. Pure and self-contained (no imports, no outer names): its source is
 * copied into the pages' script.
 * @param known whether a word is a term of the index
 * @param minLength `fuzzyMinLength` of the settings
 * @param fuzzyWeight `weights.fuzzy` of the settings
 */
export function addTranspositions(terms: readonly string[], known: (term: string) => boolean, minLength: number, fuzzyWeight: number): TransposedTerms {
  const out: string[] = [];
  const boosts = new Map<string, number>();
  const present = new Set(terms);
  for (const term of terms) {
    out.push(term);
    if (term.length < minLength || known(term)) continue;
    for (let i = 0; i + 1 < term.length; i++) {
      if (term.charAt(i) === term.charAt(i + 1)) continue;
      const swapped = term.slice(0, i) + term.charAt(i + 1) + term.charAt(i) + term.slice(i + 2);
      if (present.has(swapped) || !known(swapped)) continue;
      present.add(swapped);
      out.push(swapped);
      boosts.set(swapped, (fuzzyWeight * swapped.length) / (swapped.length + 1));
    }
  }
  return { terms: out, boosts };
}
