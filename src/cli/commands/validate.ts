/** `loadout validate [id…] [--json]`: the schema and the listing check (DESIGN.md section 2). */
import { checkCatalogue, passed } from '../../verify/catalogue.js';
import { EXIT } from '../exit.js';
import { formatDiagnostics, runsAsJson, type Write } from '../report.js';

/** Options of `loadout validate`. */
export interface ValidateOptions {
  root: string;
  ids: string[];
  json: boolean;
}

/** Runs the command; returns the exit code (0 all valid, 1 errors). */
export async function validateCommand(options: ValidateOptions, out: Write, err: Write): Promise<number> {
  const runs = await checkCatalogue({ root: options.root }, options.ids, { only: ['listing'] });
  if (options.json) {
    out(runsAsJson(runs, (run) => ({ valid: passed(run), errors: run.diagnostics })));
  } else {
    err(formatDiagnostics(runs));
    const bad = runs.filter((r) => !passed(r)).length;
    out(bad === 0 ? `${runs.length} loadout${runs.length === 1 ? '' : 's'} valid\n` : `${bad} of ${runs.length} loadouts invalid\n`);
  }
  return runs.every(passed) ? EXIT.ok : EXIT.failed;
}
