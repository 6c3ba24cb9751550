/**
 * Running the checks over a catalogue folder: the loadouts named, or all of them.
 */
import { join } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import { listLoadoutIds, readLoadoutSource } from '../catalogue/source.js';
import { runChecks, type CheckRun, type RunChecksOptions } from './run.js';

/** Where a catalogue lives: `root` holds `loadouts/` (and `fixtures/` for starter builds). */
export interface CatalogueLocation {
  root: string;
}

/** `<root>/loadouts`. */
export const loadoutsDirOf = (root: string): string => join(root, 'loadouts');

/**
 * Reads and checks the loadouts `ids` (all when empty), in id order.
 * @throws LoadoutError `not_found` for an id with no folder, or when there is no `loadouts/`.
 */
export async function checkCatalogue(location: CatalogueLocation, ids: readonly string[], options: RunChecksOptions = {}): Promise<CheckRun[]> {
  const dir = loadoutsDirOf(location.root);
  const all = await listLoadoutIds(dir);
  const wanted = ids.length === 0 ? all : [...ids];
  const known = new Set(all);
  for (const id of wanted) {
    if (!known.has(id)) throw new LoadoutError('usage', `loadouts/${id}: no such loadout`, { hint: `Known loadouts: ${all.join(', ') || 'none'}.` });
  }
  const runOptions: RunChecksOptions = { fixturesDir: join(location.root, 'fixtures'), ...options };
  const runs: CheckRun[] = [];
  for (const id of wanted) runs.push(await runChecks(await readLoadoutSource(dir, id), runOptions));
  return runs;
}

/** True when no check of the run failed. */
export const passed = (run: CheckRun): boolean => run.results.every((r) => r.status !== 'fail');
