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
import { bundleRequest, readLock, requestersOf, USER_REQUEST, type LockEntry } from './project/lock.js';
import { bundlesOf, finishBundleLock, type BundleRequestChange } from './bundles.js';
import { ConsumerError } from './errors.js';
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
  /** The bundle uninstalled, when `id` was an installed bundle (issue 56). */
  bundle?: { id: string; version: string };
  /** The bundle's members that stay, each with why: the user also installed it on its own, or another installed bundle has it. */
  stayed?: { id: string; agent: Agent; version: string; reason: string }[];
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
 * Uninstalls `id` (for `agent`, or for every agent it is installed for). When `id` is an
 * installed bundle (issue 56), its members go, except those the user also installed on their
 * own or another installed bundle has (each loses the bundle from its `requested_by`), and the
 * bundle leaves the lock, in one transaction. A loadout a bundle brought is not removed alone
 * unless `force`.
 * @throws ConsumerError `BundleMember` (a bundle's member without `force`); LoadoutError `usage` (a bad id, or not installed), `invalid_content` (the lock or a
 *   target not acceptable), `io`
 */
export async function uninstallLoadout(options: UninstallOptions): Promise<UninstallOutcome> {
  const { scope } = options;
  if (!SLUG_PATTERN.test(options.id)) throw new LoadoutError('usage', `<id> is ${JSON.stringify(options.id)} (expected a loadout id)`);
  // A change a killed process left is rolled back (or finished) first (project/journal.ts); a dry run changes nothing.
  const project = await openScope(scope);
  if (options.dryRun !== true) await recoverInterrupted(project, scope.lockPath);
  const lock = await readLock(project, scope.lockPath, scope.backupRoot);
  // `uninstall <bundle>`: its members go, but those the user also installed on their own, or another installed bundle has (bundles.ts).
  const bundle = bundlesOf(lock).find((b) => b.id === options.id);
  const bundleRequests: BundleRequestChange[] = [];
  let entries: LockEntry[];
  if (bundle !== undefined) {
    const requester = bundleRequest(bundle.id);
    const members = lock.installs.filter((e) => requestersOf(e).includes(requester) && (options.agent === undefined || e.agent === options.agent));
    for (const e of members) bundleRequests.push({ id: e.id, agent: e.agent, remove: [requester] });
    entries = members.filter((e) => requestersOf(e).every((r) => r === requester));
  } else {
    entries = lock.installs.filter((e) => e.id === options.id && (options.agent === undefined || e.agent === options.agent));
    const brought = [...new Set(entries.flatMap((e) => requestersOf(e).filter((r) => r !== USER_REQUEST)))];
    if (brought.length > 0 && options.force !== true) throw new ConsumerError('BundleMember', `${options.id} was installed by ${brought.map((r) => `bundle ${r.slice('bundle:'.length)}`).join(' and ')}: uninstalling it alone leaves the bundle without it (expected \`loadout uninstall ${brought[0]?.slice('bundle:'.length) ?? ''}\`, or --force); nothing was removed`);
  }
  const keptBundles = bundle === undefined ? bundlesOf(lock) : options.agent === undefined ? bundlesOf(lock).filter((b) => b.id !== bundle.id) : bundlesOf(lock).map((b) => (b.id !== bundle.id ? b : { ...b, agents: b.agents.filter((a) => a !== options.agent), members: b.members.map((m) => ({ ...m, agents: m.agents.filter((a) => a !== options.agent) })) })).filter((b) => b.agents.length > 0);
  if (entries.length === 0 && bundle === undefined) throw new LoadoutError('usage', `${options.id} is not installed${options.agent === undefined ? '' : ` for ${options.agent}`} (${scope.lockPath} has ${lock.installs.map((e) => `${e.id} for ${e.agent}`).join(', ') || 'no installs'})`);
  const problems = await Promise.all(entries.flatMap((entry) => entry.files.map((file) => describeLockedProblem(scope, project, entry, file, options.force === true))));
  const refused = problems.filter((problem) => problem !== undefined);
  if (refused.length > 0) throw new LoadoutError('invalid_content', `${refused[0] ?? ''}${refused.length > 1 ? ` (and ${refused.length - 1} more)` : ''}; nothing was removed`, { hint: 'Fix or delete the lock entry.' });

  const run = await runPlan({ scope, project, operation: 'uninstall', before: lock, wanted: [], removed: entries, force: options.force === true, dryRun: options.dryRun === true, finishLock: finishBundleLock(lock, keptBundles, bundleRequests) });
  const removedKeys = new Set(entries.map((e) => `${e.id}\n${e.agent}`));
  const stayed = bundle === undefined ? [] : lock.installs.filter((e) => bundleRequests.some((r) => r.id === e.id && r.agent === e.agent) && !removedKeys.has(`${e.id}\n${e.agent}`));
  const outcome: UninstallOutcome = { ...(bundle === undefined ? {} : { bundle: { id: bundle.id, version: bundle.version }, stayed: stayed.map((e) => ({ id: e.id, agent: e.agent, version: e.version, reason: describeStay(e, bundle.id) })) }), removed: entries.map((e) => ({ id: e.id, agent: e.agent, version: e.version })), files_removed: [], reverted: [], restored: [], kept: [], conflicts: run.plan.conflicts, folders_removed: run.pruned, lock_removed: run.lockRemoved, uninstalled: run.written };
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

/** Why a member of bundle `bundle` stays when the bundle goes: who else asked for it. */
function describeStay(entry: LockEntry, bundle: string): string {
  const others = requestersOf(entry).filter((r) => r !== bundleRequest(bundle));
  return others.map((r) => (r === USER_REQUEST ? 'you also installed it on its own' : `bundle ${r.slice('bundle:'.length)} has it too`)).join(', and ');
}
