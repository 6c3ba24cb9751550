/**
 * `loadout status`, the drift check (DESIGN.md section 8): every part of a file an install holds
 * is compared with its recorded sha256 and reported as `ok`, `changed` or `missing`, through
 * the file's format (`compose/shared-file.ts`): a whole file by its bytes, a merged MCP
 * configuration by the servers the install added, a shared Markdown file by the install's
 * block. The rest of a shared file is the user's and never reported. Files in the locked
 * agents' folders that no lock entry owns are listed as `untracked`. The agents' documented
 * context caps the installed files pass are listed as `size_warnings` (they do not make the
 * status fail: the files are as installed). A CI step gates on `ok` (docs/installing.md,
 * "Keeping it current").
 *
 * Reads only. A lock is untrusted: a target that would be read through a symbolic link leading
 * out of the project, or in `.git`, is refused (rules 1 to 3 of `target-rules.ts`).
 */
import { join } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import type { Agent } from '../catalogue/vocabulary.js';
import { readLock, requestersOf, type LockEntry, type LockFile } from './project/lock.js';
import { bundlesOf } from './bundles.js';
import { satisfiesRange } from '../catalogue/version-ranges.js';
import { formatOf } from './compose/shared-file.js';
import { describeInterrupted } from './project/journal.js';
import { currentBytesReader } from './prepare.js';
import { capWarnings } from './compose/composed-cost.js';
import type { CapWarning } from '../layout/context-caps.js';
import { openScope, type InstallScope } from './project/scope.js';
import { RefusedPath, type ProjectEntry, type ProjectRoot } from './project/project-root.js';
import { describeTargetProblem, isGitSegment } from '../layout/target-rules.js';
import type { PolicyInForce, PolicyViolation } from '../policy/policy.js';
import { installedCapabilities, installedCapabilityKeys } from './installed-capabilities.js';
import { installedViolations } from './policy-gate.js';

/** The state of a locked file. */
export type FileState = 'ok' | 'changed' | 'missing';

/** One locked file and its state. */
export interface FileStatus {
  id: string;
  agent: Agent;
  version: string;
  target: string;
  path: string;
  state: FileState;
  /** How the install holds the file: whole, a block of a shared Markdown file, or servers of a shared configuration. */
  kind: 'file' | 'block' | 'servers';
  /** For a merged MCP configuration: the state of each server the install added. */
  servers?: Record<string, FileState>;
}

/** An install whose files hold more than the lock recorded: the keys of what was added (`install/capabilities.ts`), e.g. `hook skills/x/SKILL.md PostToolUse * npm test`. */
export interface CapabilitiesWidened {
  id: string;
  agent: Agent;
  added: string[];
}

/** An installed bundle and how its members stand (issue 56): each member's range, agents, and the versions installed. */
export interface BundleStatus {
  id: string;
  version: string;
  source: string;
  agents: Agent[];
  members: {
    id: string;
    range: string;
    agents: Agent[];
    /** The member's installs for the bundle's agents; `in_range` false when one was moved out of the range since (by `install --version` with `--force`, or a hand edit). */
    installed: { agent: Agent; version: string; in_range: boolean; requested_by: string[] }[];
  }[];
}

/** What {@link readStatus} found. */
export interface StatusReport {
  /** The installed bundles and their members (issue 56); `files` lists the members' files as any install's. */
  bundles: BundleStatus[];
  scope: InstallScope['kind'];
  /** The lock file read, absolute. */
  lock: string;
  files: FileStatus[];
  /** Files in the agents' folders that no lock entry owns, relative to the root, sorted. */
  untracked: string[];
  /** Set when a change was interrupted (its journal is there, `project/journal.ts`): what happened and what the next command does. */
  interrupted?: string;
  /** The agents' documented context caps the installed files pass (`layout/context-caps.ts`), per agent. */
  size_warnings: CapWarning[];
  /** Installs whose files now let the agent run more than the lock recorded (a hand edit that added a server, a hook, a grant): each makes `ok` false. */
  capabilities: CapabilitiesWidened[];
  /** What the policy refuses of what is installed (issue 55, point 2: the CI gate): each install's catalogue, loadout, agent, its catalogue's signing as the lock pins it, and what its files hold now. Each makes `ok` false. */
  policy: PolicyViolation[];
  /** True when every locked file is `ok`, no install grants more than recorded, the policy refuses nothing and no change was interrupted (untracked files and size warnings do not count). */
  ok: boolean;
}

/** Options of {@link readStatus}. */
export interface StatusOptions {
  /** The policy the installs are held to (`policy-gate.ts`); none: nothing is judged. */
  policy?: PolicyInForce;
}

/**
 * The state of every file of `entry`, read through `project` (the scope's handle).
 * @throws LoadoutError `invalid_content` when a target breaks rules 1 to 3, `io`
 */
