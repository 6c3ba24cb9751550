/**
 * Checking the files of one version for one agent before anything is planned or written:
 * shared by install and update (uninstall checks the lock's targets with
 * `describeLockedProblem`). Every target is checked against the rules of `target-rules.ts`
 * (rules 1 to 4 always; rule 5, the agent's own locations, unless `force`), the targets a
 * previous install recorded in the lock too, since a lock is untrusted input as much as a
 * catalogue. What needs the user's consent (hooks, auto-approval, …) is the capability list's
 * question (`install/capabilities.ts`, `capabilities/consent.ts`), asked by install and update.
 * What is written is planned by `compose/plan.ts`.
 */
import { LoadoutError } from '../catalogue/errors.js';
import type { Agent, Role } from '../catalogue/vocabulary.js';
import { measureContext, type ContextCost } from '../layout/context-cost.js';
import type { FetchedVersion } from './catalogue/fetch-version.js';
import type { ManualStep } from '../layout/layout.js';
import type { LockEntry, LockedFile } from './project/lock.js';
import type { InstallScope } from './project/scope.js';
import { describeTargetProblem } from '../layout/target-rules.js';
import { describeSettingsProblem } from '../layout/protected-paths.js';
import { installedBytesOf, layoutInstall } from '../layout/installed-files.js';
import { ConsumerError } from './errors.js';
import type { ProjectRoot } from './project/project-root.js';

/** Reads a target's bytes as they are now (`pending` first: writes planned for another agent of the same run). */
export type CurrentBytes = (target: string) => Promise<Uint8Array | undefined>;

/** A reader of the current bytes in `project` (through its handle), with `pending` writes taking precedence. */
export function currentBytesReader(project: ProjectRoot, pending: ReadonlyMap<string, Uint8Array | null>): CurrentBytes {
  return async (target) => {
    if (pending.has(target)) return pending.get(target) ?? undefined;
    return project.read(target);
  };
}

/** One agent's files of a version, checked: where each goes, the manual steps, the warnings `force` allowed. */
export interface CheckedInstall {
  agent: Agent;
  files: { target: string; path: string; role: Role }[];
  /** A file's bytes as installed for the agent (rules translated and composed, links rewritten: `layout/installed-files.ts`), at `target` for a file planned at several. */
  bytes(path: string, target?: string): Uint8Array | undefined;
  manual_steps: ManualStep[];
  /** Targets outside the agent's own locations, allowed by `force`, each with a message. */
  warnings: { target: string; path: string; message: string }[];
  context: ContextCost;
}

/** Options of {@link checkInstall}. */
export interface CheckOptions {
  scope: InstallScope;
  /** The scope's handle (`project/project-root.ts`), opened once by the command. */
  project: ProjectRoot;
  fetched: FetchedVersion;
  agent: Agent;
  /** The lock entry this install replaces (update, reinstall), if any. */
  previous?: LockEntry;
  /**
   * The agents this loadout is installed for in the project after the run (`agent` among them):
   * files they share are written once for all of them (`layout/installed-files.ts`). Default: `agent` alone.
   */
  sharing?: readonly Agent[];
  force: boolean;
}

/**
 * Resolves and checks the targets of `fetched` for `agent`, and of the lock entry it replaces.
 * @throws ConsumerError `UnsafeTarget` when a target (planned or recorded in the lock) breaks
 *   rules 1 to 4 of `target-rules.ts`; LoadoutError `invalid_content` for rule 5 without `force`
 */
export async function checkInstall(options: CheckOptions): Promise<CheckedInstall> {
  const { scope, project, fetched, agent, previous, force } = options;
  const label = `${fetched.id} ${fetched.version}`;
  const installed = layoutInstall(fetched, agent, { resolve: scope.resolveTarget, sharing: options.sharing ?? [agent] });
  const plan = installed.plan;
  const refused: string[] = [];
  const warnings: CheckedInstall['warnings'] = [];
  // The file system's part of the checks runs for every target together; the messages follow in plan order.
  const problems = await Promise.all(plan.files.map(async ({ entry, target }) => describeTargetProblem(target) ?? describeSettingsProblem(entry.role, target) ?? (await project.describeLanding(target))));
  for (const [i, { entry, target }] of plan.files.entries()) {
    const overridden = entry.install_to !== undefined && Object.hasOwn(entry.install_to, agent);
    const named = `file entry ${JSON.stringify(entry.path)} of ${label}: its ${agent} target ${JSON.stringify(target)}${overridden ? ` (install_to.${agent})` : ''}`;
    const problem = problems[i];
    if (problem !== undefined) refused.push(`${named} ${problem}`);
    else if (!scope.isOwnLocation(entry.role, agent, target)) warnings.push({ target, path: entry.path, message: `${named} is outside ${agent}'s own locations (expected ${scope.describeLocations(entry.role, agent)})` });
  }
  const locked = await Promise.all((previous?.files ?? []).map((file) => describeLockedProblem(scope, project, previous as LockEntry, file, force)));
  for (const problem of locked) if (problem !== undefined) refused.push(problem);
  const lockProblem = await project.describeLanding(scope.lockPath, { own: true });
  if (lockProblem !== undefined) refused.push(`the lock file ${scope.lockPath} ${lockProblem}`);
  const more = (list: readonly unknown[]): string => (list.length > 1 ? ` (and ${list.length - 1} more)` : '');
  if (refused.length > 0) throw new ConsumerError('UnsafeTarget', `${refused[0] ?? ''}${more(refused)}; nothing was written`, { hint: 'The catalogue, the lock or the project is not safe to install into; --force does not change this.' });
  if (warnings.length > 0 && !force) throw new LoadoutError('invalid_content', `${warnings[0]?.message ?? ''}${more(warnings)}; nothing was written`, { hint: 'Check the loadout; --force installs it anyway, with a warning for each such file.' });
  return {
    agent,
    files: plan.files.map(({ entry, target }) => ({ target, path: entry.path, role: entry.role })),
    // Checked against its published sha256 by fetchVersion; written as the agent reads it (layout/installed-files.ts).
    bytes: (path, target) => {
      const raw = fetched.bytes.get(path);
      return raw === undefined ? raw : installedBytesOf(installed, path, raw, target);
    },
    manual_steps: plan.manual_steps,
    warnings,
    context: measureContext(fetched.files, agent, fetched.text, scope.resolveTarget),
  };
}

/**
 * Why a target recorded in the lock must not be acted on, or undefined: rules 1 to 4 always,
 * rule 5 (the agent's own locations for the file's role) unless `force`. A file recorded
 * without a role is checked as a skill file, or one of the default root instruction files.
 */
export async function describeLockedProblem(scope: InstallScope, project: ProjectRoot, entry: LockEntry, file: LockedFile, force: boolean): Promise<string | undefined> {
  const named = `the lock's ${entry.id} install for ${entry.agent}: its target ${JSON.stringify(file.target)}`;
  const role = file.role ?? (file.kind === 'servers' ? 'mcp' : 'skill');
  const problem = describeTargetProblem(file.target) ?? describeSettingsProblem(role, file.target) ?? (await project.describeLanding(file.target));
  if (problem !== undefined) return `${named} ${problem}`;
  if (force) return undefined;
  const own = file.role === undefined ? scope.isOwnLocation('skill', entry.agent, file.target) || ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'].includes(file.target) : scope.isOwnLocation(file.role, entry.agent, file.target);
  return own ? undefined : `${named} is outside ${entry.agent}'s own locations (expected ${scope.describeLocations(file.role ?? 'skill', entry.agent)}; --force acts on it)`;
}
