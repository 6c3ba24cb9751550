/**
 * Planning the files of one version for one agent against what the project (or home folder)
 * holds now: shared by install and update. Nothing is written here. Every target is checked
 * against the rules of `target-rules.ts` first (rules 1 to 4 always; rule 5, the agent's own
 * locations, and MCP servers, skills and subagents that ask for auto-approval or hooks,
 * unless `force`), the targets a previous install recorded in the lock too, since a
 * lock is untrusted input as much as a catalogue.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256 } from '../tree/render/record.js';
import { LoadoutError } from '../catalogue/errors.js';
import type { Agent, Role } from '../catalogue/vocabulary.js';
import { measureContext, type ContextCost } from '../layout/context-cost.js';
import type { FetchedVersion } from './catalogue/fetch-version.js';
import type { ManualStep } from '../layout/layout.js';
import { readMcpServers } from './project/mcp-config.js';
import { isMergedTarget, mergeServers, removeServers } from './project/mcp-merge.js';
import type { LockEntry, LockFile, LockedFile } from './project/lock.js';
import { lockedHash, otherOwners } from './project/lock.js';
import { resolveInstallPlan } from '../layout/plan.js';
import type { InstallScope } from './project/scope.js';
import { describeLandingProblem, describeTargetProblem, realProjectRoot } from '../layout/target-rules.js';
import { describeSettingsProblem } from '../layout/protected-paths.js';
import { describeServerTrust } from '../layout/mcp-trust.js';
import { describePermissionRequests } from '../layout/permission-requests.js';
import { installedBytes } from '../layout/rule-translation.js';

/**
 * One planned file. `state`: `new` (nothing there), `same` (already as planned), `replace`
 * (bytes a previous install wrote, unchanged since: safe to replace), `changed` (bytes of the
 * user's: written only with `force`).
 */
export interface PreparedFile {
  target: string;
  path: string;
  role: Role;
  state: 'new' | 'same' | 'replace' | 'changed';
  /** The bytes to write when the file is written (for a merged configuration: the whole merged file). */
  bytes: Uint8Array;
  /** The lock's record of the file once written. */
  locked: LockedFile;
  /** For a merged configuration: the servers of the user's that have the loadout's names. */
  conflictingServers?: string[];
}

/** A file the previous install owned that the new version no longer has. */
export interface PreparedRemoval {
  target: string;
  path: string;
  /** `remove` (unchanged: removed), `changed` (the user's bytes now: kept), `missing`, `shared` (another install owns it: kept). */
  state: 'remove' | 'changed' | 'missing' | 'shared';
  /** For a merged configuration: the file's text without the install's unchanged servers (undefined: the file goes), and those servers. */
  revert?: { text: string | undefined; servers: string[] };
}

/** One agent's plan. */
export interface PreparedInstall {
  agent: Agent;
  files: PreparedFile[];
  removals: PreparedRemoval[];
  manual_steps: ManualStep[];
  /** Targets outside the agent's own locations, allowed by `force`, each with a message. */
  warnings: { target: string; path: string; message: string }[];
  context: ContextCost;
}

/** Reads a target's bytes as they are now (`pending` first: writes planned for another agent of the same run). */
export type CurrentBytes = (target: string) => Promise<Uint8Array | undefined>;

/** A reader of the current bytes under `root`, with `pending` writes taking precedence. */
export function currentBytesReader(root: string, pending: ReadonlyMap<string, Uint8Array | null>): CurrentBytes {
  return async (target) => {
    if (pending.has(target)) return pending.get(target) ?? undefined;
    return readFile(join(root, ...target.split('/'))).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'EISDIR') return undefined;
      throw new LoadoutError('io', `cannot read ${target}: ${error.message}`, { cause: error });
    });
  };
}

/** Options of {@link prepareInstall}. */
export interface PrepareOptions {
  scope: InstallScope;
  fetched: FetchedVersion;
  agent: Agent;
  lock: LockFile;
  /** The lock entry this install replaces (update, reinstall), if any. */
  previous?: LockEntry;
  force: boolean;
  current: CurrentBytes;
}

