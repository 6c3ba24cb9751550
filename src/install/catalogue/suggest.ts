/**
 * "Did you mean" for an unknown loadout id: the catalogue's ids nearest to it by edit
 * distance (Levenshtein), as git and npm suggest a mistyped command.
 */

/** Edit distance between `a` and `b` (insertions, deletions, substitutions), stopping early past `max`. Pure. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    previous = current;
  }
  return previous[b.length] ?? max + 1;
}

/**
 * Up to three of `ids` near `id`: within a third of its length in edits (at least 2), or that
 * contain it or are contained in it; nearest first, then by name. Pure.
 */
export function suggestIds(id: string, ids: readonly string[]): string[] {
  const max = Math.max(2, Math.floor(id.length / 3));
  return ids
    .map((candidate) => ({ candidate, d: candidate.includes(id) || id.includes(candidate) ? 1 : distance(id, candidate, max) }))
    .filter(({ candidate, d }) => d <= max && candidate !== id)
    .sort((a, b) => a.d - b.d || (a.candidate < b.candidate ? -1 : 1))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}
