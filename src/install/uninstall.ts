/**
 * `loadout uninstall` (issue 12 point 3): removes an install. Only files the lock owns and
 * that are unchanged since the install are removed; a changed file is kept and named. Merged
 * MCP configuration is reverted: the servers the install added (and nobody changed) are taken
 * out of `.mcp.json`, `.cursor/mcp.json` or `.gemini/settings.json`, and everything else in
 * the file stays. A file another install still owns stays. The folders the install created are
 * removed when left empty. The lock entry goes, in the same transaction as the files.
 *
 * The lock is untrusted: every target passes rules 1 to 3 of `target-rules.ts` (never through
 * a link out of the project, never in `.git`), and rule 4 (the agent's own locations) unless
 * `force` (`prepare.ts`).
 */
import { LoadoutError } from '../catalogue/errors.js';
import { SLUG_PATTERN, type Agent } from '../catalogue/vocabulary.js';
import { readLock, withEntries } from './project/lock.js';
import { currentBytesReader, describeLockedProblem, prepareRemoval } from './prepare.js';
import type { InstallScope } from './project/scope.js';
import { realProjectRoot } from '../layout/target-rules.js';
import { applyChanges, type FileChange } from './project/transaction.js';

/** Options of {@link uninstallLoadout}. */
export interface UninstallOptions {
  scope: InstallScope;
  id: string;
  /** Only the install for this agent; default every agent the loadout is installed for. */
  agent?: Agent;
  dryRun?: boolean;
  /** Act on recorded targets outside the agent's own locations (an install made with --force). Changed files are kept all the same. */
  force?: boolean;
}

/** What {@link uninstallLoadout} did (or, with `dryRun`, would do). */
export interface UninstallOutcome {
  /** The installs removed from the lock. */
  removed: { id: string; agent: Agent; version: string }[];
  /** Files removed. */
  files_removed: string[];
  /** Merged configuration files the install's servers were taken out of (the rest kept). */
  reverted: { target: string; servers: string[] }[];
  /** Files kept, each with why. */
  kept: { target: string; reason: string }[];
  /** Folders the install created, removed because they were left empty. */
  folders_removed: string[];
  /** True when the project was changed. */
  uninstalled: boolean;
}

const encoder = new TextEncoder();

/**
 * Uninstalls `id` (for `agent`, or for every agent it is installed for).
 * @throws LoadoutError `usage` (a bad id, or not installed), `invalid_content` (the lock or a
 *   target not acceptable), `io`
 */
export async function uninstallLoadout(options: UninstallOptions): Promise<UninstallOutcome> {
  const { scope } = options;
  if (!SLUG_PATTERN.test(options.id)) throw new LoadoutError('usage', `<id> is ${JSON.stringify(options.id)} (expected a loadout id)`);
  const lock = await readLock(scope.root, scope.lockPath);
  const entries = lock.installs.filter((e) => e.id === options.id && (options.agent === undefined || e.agent === options.agent));
  if (entries.length === 0) throw new LoadoutError('usage', `${options.id} is not installed${options.agent === undefined ? '' : ` for ${options.agent}`} (${scope.lockPath} has ${lock.installs.map((e) => `${e.id} for ${e.agent}`).join(', ') || 'no installs'})`);
  const root = await realProjectRoot(scope.root);
  const refused: string[] = [];
  for (const entry of entries) for (const file of entry.files) {
    const problem = await describeLockedProblem(scope, root, entry, file, options.force === true);
    if (problem !== undefined) refused.push(problem);
  }
  if (refused.length > 0) throw new LoadoutError('invalid_content', `${refused[0] ?? ''}${refused.length > 1 ? ` (and ${refused.length - 1} more)` : ''}; nothing was removed`, { hint: 'Fix or delete the lock entry.' });

  // The lock without these entries: a target any remaining install owns is "shared" and stays.
  const remaining = withEntries(lock, [], entries);
  const pending = new Map<string, Uint8Array | null>();
  const current = currentBytesReader(root, pending);
  const outcome: UninstallOutcome = { removed: entries.map((e) => ({ id: e.id, agent: e.agent, version: e.version })), files_removed: [], reverted: [], kept: [], folders_removed: [], uninstalled: false };
  const changes: FileChange[] = [];
  for (const entry of entries) {
    for (const file of entry.files) {
      if (remaining.installs.some((e) => e.files.some((f) => f.target === file.target && f.servers === undefined))) {
        outcome.kept.push({ target: file.target, reason: 'another install owns it too' });
        continue;
      }
      const removal = await prepareRemoval(remaining, entry, file, current);
      if (removal.revert !== undefined) {
        const text = removal.revert.text;
        const change: FileChange = text === undefined ? { target: file.target, remove: true } : { target: file.target, bytes: encoder.encode(text) };
        pending.set(file.target, 'bytes' in change ? change.bytes : null);
        changes.push(change);
        outcome.reverted.push({ target: file.target, servers: removal.revert.servers });
        if (removal.state === 'changed') outcome.kept.push({ target: file.target, reason: 'servers changed since they were installed were kept' });
      } else if (removal.state === 'remove') {
        pending.set(file.target, null);
        changes.push({ target: file.target, remove: true });
        outcome.files_removed.push(file.target);
      } else if (removal.state === 'changed') outcome.kept.push({ target: file.target, reason: 'changed since it was installed' });
      else if (removal.state === 'shared') outcome.kept.push({ target: file.target, reason: 'another install owns it too' });
    }
  }
  if (options.dryRun === true) return outcome;
  const prune = entries.flatMap((e) => e.folders ?? []);
  const applied = await applyChanges(scope.root, changes, remaining, scope.lockPath, prune);
  return { ...outcome, folders_removed: applied.pruned, uninstalled: true };
}
