/** `loadout validate [id…] [--json]`: the schema and the listing check, and the bundles' checks (DESIGN.md section 2; issue 56). */
import { checkBundles } from '../../tree/bundles/check-bundles.js';
import type { ReadBundle } from '../../bundles/read.js';
import { checkCatalogue, passed } from '../../verify/catalogue.js';
import { bundlePassed, bundlesAsJson, formatBundleDiagnostics, splitCheckedIds } from '../bundles-report.js';
import { EXIT } from '../exit.js';
import { formatDiagnostics, runsAsJson, type Write } from '../report.js';

/** Options of `loadout validate`. */
export interface ValidateOptions {
  root: string;
  /** Loadout or bundle ids (none: every loadout and every bundle). */
  ids: string[];
  json: boolean;
}

/** Runs the command; returns the exit code (0 all valid, 1 errors). With `--json`: `[{id, valid, errors}]`, a bundle's with `kind: "bundle"`. */
export async function validateCommand(options: ValidateOptions, out: Write, err: Write): Promise<number> {
  const ids = await splitCheckedIds(options.root, options.ids);
  const runs = ids.loadouts === null ? [] : await checkCatalogue({ root: options.root }, ids.loadouts, { only: ['listing'] });
  const bundles: ReadBundle[] = ids.bundles === null ? [] : await checkBundles(options.root, ids.bundles);
  if (options.json) {
    const loadouts = JSON.parse(runsAsJson(runs, (run) => ({ valid: passed(run), errors: run.diagnostics }))) as unknown[];
    out(`${JSON.stringify([...loadouts, ...bundlesAsJson(bundles)], null, 2)}\n`);
  } else {
    err(formatDiagnostics(runs) + formatBundleDiagnostics(bundles));
    const bad = runs.filter((r) => !passed(r)).length;
    const badBundles = bundles.filter((b) => !bundlePassed(b)).length;
    const loadoutLine = runs.length === 0 ? '' : bad === 0 ? `${runs.length} loadout${runs.length === 1 ? '' : 's'} valid` : `${bad} of ${runs.length} loadouts invalid`;
    const bundleLine = bundles.length === 0 ? '' : badBundles === 0 ? `${bundles.length} bundle${bundles.length === 1 ? '' : 's'} valid` : `${badBundles} of ${bundles.length} bundles invalid`;
    out(`${[loadoutLine, bundleLine].filter((l) => l !== '').join(', ') || '0 loadouts valid'}\n`);
  }
  return runs.every(passed) && bundles.every(bundlePassed) ? EXIT.ok : EXIT.failed;
}
