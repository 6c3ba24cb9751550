/** `loadout uninstall <id> [--agent A] [--dir .] [--global] [--dry-run] [--force] [--json]`. */
import { LoadoutError } from '../../catalogue/errors.js';
import { isAgent, PUBLISHED_AGENTS } from '../../catalogue/vocabulary.js';
import { pruneBackups } from '../../install/project/backups.js';
import { uninstallLoadout } from '../../install/uninstall.js';
import { EXIT } from '../exit.js';
import { formatConflict, formatRefusal, formatReverted, scopeOf } from '../install-report.js';
import type { Write } from '../report.js';
import { printableJson, printableLine } from '../terminal-text.js';

/** Options of {@link uninstallCommand}. */
export interface UninstallCommandOptions {
  id: string;
  agent?: string;
  dir: string;
  global: boolean;
  dryRun: boolean;
  force: boolean;
  /** Print `{bundle?, stayed?, removed, files_removed, reverted, restored, kept, conflicts, folders_removed, backup?, lock_removed, uninstalled, backups?: {removed, kept, refused?}}` (`backups` once the lock is removed). */
  json: boolean;
}

/**
 * Uninstalls and says what went and what stayed; returns 0, or 1 when a block the user edited
 * stopped it (the diff on stderr). @throws LoadoutError `usage` for a bad --agent
 */
export async function uninstallCommand(options: UninstallCommandOptions, out: Write, err: Write): Promise<number> {
  if (options.agent !== undefined && !isAgent(options.agent)) throw new LoadoutError('usage', `--agent is ${JSON.stringify(options.agent)} (expected one of ${PUBLISHED_AGENTS.join(', ')})`);
  const scope = scopeOf(options);
  const outcome = await uninstallLoadout({ scope, id: options.id, dryRun: options.dryRun, force: options.force, agent: options.agent });
  const stopped = outcome.conflicts.length > 0;
  // Nothing installed any more: the backups whose bytes are back in place go (issue 36, point 11).
  const backups = outcome.lock_removed && !options.dryRun ? await pruneBackups(scope) : undefined;
  if (options.json) {
    out(`${printableJson(backups === undefined ? outcome : { ...outcome, backups })}\n`);
    return stopped ? EXIT.failed : EXIT.ok;
  }
  for (const c of outcome.conflicts) err(formatConflict(c, c.id));
  if (stopped) {
    err(formatRefusal('uninstalled', outcome.conflicts));
    return EXIT.failed;
  }
  if (outcome.backup !== undefined) err(`loadout: your edits the uninstall removes were first copied to ${printableLine(outcome.backup)}/\n`);
  const verb = options.dryRun ? 'would uninstall' : 'uninstalled';
  if (outcome.bundle !== undefined) out(`${verb} bundle ${outcome.bundle.id} ${outcome.bundle.version}\n`);
  if (outcome.removed.length > 0) out(`${verb} ${outcome.removed.map((r) => `${r.id} ${r.version} for ${r.agent}`).join(', ')}\n`);
  for (const s of outcome.stayed ?? []) out(`  kept      ${s.id} ${s.version} for ${s.agent}: ${s.reason}\n`);
  for (const target of outcome.files_removed) out(`  removed   ${printableLine(target)}\n`);
  for (const r of outcome.reverted) out(formatReverted(r, options.dryRun));
  for (const r of outcome.restored) out(`  restored  ${printableLine(r.target)}: your own file, from ${printableLine(r.from)}\n`);
  for (const k of outcome.kept) out(`  kept      ${printableLine(k.target)}: ${k.reason}\n`);
  for (const folder of outcome.folders_removed) out(`  removed   ${printableLine(folder)}/ (left empty)\n`);
  if (outcome.lock_removed) out('  removed   the lock file (it records nothing now)\n');
  if (backups !== undefined && backups.removed.length > 0) out(`  removed   ${backups.removed.length} backup cop${backups.removed.length === 1 ? 'y' : 'ies'} in ${scope.backupRoot}/ (the project holds the same bytes again)\n`);
  if (backups?.refused !== undefined) out(`  kept      the backups: ${printableLine(backups.refused)}\n`);
  if (backups !== undefined && backups.kept.length > 0) {
    out(`  kept      ${backups.kept.length} backup cop${backups.kept.length === 1 ? 'y' : 'ies'} of your files, the project holding something else there now:\n`);
    for (const path of backups.kept) out(`              ${printableLine(path)}\n`);
  }
  return EXIT.ok;
}
