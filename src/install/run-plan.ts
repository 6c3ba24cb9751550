/**
 * Running the plan of `compose/plan.ts` against a project (or the home folder): reads the
 * current bytes the plan needs, plans, and (unless the plan has conflicts or it is a dry run)
 * writes the backups, the files and the lock together (`transaction.ts`), removes the lock when
 * it records nothing, and removes the created folders left empty. Shared by install, update and
 * uninstall.
 */
import type { Agent } from '../catalogue/vocabulary.js';
import type { ContextCost } from '../layout/context-cost.js';
import { capWarnings, measureComposed } from './compose/composed-cost.js';
import { pathsToRead, planChanges, type BlockChange, type ChangePlan, type Operation, type TargetPlan, type WantedInstall } from './compose/plan.js';
import type { CapWarning } from '../layout/context-caps.js';
import { isEmptyLock, type LockFile } from './project/lock.js';
import { installedCapabilityKeys } from './installed-capabilities.js';
import { bundlesOf, finishBundleLock } from './bundles.js';
import { openScope, type InstallScope } from './project/scope.js';
import { applyChanges, foldersToCreate } from './project/transaction.js';
import { RefusedPath, type ProjectRoot } from './project/project-root.js';

/** What {@link runPlan} needs. */
export interface RunOptions {
  scope: InstallScope;
  /** The scope's handle (`project/project-root.ts`), opened once by the command; opened here from `scope` when not given. */
  project?: ProjectRoot;
  operation: Operation;
  before: LockFile;
  wanted: readonly WantedInstall[];
  removed: readonly { id: string; agent: Agent }[];
  force: boolean;
  dryRun: boolean;
  /**
   * The last word on the lock after the plan, before it is written: bundles (`bundles.ts`) set
   * each entry's `requested_by` and the lock's `bundles` here, so they go in the same write.
   * Default: every entry keeps the `requested_by` it had in `before`, and `bundles` stay.
   */
  finishLock?: (lock: LockFile) => LockFile;
}

/** What {@link runPlan} did. */
export interface RunResult {
  plan: ChangePlan;
  /** True when the files and the lock were written. */
  written: boolean;
  /** The backup folder of this run, relative to the root, when something was copied there. */
  backupDir?: string;
  /** Folders removed because they were left empty. */
  pruned: string[];
  /** True when the lock file was removed (it records nothing). */
  lockRemoved: boolean;
}

/** The bytes of `target` in `project`, or undefined when there is no file. @throws RefusedPath, LoadoutError `invalid_content` (not a regular file), `io` */
export const readTarget = (project: ProjectRoot, target: string): Promise<Uint8Array | undefined> => project.read(target);

/**
 * A folder below `parent` (one of the installer's own) that does not exist yet:
 * `<parent>/<UTC time, colons as dashes>[-n]`. A link where the folder would be counts as
 * there; a folder the handle refuses (reached through a link) is named all the same, and
 * refused again where anything is written into it.
 */
export async function freshRunFolder(project: ProjectRoot, parent: string): Promise<string> {
  const stamp = new Date().toISOString().replaceAll(':', '-');
  for (let n = 0; ; n++) {
    const dir = `${parent}/${stamp}${n === 0 ? '' : `-${n}`}`;
    const found = await project.kindOf(dir, { own: true }).catch((error: unknown) => {
      if (error instanceof RefusedPath) return undefined;
      throw error;
    });
    if (found === undefined) return dir;
  }
}

/**
 * `wanted` without the adapter files that a symbolic link makes one file with another file of
 * the run (`CLAUDE.md -> AGENTS.md`, a common setup, or the other way round): the link already
 * gives the agent that file, so the run composes into it once, through the link, and leaves
 * the link as it is (issue 35, point 7). Every other target, a link or not, is written
 * (through the link: `transaction.ts`).
 */
async function withoutLinkedAdapters(project: ProjectRoot, wanted: readonly WantedInstall[]): Promise<WantedInstall[]> {
  const targets = [...new Set(wanted.flatMap((w) => w.files.map((f) => f.target)))];
  const adapters = new Set(wanted.flatMap((w) => w.files.filter((f) => f.role === 'adapter').map((f) => f.target)));
  const dropped = new Set<string>();
  for (const [target, place] of await Promise.all(targets.map(async (t) => [t, await project.linkedPlaceOf(t)] as const))) {
    if (place === undefined || !targets.includes(place)) continue;
    if (adapters.has(target)) dropped.add(target);
    else if (adapters.has(place)) dropped.add(place);
  }
  return dropped.size === 0 ? [...wanted] : wanted.map((w) => ({ ...w, files: w.files.filter((f) => !(f.role === 'adapter' && dropped.has(f.target))) }));
}

/**
 * Plans and, unless there are conflicts or `dryRun`, applies.
 * @throws LoadoutError from {@link planChanges} and `applyChanges` (`invalid_content`, `io`)
 */