const encoder = new TextEncoder();

/**
 * Plans `fetched` for `agent`.
 * @throws LoadoutError `invalid_content` when a target (planned or recorded in the lock)
 *   breaks a rule of `target-rules.ts` (rule 5 only without `force`; an MCP server, skill or subagent asking for auto-approval or hooks only without `force`), or a merged MCP file of
 *   the loadout does not parse
 */
export async function prepareInstall(options: PrepareOptions): Promise<PreparedInstall> {
  const { scope, fetched, agent, lock, previous, force, current } = options;
  const label = `${fetched.id} ${fetched.version}`;
  const plan = resolveInstallPlan(fetched.files, agent, fetched.text, scope.resolveTarget);
  const root = await realProjectRoot(scope.root);
  const refused: string[] = [];
  const warnings: PreparedInstall['warnings'] = [];
  for (const { entry, target } of plan.files) {
    const overridden = entry.install_to !== undefined && Object.hasOwn(entry.install_to, agent);
    const named = `file entry ${JSON.stringify(entry.path)} of ${label}: its ${agent} target ${JSON.stringify(target)}${overridden ? ` (install_to.${agent})` : ''}`;
    const problem = describeTargetProblem(target) ?? describeSettingsProblem(entry.role, target) ?? (await describeLandingProblem(root, target));
    if (problem !== undefined) refused.push(`${named} ${problem}`);
    else if (!scope.isOwnLocation(entry.role, agent, target)) warnings.push({ target, path: entry.path, message: `${named} is outside ${agent}'s own locations (expected ${scope.describeLocations(entry.role, agent)})` });
    const trust = entry.role === 'mcp' ? describeServerTrust(fetched.text(entry.path)) : describePermissionRequests(entry.role, fetched.text(entry.path));
    if (problem === undefined && trust !== undefined) warnings.push({ target, path: entry.path, message: `file entry ${JSON.stringify(entry.path)} of ${label} ${trust}` });
  }
  for (const file of previous?.files ?? []) {
    const problem = await describeLockedProblem(scope, root, previous as LockEntry, file, force);
    if (problem !== undefined) refused.push(problem);
  }
  const lockProblem = await describeLandingProblem(root, scope.lockPath);
  if (lockProblem !== undefined) refused.push(`the lock file ${scope.lockPath} ${lockProblem}`);
  const more = (list: readonly unknown[]): string => (list.length > 1 ? ` (and ${list.length - 1} more)` : '');
  if (refused.length > 0) throw new LoadoutError('invalid_content', `${refused[0] ?? ''}${more(refused)}; nothing was written`, { hint: 'The catalogue, the lock or the project is not safe to install into; --force does not change this.' });
  if (warnings.length > 0 && !force) throw new LoadoutError('invalid_content', `${warnings[0]?.message ?? ''}${more(warnings)}; nothing was written`, { hint: 'Check the loadout; --force installs it anyway, with a warning for each such file.' });

  const files: PreparedFile[] = [];
  for (const { entry, target } of plan.files) {
    // Checked against its published sha256 by fetchVersion; rules are translated for the agent (rule-translation.ts).
    const source = installedBytes(entry.role, agent, fetched.bytes.get(entry.path) ?? new Uint8Array());
    const existing = await current(target);
    const recorded = previous?.files.find((f) => f.target === target);
    if (isMergedTarget(entry.role, target)) {
      let servers;
      try {
        servers = readMcpServers(JSON.parse(fetched.text(entry.path) ?? ''));
      } catch {
        servers = undefined;
      }
      if (servers === undefined) throw new LoadoutError('invalid_content', `${label} ${entry.path} is not MCP configuration with an "mcpServers" object (expected the .mcp.json shape)`);
      const existingText = existing === undefined ? undefined : Buffer.from(existing).toString('utf8');
      const merged = mergeServers(existingText, servers, recorded?.servers, force);
      const text = merged.text ?? existingText ?? '';
      const unmergeable = merged.text === undefined;
      const state = unmergeable || merged.conflicts.length > 0 ? 'changed' : existingText === text ? 'same' : existing === undefined ? 'new' : 'replace';
      files.push({
        target,
        path: entry.path,
        role: entry.role,
        state,
        bytes: encoder.encode(text),
        locked: { target, path: entry.path, role: entry.role, sha256: sha256(source), servers: merged.owned },
        ...(unmergeable ? { conflictingServers: [`(the file ${merged.problem ?? 'cannot be read'})`] } : merged.conflicts.length > 0 ? { conflictingServers: merged.conflicts } : {}),
      });
      continue;
    }
    const hash = existing === undefined ? undefined : sha256(existing);
    const state = hash === undefined ? 'new' : hash === sha256(source) ? 'same' : hash === (recorded?.sha256 ?? lockedHash(lock, target)) ? 'replace' : 'changed';
    files.push({ target, path: entry.path, role: entry.role, state, bytes: source, locked: { target, path: entry.path, role: entry.role, sha256: sha256(source) } });
  }

  const planned = new Set(plan.files.map((f) => f.target));
  const removals: PreparedRemoval[] = [];
  for (const file of previous?.files ?? []) {
    if (planned.has(file.target)) continue;
    removals.push(await prepareRemoval(lock, previous as LockEntry, file, current));
  }
  return { agent, files, removals, manual_steps: plan.manual_steps, warnings, context: measureContext(fetched.files, agent, fetched.text, scope.resolveTarget) };
}

