/** `loadout verify [id…] [--json | --markdown]`: the ten checks (DESIGN.md sections 2 and 4). */
import { checkCatalogue, passed } from '../../verify/catalogue.js';
import { summariseVerification } from '../../verify/verification.js';
import { EXIT } from '../exit.js';
import { formatRunsMarkdown, formatRunsTable, runsAsJson, type Write } from '../report.js';

/** Options of `loadout verify`. */
export interface VerifyOptions {
  root: string;
  ids: string[];
  json: boolean;
  /** Print Markdown tables (for a CI job summary) instead of the terminal table. */
  markdown?: boolean;
}

/** Runs the command; returns 0 when no check fails, else 1. With `--json`: `[{id, verification}]`. */
export async function verifyCommand(options: VerifyOptions, out: Write): Promise<number> {
  const runs = await checkCatalogue({ root: options.root }, options.ids);
  if (options.json) {
    const checkedAt = new Date();
    out(runsAsJson(runs, (run) => ({ verification: summariseVerification(run.results, { checkedAt, commit: 'working-tree', contentCurrent: true }) })));
  } else if (options.markdown === true) {
    out(formatRunsMarkdown(runs));
  } else {
    out(formatRunsTable(runs));
  }
  return runs.every(passed) ? EXIT.ok : EXIT.failed;
}
