/** `loadout verify [id…] [--json]`: the ten checks (DESIGN.md sections 2 and 4). */
import { checkCatalogue, passed } from '../../verify/catalogue.js';
import { summariseVerification } from '../../verify/verification.js';
import { EXIT } from '../exit.js';
import { formatRunsTable, runsAsJson, type Write } from '../report.js';

/** Options of `loadout verify`. */
export interface VerifyOptions {
  root: string;
  ids: string[];
  json: boolean;
}

/** Runs the command; returns 0 when no check fails, else 1. With `--json`: `[{id, verification}]`. */
export async function verifyCommand(options: VerifyOptions, out: Write): Promise<number> {
  const runs = await checkCatalogue({ root: options.root }, options.ids);
  if (options.json) {
    const checkedAt = new Date();
    out(runsAsJson(runs, (run) => ({ verification: summariseVerification(run.results, { checkedAt, commit: 'working-tree', contentCurrent: true }) })));
  } else {
    out(formatRunsTable(runs));
  }
  return runs.every(passed) ? EXIT.ok : EXIT.failed;
}