export async function readEntryStatus(project: ProjectRoot, entry: LockEntry): Promise<FileStatus[]> {
  const current = currentBytesReader(project, new Map());
  // Every file is checked before any is read; the checks, then the reads, run together.
  const problems = await Promise.all(entry.files.map(async (file) => describeTargetProblem(file.target) ?? (await project.describeLanding(file.target))));
  entry.files.forEach((file, i) => {
    const problem = problems[i];
    if (problem !== undefined) throw new LoadoutError('invalid_content', `the lock's ${entry.id} install for ${entry.agent}: its target ${JSON.stringify(file.target)} ${problem}; nothing was read`, { hint: 'Fix or delete the lock entry.' });
  });
  return Promise.all(
    entry.files.map(async (file): Promise<FileStatus> => {
      const bytes = await current(file.target);
      const format = formatOf(file.kind);
      const found = format.state(format.parse(bytes, file.role === 'adapter'), file, entry.id);
      return { id: entry.id, agent: entry.agent, version: entry.version, target: file.target, path: file.path, kind: file.kind, state: found.state, ...(found.parts === undefined ? {} : { servers: found.parts }) };
    }),
  );
}

/**
 * Reads the lock of `scope` and reports every locked file and the untracked files.
 * @throws LoadoutError `invalid_content` (a lock that is not acceptable), `io`
 */
export async function readStatus(scope: InstallScope, options: StatusOptions = {}): Promise<StatusReport> {
  const project = await openScope(scope);
  // A killed install leaves its journal: reported, since the files may be neither the old nor the new ones (journal.ts).
  const interrupted = await describeInterrupted(project, scope.lockPath);
  const lock = await readLock(project, scope.lockPath, scope.backupRoot);
  const files = (await Promise.all(lock.installs.map((entry) => readEntryStatus(project, entry)))).flat();
  const untracked = await listUntracked(scope, project, lock);
  // The targets were checked by readEntryStatus; a missing file is measured as nothing.
  const current = currentBytesReader(project, new Map());
  const decoder = new TextDecoder();
  const texts = new Map(await Promise.all([...new Set(files.map((f) => f.target))].map(async (t) => [t, await current(t)] as const)));
  const readText = (target: string): string | undefined => {
    const bytes = texts.get(target);
    return bytes === undefined ? undefined : decoder.decode(bytes);
  };
  const size_warnings = [...new Set(lock.installs.map((e) => e.agent))].flatMap((agent) => capWarnings(lock, agent, readText));
  const capabilities = widenedCapabilities(lock, (target) => texts.get(target));
  // The policy judges what the installed files hold now, as the agents will read them.
  const policy = lock.installs.flatMap((entry) => installedViolations(options.policy, { loadout: entry.id, agent: entry.agent, catalogue: entry.source, trusted: lock.trust?.[entry.source], capabilities: installedCapabilities(entry, (target) => texts.get(target)) }));
  const bundles = bundlesOf(lock).map((b): BundleStatus => ({ ...b, members: b.members.map((m) => ({ ...m, installed: lock.installs.filter((e) => e.id === m.id && m.agents.includes(e.agent)).map((e) => ({ agent: e.agent, version: e.version, in_range: satisfiesRange(e.version, m.range), requested_by: requestersOf(e) })) })) }));
  return { scope: scope.kind, lock: join(scope.root, scope.lockPath), bundles, files, untracked, size_warnings, capabilities, policy, ...(interrupted === undefined ? {} : { interrupted }), ok: interrupted === undefined && files.every((f) => f.state === 'ok') && capabilities.length === 0 && policy.length === 0 };
}

/**
 * The installs whose files hold now what they did not hold when installed (issue 54, point 3):
 * the keys of `install/capabilities.ts` read from the project, less those the lock recorded
 * (an entry written before they were recorded is not compared).
 */
function widenedCapabilities(lock: LockFile, read: (target: string) => Uint8Array | undefined): CapabilitiesWidened[] {
  const widened: CapabilitiesWidened[] = [];
  for (const entry of lock.installs) {
    if (entry.capabilities === undefined) continue;
    const recorded = new Set(entry.capabilities.installed);
    const added = installedCapabilityKeys(entry, read).filter((key) => !recorded.has(key));
    if (added.length > 0) widened.push({ id: entry.id, agent: entry.agent, added });
  }
  return widened;
}

/** Files below the folders of the locked agents that no lock entry owns. Symbolic links are listed, not followed; `.git` folders are skipped. */
async function listUntracked(scope: InstallScope, project: ProjectRoot, lock: LockFile): Promise<string[]> {
  const owned = new Set(lock.installs.flatMap((e) => e.files.map((f) => f.target)));
  const agents = [...new Set(lock.installs.map((e) => e.agent))];
  const shared = new Set(agents.flatMap((a) => scope.sharedFiles(a)));
  const folders = [...new Set(agents.flatMap((a) => scope.trackedFolders(a)))];
  const found = new Set<string>();
  for (const folder of folders) {
    let entries: ProjectEntry[];
    try {
      // A folder that is not there (or not a folder) holds nothing untracked.
      entries = await project.list(folder);
    } catch (error) {
      // A tracked folder reached through a link out of the project is not looked into.
      if (error instanceof RefusedPath) continue;
      throw error;
    }
    for (const { path, kind } of entries) {
      if (kind === 'folder') continue;
      const rel = `${folder}/${path}`;
      if (rel.split('/').some(isGitSegment) || owned.has(rel) || shared.has(rel)) continue;
      found.add(rel);
    }
  }
  return [...found].sort();
}
