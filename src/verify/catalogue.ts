/**
 * Running the checks over a catalogue folder: the loadouts named, or all of them.
 */
import { join } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import { listLoadoutIds, readLoadoutSource, type LoadoutSource } from '../catalogue/source.js';
import { runChecks, type CheckRun, type RunChecksOptions } from './run.js';

/** Where a catalogue lives: `root` holds `loadouts/` (and `fixtures/` for starter builds). */
export interface CatalogueLocation {
  root: string;
}

/** How many loadouts are read ahead of the one being checked. */
const READ_AHEAD = 8;

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
  for (const id of wanted) {
    if (!all.includes(id)) throw new LoadoutError('usage', `loadouts/${id}: no such loadout`, { hint: `Known loadouts: ${all.join(', ') || 'none'}.` });
  }
  // Reading is I/O and checking is CPU: read a few loadouts ahead so the two overlap.
  const pending = new Map<number, Promise<LoadoutSource>>();
  const readAt = (i: number): void => {
    const id = wanted[i];
    if (id !== undefined && !pending.has(i)) {
      const read = readLoadoutSource(dir, id);
      read.catch(() => undefined); // awaited below, in order; this only keeps Node from reporting it early
      pending.set(i, read);
    }
  };
  const runs: CheckRun[] = [];
  for (let i = 0; i < wanted.length; i++) {
    for (let j = i; j < i + READ_AHEAD; j++) readAt(j);
    const source = await (pending.get(i) as Promise<LoadoutSource>);
    pending.delete(i);
    runs.push(await runChecks(source, { fixturesDir: join(location.root, 'fixtures'), ...options }));
  }
  return runs;
}

/** True when no check of the run failed. */
export const passed = (run: CheckRun): boolean => run.results.every((r) => r.status !== 'fail');
