/**
 * Running the checks over a catalogue folder: the loadouts named, or all of them.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import { listLoadoutIds, loadoutsDirOf, readLoadoutSource } from '../catalogue/source.js';
import { mapConcurrent } from '../concurrency.js';
import { checksBudgetMs } from './budget.js';
import { runChecks, type CheckRun, type RunChecksOptions } from './run.js';
import { CredentialScanner } from './safety/credential-scanner.js';

/** Where a catalogue lives: `root` holds `loadouts/` (and `fixtures/` for starter builds). */
export interface CatalogueLocation {
  root: string;
}

/**
 * Reads and checks the loadouts `ids` (all when empty); results in id order. From
 * {@link SCANNER_FROM} loadouts on, the credential scan runs on a worker thread. Each
 * loadout's checks have the time budget `options.budgetMs`, by default `LOADOUT_CHECKS_BUDGET_MS`
 * (budget.ts): past it, the loadout gets a failing check that names the check and file.
 * @throws LoadoutError `not_found` for an id with no folder, or when there is no `loadouts/`;
 *   `config` for a bad `LOADOUT_CHECKS_BUDGET_MS`.
 */
export async function checkCatalogue(location: CatalogueLocation, ids: readonly string[], options: RunChecksOptions = {}): Promise<CheckRun[]> {
  const dir = loadoutsDirOf(location.root);
  const all = await listLoadoutIds(dir);
  const wanted = ids.length === 0 ? all : [...ids];
  const known = new Set(all);
  for (const id of wanted) {
    if (!known.has(id)) throw new LoadoutError('usage', `loadouts/${id}: no such loadout`, { hint: `Known loadouts: ${all.join(', ') || 'none'}.` });
  }
  const budgetMs = options.budgetMs ?? checksBudgetMs();
  // A large run scans for credentials on a second core, and keeps several loadouts in flight
  // so that this thread checks the next ones while a scan runs there.
  const scanner = options.scanCredentials === undefined && wanted.length >= SCANNER_FROM && (options.only?.includes('safety') ?? true) && availableParallelism() > 1 ? new CredentialScanner() : undefined;
  const runOptions: RunChecksOptions = { fixturesDir: join(location.root, 'fixtures'), ...(scanner === undefined ? {} : { scanCredentials: scanner.scan }), ...options, budgetMs };
  try {
    return await mapConcurrent(wanted, scanner === undefined ? 1 : IN_FLIGHT, async (id) => {
      // The checks never wait for I/O, so without this the worker's messages would wait for the end.
      if (scanner !== undefined) await new Promise((resolve) => setImmediate(resolve));
      return runChecks(await readLoadoutSource(dir, id), runOptions);
    });
  } finally {
    await scanner?.close();
  }
}

/** Loadouts from which a credential scan worker pays for its start (a thread that loads secretlint). */
const SCANNER_FROM = 32;
/** Loadouts checked at once when scans run on the worker: enough for this thread to go on while the worker starts. */
const IN_FLIGHT = 32;

/** True when no check of the run failed. */
export const passed = (run: CheckRun): boolean => run.results.every((r) => r.status !== 'fail');
