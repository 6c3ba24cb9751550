/**
 * "Did you mean" for an unknown loadout id: the catalogue's ids nearest to it by edit
 * distance (Levenshtein, fastest-levenshtein), as git and npm suggest a mistyped command: for
 * the installer's unknown loadout ids and agents and the bundle checks' unknown members.
 */
import { distance } from 'fastest-levenshtein';

/**
 * Up to three of `ids` near `id`: within a third of its length in edits (at least 2), or that
 * contain it or are contained in it; nearest first, then by name. Pure.
 */
export function suggestIds(id: string, ids: readonly string[]): string[] {
  const max = Math.max(2, Math.floor(id.length / 3));
  return ids
    .map((candidate) => ({ candidate, d: candidate.includes(id) || id.includes(candidate) ? 1 : distance(id, candidate) }))
    .filter(({ candidate, d }) => d <= max && candidate !== id)
    .sort((a, b) => a.d - b.d || (a.candidate < b.candidate ? -1 : 1))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}
