/**
 * `loadout uninstall` (DESIGN.md section 8): removes an install, planned by `compose/plan.ts`.
 * Only whole files unchanged since the install are removed (a changed one is kept and named);
 * a user's own file an install replaced with `--force` is put back from its backup. Merged MCP
 * configuration is reverted: the servers the install added (and nobody changed) are taken out,
 * everything else in the file stays. The install's block is taken out of shared Markdown files,
 * the user's text and other blocks staying byte for byte; a block the user edited stops the
 * uninstall, with its diff, unless `force`. A file another install still holds stays; a file
 * or folder installs created goes with the last install that needs it (a folder only when
 * empty). The lock entry goes in the same transaction as the files, and the lock file itself
 * when it records nothing.
 *
 * The lock is untrusted: every target passes rules 1 to 3 of `target-rules.ts` (never through
 * a link out of the project, never in `.git`), and rule 4 (the agent's own locations) unless
 * `force` (`prepare.ts`).
 */
import { LoadoutError } from '../catalogue/errors.js';
import { SLUG_PATTERN, type Agent } from '../catalogue/vocabulary.js';
import type { Conflict } from './compose/plan.js';
import { readLock } from './project/lock.js';
import { describeLockedProblem } from './prepare.js';
import { openScope, type InstallScope } from './project/scope.js';
import { runPlan } from './run-plan.js';
import { recoverInterrupted } from './project/journal.js';
import { readParts } from './compose/mcp-servers.js';

/** Options of {@link uninstallLoadout}. */
export interface UninstallOptions {
  scope: InstallScope;
  id: string;
  /** Only the install for this agent; default every agent the loadout is installed for. */
  agent?: Agent;
  dryRun?: boolean;
  /** Act on recorded targets outside the agent's own locations (an install made with --force), and remove blocks the user edited (after a backup). Changed whole files are kept all the same. */
  force?: boolean;
}

/** What {@link uninstallLoadout} did (or, with `dryRun` or conflicts, would do). */
export interface UninstallOutcome {
  /** The installs removed from the lock. */
  removed: { id: string; agent: Agent; version: string }[];
  /** Files removed. */
  files_removed: string[];
  /**
   * Shared files the install's part was taken out of: merged configuration (`servers`) or
   * Markdown (`blocks`). `file_removed` is true when nothing else was left in the file, so the
   * file itself was removed; false when it stays with the rest (the user's entries, other
   * installs' parts).
   */
  reverted: { target: string; servers?: string[]; blocks?: string[]; file_removed: boolean }[];
  /** The user's own files put back from the backups made when an install replaced them. */
  restored: { target: string; from: string }[];
  /** Files kept, each with why. */
  kept: { target: string; reason: string }[];
  /** Blocks the user edited, which removing the install would take away: nothing was removed (`force` removes them, after a backup). */
  conflicts: Conflict[];
  /** Folders the installs created, removed because they were left empty. */
  folders_removed: string[];
  /** Where the user's bytes were copied before being removed, if any were. */
  backup?: string;
  /** True when the lock file was removed because it records nothing any more. */
  lock_removed: boolean;
  /** True when the project was changed. */
  uninstalled: boolean;
}

/**
 * Uninstalls `id` (for `agent`, or for every agent it is installed for).
 * @throws LoadoutError `usage` (a bad id, or not installed), `invalid_content` (the lock or a
 *   target not acceptable), `io`
 */
export async function uninstallLoadout(options: UninstallOptions): Promise<UninstallOutcome> {
  const { scope } = options;
  if (!SLUG_PATTERN.test(options.id)) throw new LoadoutError('usage', `<id> is ${JSON.stringify(options.id)} (expected a loadout id)`);
  // A change a killed process left is rolled back (or finished) first (project/journal.ts); a dry run changes nothing.
  const project = await openScope(scope);
  if (options.dryRun !== true) await recoverInterrupted(project, scope.lockPath);
  const lock = await readLock(project, scope.lockPath, scope.backupRoot);
  const entries = lock.installs.filter((e) => e.id === options.id && (options.agent === undefined || e.agent === options.agent));
  if (entries.length === 0) throw new LoadoutError('usage', `${options.id} is not installed${options.agent === undefined ? '' : ` for ${options.agent}`} (${scope.lockPath} has ${lock.installs.map((e) => `${e.id} for ${e.agent}`).join(', ') || 'no installs'})`);
  const problems = await Promise.all(entries.flatMap((entry) => entry.files.map((file) => describeLockedProblem(scope, project, entry, file, options.force === true))));
  const refused = problems.filter((problem) => problem !== undefined);
  if (refused.length > 0) throw new LoadoutError('invalid_content', `${refused[0] ?? ''}${refused.length > 1 ? ` (and ${refused.length - 1} more)` : ''}; nothing was removed`, { hint: 'Fix or delete the lock entry.' });

  const run = await runPlan({ scope, project, operation: 'uninstall', before: lock, wanted: [], removed: entries, force: options.force === true, dryRun: options.dryRun === true });
  const outcome: UninstallOutcome = { removed: entries.map((e) => ({ id: e.id, agent: e.agent, version: e.version })), files_removed: [], reverted: [], restored: [], kept: [], conflicts: run.plan.conflicts, folders_removed: run.pruned, lock_removed: run.lockRemoved, uninstalled: run.written };
  const decoder = new TextDecoder();
  for (const t of run.plan.targets) {
    if (t.restored !== undefined) outcome.restored.push({ target: t.target, from: t.restored });
    else if (t.kind === 'file' && t.action === 'remove') outcome.files_removed.push(t.target);
    else if (t.kind === 'servers' && (t.action === 'write' || t.action === 'remove')) {
      const owned = entries.flatMap((e) => e.files.flatMap((f) => (f.target === t.target && f.kind === 'servers' ? Object.keys(f.servers) : [])));
      const left = t.after === undefined ? {} : (readParts(decoder.decode(t.after), t.target) ?? {});
      outcome.reverted.push({ target: t.target, servers: owned.filter((name) => !Object.hasOwn(left, name)), file_removed: t.action === 'remove' });
    } else if (t.kind === 'block' && (t.action === 'write' || t.action === 'remove')) {
      outcome.reverted.push({ target: t.target, blocks: (t.blocks ?? []).filter((b) => b.change === 'remove').map((b) => b.id), file_removed: t.action === 'remove' });
    }
    if (t.note !== undefined && t.action !== 'write' && t.action !== 'remove') outcome.kept.push({ target: t.target, reason: t.note });
  }
  return { ...outcome, ...(run.backupDir === undefined ? {} : { backup: run.backupDir }) };
}