/**
 * What removing one locked file would do: remove it when unchanged since install, keep it when
 * changed or owned by another install too; for a merged configuration, take out the servers
 * the install added and nobody changed.
 */
export async function prepareRemoval(lock: LockFile, entry: LockEntry, file: LockedFile, current: CurrentBytes): Promise<PreparedRemoval> {
  const base = { target: file.target, path: file.path };
  const existing = await current(file.target);
  if (existing === undefined) return { ...base, state: 'missing' };
  if (file.servers !== undefined) {
    const result = removeServers(Buffer.from(existing).toString('utf8'), file.servers);
    const revert = { text: result.text, servers: result.removed };
    if (result.problem !== undefined || result.kept.length > 0) return { ...base, state: 'changed', ...(result.removed.length > 0 ? { revert } : {}) };
    return { ...base, state: result.removed.length > 0 ? 'remove' : 'missing', ...(result.removed.length > 0 ? { revert } : {}) };
  }
  if (otherOwners(lock, file.target, entry).length > 0) return { ...base, state: 'shared' };
  return { ...base, state: sha256(existing) === file.sha256 ? 'remove' : 'changed' };
}

/**
 * Why a target recorded in the lock must not be acted on, or undefined: rules 1 to 4 always,
 * rule 5 (the agent's own locations for the file's role) unless `force`. A file recorded
 * without a role is checked as a skill file, or one of the default root instruction files.
 */
export async function describeLockedProblem(scope: InstallScope, root: string, entry: LockEntry, file: LockedFile, force: boolean): Promise<string | undefined> {
  const named = `the lock's ${entry.id} install for ${entry.agent}: its target ${JSON.stringify(file.target)}`;
  const role = file.role ?? (file.servers === undefined ? 'skill' : 'mcp');
  const problem = describeTargetProblem(file.target) ?? describeSettingsProblem(role, file.target) ?? (await describeLandingProblem(root, file.target));
  if (problem !== undefined) return `${named} ${problem}`;
  if (force) return undefined;
  const own = file.role === undefined ? scope.isOwnLocation('skill', entry.agent, file.target) || ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'].includes(file.target) : scope.isOwnLocation(file.role, entry.agent, file.target);
  return own ? undefined : `${named} is outside ${entry.agent}'s own locations (expected ${scope.describeLocations(file.role ?? 'skill', entry.agent)}; --force acts on it)`;
}
