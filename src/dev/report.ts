/**
 * What `loadout dev` tells an author after each build (issue 37: "the terminal and the page
 * show the check findings and the context cost per agent"): per loadout that changed, its
 * checks (spec "Verification": `{id, name, status, summary, details}`, details naming file and
 * line) and, when it was built, its context cost per agent (the record's `context`, DESIGN.md
 * section 8). The same report goes to the terminal and, as JSON, to the pages.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Agent } from '../catalogue/vocabulary.js';
import type { ContextCost, PublishedRecord } from '../tree-format/record.js';
import type { CheckResult } from '../tree-format/verification.js';
import type { BuildResult } from '../tree/build.js';

/** One changed loadout: built (its record was written), refused (a check failed: nothing was written) or removed (its folder is gone). */
export interface LoadoutReport {
  id: string;
  state: 'built' | 'refused' | 'removed';
  /** Its checks in run order; empty when removed. */
  checks: CheckResult[];
  /** Context cost per agent, when built. */
  context?: Record<Agent, ContextCost>;
}

/** One build of a dev session. */
export interface DevReport {
  /** ISO 8601 UTC time the build ended. */
  at: string;
  /** Milliseconds from the first change seen to the build's end (the initial build: from the start). */
  ms: number;
  /** True when the tree was written (and open pages reload). */
  written: boolean;
  /** The loadouts it was asked about, with what happened to each. */
  loadouts: LoadoutReport[];
  /** The build's warnings, and an error that stopped it (e.g. git failing), as text. */
  warnings: string[];
}

/**
 * The reports of `ids` after `result`: a refused loadout's checks from its run, a built one's
 * checks and context cost from the record written at `<treeDir>/api/loadouts/<id>.json`, and a
 * loadout neither built nor refused as removed. Reads the records; a record that cannot be read
 * is reported as built with no checks.
 */
export async function reportLoadouts(ids: Iterable<string>, result: BuildResult, treeDir: string | undefined): Promise<LoadoutReport[]> {
  const refused = new Map(result.runs.map((run) => [run.source.id, run]));
  const built = new Set(result.loadouts.map((l) => l.id));
  return Promise.all(
    [...new Set(ids)].sort().map(async (id): Promise<LoadoutReport> => {
      const run = refused.get(id);
      if (run !== undefined) return { id, state: 'refused', checks: run.results };
      if (result.refused.includes(id)) return { id, state: 'refused', checks: [] };
      if (!built.has(id) || treeDir === undefined) return { id, state: result.written ? 'removed' : 'built', checks: [] };
      try {
        const record = JSON.parse(await readFile(join(treeDir, 'api', 'loadouts', `${id}.json`), 'utf8')) as Pick<PublishedRecord, 'verification' | 'context'>;
        return { id, state: 'built', checks: record.verification.checks, context: record.context };
      } catch {
        return { id, state: 'built', checks: [] };
      }
    }),
  );
}
