/**
 * "Did you mean": for a search that found nothing, up to three loadout ids, stacks or
 * categories closest to what was typed. Closeness is the optimal string alignment distance
 * (Levenshtein's insertions, deletions and substitutions, plus Damerau's adjacent
 * transposition as one edit), between the candidate and either the whole query written as a
 * slug (`next js` → `next-js`) or one of its words, allowing 1 edit for up to 4 characters,
 * 2 for up to 8 and 3 beyond. A candidate equal to what was typed is no suggestion.
 *
 * The server (`engine.ts`, the `suggestions` of a search response) and the pages
 * (`client-script.ts` copies {@link suggestSearches}'s source into `assets/search.js`) run
 * this one function over the same candidates, so both suggest the same words.
 */

/** What a suggestion names. */
export type SuggestionKind = 'id' | 'stack' | 'category';

/** One suggestion: a loadout id, a stack or a category. */
export interface Suggestion {
  kind: SuggestionKind;
  value: string;
}

/** At most this many suggestions. */
export const MAX_SUGGESTIONS = 3;

/**
 * The closest `candidates` to `q`, best first (fewest edits, then ids before stacks before
 * categories, then by value), at most `limit`, each value once. Pure and self-contained (no
 * imports, no outer names): its source is copied into the pages' script.
 */
export function suggestSearches(q: string, candidates: readonly Suggestion[], limit: number): Suggestion[] {
  /** The edits between `a` and `b`, or `max + 1` once they must be more than `max`. */
  function editsBetween(a: string, b: string, max: number): number {
    if (Math.abs(a.length - b.length) > max) return max + 1;
    let older: number[] = [];
    let previous: number[] = [];
    for (let j = 0; j <= b.length; j++) previous.push(j);
    for (let i = 1; i <= a.length; i++) {
      const row = [i];
      let rowMin = i;
      for (let j = 1; j <= b.length; j++) {
        const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
        let value = Math.min((previous[j - 1] ?? 0) + cost, (previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1);
        if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) value = Math.min(value, (older[j - 2] ?? 0) + 1);
        row.push(value);
        if (value < rowMin) rowMin = value;
      }
      // A transposition reaches back two rows: stop only when neither row can come back under max.
      const previousMin = Math.min(...previous);
      if (rowMin > max && previousMin >= max) return max + 1;
      older = previous;
      previous = row;
    }
    return previous[b.length] ?? max + 1;
  }
  const order: Record<string, number> = { id: 0, stack: 1, category: 2 };
  const words = q.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
  const probes = [...new Set([words.join('-'), ...words])].filter((p) => p.length >= 2);
  if (probes.length === 0) return [];
  const scored: { suggestion: Suggestion; edits: number }[] = [];
  for (const candidate of candidates) {
    let best = Infinity;
    let exact = false;
    for (const probe of probes) {
      const max = probe.length <= 4 ? 1 : probe.length <= 8 ? 2 : 3;
      const edits = editsBetween(probe, candidate.value, max);
      if (edits === 0) exact = true;
      else if (edits <= max && edits < best) best = edits;
    }
    if (!exact && best !== Infinity) scored.push({ suggestion: { kind: candidate.kind, value: candidate.value }, edits: best });
  }
  scored.sort((x, y) => x.edits - y.edits || (order[x.suggestion.kind] ?? 3) - (order[y.suggestion.kind] ?? 3) || (x.suggestion.value < y.suggestion.value ? -1 : x.suggestion.value > y.suggestion.value ? 1 : 0));
  const out: Suggestion[] = [];
  const seen = new Set<string>();
  for (const { suggestion } of scored) {
    if (out.length >= limit) break;
    if (seen.has(suggestion.value)) continue;
    seen.add(suggestion.value);
    out.push(suggestion);
  }
  return out;
}
