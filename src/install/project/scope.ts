/**
 * Where an install lives: a project (targets relative to the project folder, lock
 * `loadout.lock.json` at its root) or the user (`--global`: targets relative to the home
 * folder, lock `~/.config/loadout/lock.json`; DESIGN.md section 8). Every command of the life
 * cycle takes a scope, so install, update, uninstall and status apply the same layout and the
 * same target rules in both.
 */
import { resolve } from 'node:path';
import type { FileEntry } from '../../catalogue/manifest.js';
import type { Agent, Role } from '../../catalogue/vocabulary.js';
import { resolveInstallTarget, type InstallTarget } from '../../layout/layout.js';
import { LOCK_FILE, ownAreaOf, PROJECT_BACKUP_ROOT, PROJECT_INTERRUPTED_ROOT, USER_BACKUP_ROOT, USER_INTERRUPTED_ROOT, USER_LOCK_FILE } from './lock.js';
import { openProject, type ProjectRoot } from './project-root.js';
import { agentFolders, agentMcpFile, describeAgentLocations, isAgentLocation } from '../../layout/target-rules.js';
import { isUserLocation, resolveUserTarget, userLocations } from '../../layout/user-layout.js';

/** A project or the user's home folder, with its layout and rules. */
export interface InstallScope {
  kind: 'project' | 'user';
  /** Absolute folder every target is relative to. */
  root: string;
  /** The lock file, relative to `root`. */
  lockPath: string;
  /** The folder backups of the user's files go to, one subfolder per run, relative to `root`. */
  backupRoot: string;
  /** The folder `loadout recover --set-aside` moves an unusable journal and its temporary files to, one subfolder per run, relative to `root`. */
  interruptedRoot: string;
  /** Where a file entry goes for an agent (null plus a manual step when nowhere). */
  resolveTarget(entry: FileEntry, agent: Agent): InstallTarget;
  /** True when `target` is one of the agent's own places for a file of `role` (rule 4 of `target-rules.ts`). */
  isOwnLocation(role: Role, agent: Agent, target: string): boolean;
  /** The agent's own places, for messages. */
  describeLocations(role: Role, agent: Agent): string;
  /** The agent's folders whose files `status` lists as untracked when no lock entry owns them. */
  trackedFolders(agent: Agent): readonly string[];
  /** Files of the agent's that are shared with the user (merged MCP configuration): never untracked. */
  sharedFiles(agent: Agent): readonly string[];
}

/**
 * Opens the one handle on the scope's folder (`project-root.ts`), once per command: the
 * installer's own files are those of the folder holding the lock (the project root; the user
 * scope's `~/.config/loadout/`), never reached through a link.
 * @throws the file system's error (see `openProject`)
 */
export function openScope(scope: InstallScope): Promise<ProjectRoot> {
  return openProject(scope.root, { ownArea: ownAreaOf(scope.lockPath) });
}

/** The scope of the project folder `dir`. */
export function projectScope(dir: string): InstallScope {
  return {
    kind: 'project',
    root: resolve(dir),
    lockPath: LOCK_FILE,
    backupRoot: PROJECT_BACKUP_ROOT,
    interruptedRoot: PROJECT_INTERRUPTED_ROOT,
    resolveTarget: resolveInstallTarget,
    isOwnLocation: isAgentLocation,
    describeLocations: describeAgentLocations,
    trackedFolders: agentFolders,
    sharedFiles: (agent) => [agentMcpFile(agent)],
  };
}

/** The user scope, in the home folder `home` (the CLI passes `os.homedir()`, which follows `HOME`). */
export function userScope(home: string): InstallScope {
  return {
    kind: 'user',
    root: resolve(home),
    lockPath: USER_LOCK_FILE,
    backupRoot: USER_BACKUP_ROOT,
    interruptedRoot: USER_INTERRUPTED_ROOT,
    resolveTarget: resolveUserTarget,
    isOwnLocation: isUserLocation,
    describeLocations: (_role, agent) => {
      const { folders, files } = userLocations(agent);
      const all = [...folders.map((f) => `~/${f}/`), ...files.map((f) => `~/${f}`)];
      return all.length === 0 ? 'none (no user-level files)' : all.join(', ');
    },
    trackedFolders: (agent) => userLocations(agent).folders,
    sharedFiles: (agent) => userLocations(agent).files.filter((f) => f.endsWith('.json')),
  };
}
