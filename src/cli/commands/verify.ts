/** `loadout verify [id…] [--json | --markdown]`: the ten checks, and the bundles' checks (DESIGN.md sections 2 and 4; issue 56). */
import type { ReadBundle } from '../../bundles/read.js';
import { checkBundles } from '../../tree/bundles/check-bundles.js';
import { checkCatalogue, passed } from '../../verify/catalogue.js';
import { summariseVerification } from '../../verify/verification.js';
import { bundlePassed, bundlesAsJson, formatBundlesMarkdown, formatBundlesTable, splitCheckedIds } from '../bundles-report.js';
import { EXIT } from '../exit.js';
import { formatRunsMarkdown, formatRunsTable, runsAsJson, type Write } from '../report.js';

/** Options of `loadout verify`. */
export interface VerifyOptions {
  root: string;
  /** Loadout or bundle ids (none: every loadout and every bundle). */
  ids: string[];
  json: boolean;
  /** Print Markdown tables (for a CI job summary) instead of the terminal table. */
  markdown?: boolean;
}

/** Runs the command; returns 0 when no check fails, else 1. With `--json`: `[{id, verification}]`, then `{id, kind: "bundle", valid, errors}` per bundle. */
export async function verifyCommand(options: VerifyOptions, out: Write): Promise<number> {
  const ids = await splitCheckedIds(options.root, options.ids);
  const runs = ids.loadouts === null ? [] : await checkCatalogue({ root: options.root }, ids.loadouts);
  const bundles: ReadBundle[] = ids.bundles === null ? [] : await checkBundles(options.root, ids.bundles);
  if (options.json) {
    const checkedAt = new Date();
    const loadouts = JSON.parse(runsAsJson(runs, (run) => ({ verification: summariseVerification(run.results, { checkedAt, commit: 'working-tree', contentCurrent: true }) }))) as unknown[];
    out(`${JSON.stringify([...loadouts, ...bundlesAsJson(bundles)], null, 2)}\n`);
  } else if (options.markdown === true) {
    out(formatRunsMarkdown(runs) + formatBundlesMarkdown(bundles));
  } else {
    out(formatRunsTable(runs) + formatBundlesTable(bundles));
  }
  return runs.every(passed) && bundles.every(bundlePassed) ? EXIT.ok : EXIT.failed;
}
