/** `loadout recover [--set-aside] [--dir .] [--global] [--json]`: deal with the journal an interrupted install, update or uninstall left. */
import { recoverChange, type RecoverOutcome } from '../../install/recover.js';
import { EXIT } from '../exit.js';
import { scopeOf } from '../install-report.js';
import type { Write } from '../report.js';
import { printableJson, printableLine } from '../terminal-text.js';

/** Options of {@link recoverCommand}. */
export interface RecoverCommandOptions {
  dir: string;
  global: boolean;
  /** Move the journal and its temporary files aside instead of acting on them. */
  setAside: boolean;
  /** Print {@link RecoverOutcome} as JSON: `{journal, found, recovered?: {outcome, restored, kept}, set_aside?: {folder, moved: [{from, to}], left: [{path, reason}]}}`. */
  json: boolean;
}

/** The lines that say what recovering did. */
function formatRecovered(outcome: RecoverOutcome, out: Write): void {
  const recovered = outcome.recovered;
  if (recovered === undefined) return;
  const journal = printableLine(outcome.journal);
  if (recovered.outcome === 'unreadable') out(`removed ${journal}: it was cut short before its change touched anything\n`);
  else if (recovered.outcome === 'completed') out(`finished the interrupted change: only ${journal} and its temporary files were left, and are gone\n`);
  else out(`rolled back the interrupted change of ${journal}\n`);
  for (const target of recovered.restored) out(`  restored  ${printableLine(target)}\n`);
  for (const target of recovered.kept) out(`  kept      ${printableLine(target)}: neither as before nor as the change left it (changed since, or not the change's)\n`);
}

/**
 * Recovers the interrupted change (or, with `--set-aside`, moves its journal aside) and says
 * what it did; returns 0. An unusable journal without `--set-aside` throws `UnusableJournal`,
 * whose hint names `--set-aside`.
 */
export async function recoverCommand(options: RecoverCommandOptions, out: Write): Promise<number> {
  const outcome = await recoverChange({ scope: scopeOf(options), setAside: options.setAside });
  if (options.json) {
    out(`${printableJson(outcome)}\n`);
    return EXIT.ok;
  }
  if (!outcome.found) {
    out(`nothing to recover: there is no ${printableLine(outcome.journal)}\n`);
    return EXIT.ok;
  }
  formatRecovered(outcome, out);
  const aside = outcome.set_aside;
  if (aside !== undefined) {
    out(`set aside in ${printableLine(aside.folder)}/ (nothing else of the project was changed):\n`);
    for (const { from, to } of aside.moved) out(`  moved     ${printableLine(from)} -> ${printableLine(to)}\n`);
    for (const { path, reason } of aside.left) out(`  left      ${printableLine(path)}: ${printableLine(reason)}\n`);
    out('Install, update and uninstall work again. The files set aside may hold bytes of yours from before the interrupted change: look at them, and at `loadout status`.\n');
  }
  return EXIT.ok;
}