export async function runPlan(options: RunOptions): Promise<RunResult> {
  const { scope, before } = options;
  const project = options.project ?? (await openScope(scope));
  const backupDir = await freshRunFolder(project, scope.backupRoot);
  const wanted = await withoutLinkedAdapters(project, options.wanted);
  const paths = [...pathsToRead(before, wanted, options.removed)];
  const current = new Map(await Promise.all(paths.map(async (path) => [path, await readTarget(project, path)] as const)));
  const planned = planChanges({ operation: options.operation, before, wanted, removed: options.removed, current, force: options.force, backupDir });
  const withCaps = withCapabilities(planned, wanted, current);
  const plan = { ...planned, lock: (options.finishLock ?? finishBundleLock(before, bundlesOf(before)))(withCaps) };
  const result: RunResult = { plan, written: false, pruned: [], lockRemoved: false };
  if (plan.conflicts.length > 0 || options.dryRun) return result;

  const backups = plan.changes.some((c) => 'bytes' in c && c.target.startsWith(`${backupDir}/`));
  // The folders the writes create are the installs' (backups aside: they stay the user's).
  const writes = plan.changes.filter((c) => 'bytes' in c && !c.target.startsWith(`${scope.backupRoot}/`)).map((c) => c.target);
  const folders = [...(await foldersToCreate(project, [...writes, scope.lockPath])).entries()].flatMap(([target, list]) => (target === scope.lockPath && isEmptyLock(plan.lock) ? [] : list));
  // The lock's own folders are needed while there is a lock (the plan knows only the installs' targets).
  const segments = scope.lockPath.split('/').slice(0, -1);
  const lockFolders = segments.map((_s, i) => segments.slice(0, i + 1).join('/'));
  const kept = (before.created ?? []).filter((p) => lockFolders.includes(p));
  const created = [...new Set([...(plan.lock.created ?? []), ...folders, ...kept])].sort();
  const lock = { ...plan.lock, created };
  const empty = isEmptyLock(lock);
  const prune = plan.prune.filter((p) => !lockFolders.includes(p));
  // With the lock gone nothing records the created folders: those of the lock file go too when empty.
  if (empty) prune.push(...created);
  const applied = await applyChanges(project, plan.changes, empty ? null : lock, scope.lockPath, prune);
  return { plan: { ...plan, lock }, written: true, pruned: applied.pruned, lockRemoved: empty, ...(backups ? { backupDir } : {}) };
}

/**
 * `plan`'s lock with each wanted install's capabilities (`install/capabilities.ts`): the digest of
 * its version's list and the keys of what its files hold once the plan is applied (planned bytes
 * first, then `current`). Entries of other installs keep what they recorded.
 */
function withCapabilities(plan: ChangePlan, wanted: readonly WantedInstall[], current: ReadonlyMap<string, Uint8Array | undefined>): LockFile {
  const planned = new Map(plan.changes.map((c) => [c.target, 'bytes' in c ? c.bytes : undefined]));
  const read = (target: string): Uint8Array | undefined => (planned.has(target) ? planned.get(target) : current.get(target));
  const installs = plan.lock.installs.map((entry) => {
    const w = wanted.find((x) => x.id === entry.id && x.agent === entry.agent);
    if (w?.capabilityDigest === undefined) return entry;
    return { ...entry, capabilities: { digest: w.capabilityDigest, installed: installedCapabilityKeys(entry, read) } };
  });
  return { ...plan.lock, installs };
}

/** A shared file's change, as install and update report it (dry run included). */
export interface ComposedFile {
  target: string;
  kind: 'block' | 'servers';
  action: TargetPlan['action'];
  /** For Markdown: each loadout's block and how it changes. */
  blocks?: BlockChange[];
  /** The whole file after (text), for the dry run. */
  text?: string;
  /** The whole file before (text; absent when there was none), for the dry run's diff. */
  before?: string;
}

/** What the installs of `agents` come to after the plan: the composed cost per agent, the shared files, the size limits passed. */
export interface ComposedSummary {
  context: Partial<Record<Agent, ContextCost>>;
  files: ComposedFile[];
  size_warnings: CapWarning[];
}

/**
 * Reads what every install of `agents` holds after `plan` (planned bytes first, then the disk)
 * and measures it. @throws LoadoutError `io`
 */
export async function summarizeComposed(project: ProjectRoot, plan: ChangePlan, agents: readonly Agent[]): Promise<ComposedSummary> {
  const planned = new Map(plan.changes.map((c) => [c.target, 'bytes' in c ? c.bytes : undefined]));
  const texts = new Map<string, string | undefined>();
  const decoder = new TextDecoder();
  for (const target of new Set(plan.lock.installs.filter((e) => agents.includes(e.agent)).flatMap((e) => e.files.map((f) => f.target)))) {
    const bytes = planned.has(target) ? planned.get(target) : await readTarget(project, target);
    texts.set(target, bytes === undefined ? undefined : decoder.decode(bytes));
  }
  const context = Object.fromEntries(agents.map((agent) => [agent, measureComposed(plan.lock, agent, (t) => texts.get(t))]));
  const files: ComposedFile[] = plan.targets.flatMap((t) => (t.kind === 'file' ? [] : [{ target: t.target, kind: t.kind, action: t.action, ...(t.blocks === undefined ? {} : { blocks: t.blocks }), ...(t.after === undefined ? {} : { text: decoder.decode(t.after) }), ...(t.before === undefined ? {} : { before: decoder.decode(t.before) }) }]));
  const written = new Set(plan.targets.filter((t) => t.action === 'write').map((t) => t.target));
  const size_warnings = agents.flatMap((agent) => [...capWarnings(plan.lock, agent, (t) => texts.get(t), (t) => written.has(t))]);
  return { context, files, size_warnings };
}
