/**
 * The lock: what `loadout install` put into a project (`loadout.lock.json` at its root) or into
 * the user's folders (`~/.config/loadout/lock.json`, the user scope of DESIGN.md section 8), so
 * an install can be repeated exactly (`--frozen`), updated, checked for drift and removed, and
 * a file the user edited since is never overwritten without `--force` (DESIGN.md section 8).
 * Deterministic: no timestamps, entries sorted.
 *
 * Bundles (issue 56; `install/bundles.ts`, docs/installing.md "Bundles"): `bundles` records each
 * installed bundle (`{id, version, source, agents, members: [{id, range, agents}]}`), and each
 * install entry's `requested_by` says who asked for it: `"user"` (the user's own `install <id>`)
 * and `"bundle:<id>"` per installed bundle that has it, e.g. `["bundle:web-team-stack", "user"]`.
 * An entry without `requested_by` is `["user"]`, so a lock written before bundles reads as it
 * was, and a lock of the user's own installs is written as before.
 *
 * A lock is read as untrusted input (it may come with a cloned repository): every field that
 * becomes part of a path is checked here (ids, agents, versions, hashes), and every target
 * and folder must pass rules 1 and 2 of `target-rules.ts`; where a target really lands is
 * checked again before anything is written or removed.
 */
import { posix } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { isAgent, ROLES, SLUG_PATTERN, VERSION_PATTERN, type Agent, type Role } from '../../catalogue/vocabulary.js';
import { describeTargetProblem } from '../../layout/target-rules.js';
import { showValue as show } from '../../catalogue/show-value.js';
import { isRange } from '../../catalogue/version-ranges.js';
import { openProject, type ProjectRoot } from './project-root.js';

/** The project lock file's name, at the project root. */
export const LOCK_FILE = 'loadout.lock.json';

/** The user lock, relative to the home folder (user scope, DESIGN.md section 8). */
export const USER_LOCK_FILE = '.config/loadout/lock.json';

/** The folder a project's backups go to (one subfolder per run), relative to the project root. */
export const PROJECT_BACKUP_ROOT = '.loadout/backup';

/** The folder the user scope's backups go to, relative to the home folder. */
export const USER_BACKUP_ROOT = '.config/loadout/backup';

/** The most bytes a lock may hold (a lock of a thousand installs is about 1 MB); a larger one is refused unread. */
export const LOCK_MAX_BYTES = 16 * 1024 * 1024;

/** The folder of the installer's own files that goes with the lock at `lockPath` (`project-root.ts`, rule 3): the folder holding it, `''` for the project root. */
export const ownAreaOf = (lockPath: string): string => {
  const folder = posix.dirname(lockPath);
  return folder === '.' ? '' : folder;
};

/** The backup folder that goes with the lock at `lockPath`: the user scope's for {@link USER_LOCK_FILE}, else the project's. */
export const backupRootOf = (lockPath: string): string => (lockPath === USER_LOCK_FILE ? USER_BACKUP_ROOT : PROJECT_BACKUP_ROOT);

/** The folder `loadout recover --set-aside` moves an unusable journal and its temporary files to (one subfolder per run), relative to the project root. */
export const PROJECT_INTERRUPTED_ROOT = '.loadout/interrupted';

/** The same for the user scope, relative to the home folder. */
export const USER_INTERRUPTED_ROOT = '.config/loadout/interrupted';

/** The set-aside folder that goes with the lock at `lockPath`, as {@link backupRootOf}. */
export const interruptedRootOf = (lockPath: string): string => (lockPath === USER_LOCK_FILE ? USER_INTERRUPTED_ROOT : PROJECT_INTERRUPTED_ROOT);

/**
 * How an install holds a file: `file` (the whole file is the install's), `block` (a marked
 * block of a shared Markdown instruction file, `compose/markdown-blocks.ts`), `servers` (MCP
 * servers merged into a shared JSON configuration file, `compose/mcp-servers.ts`).
 */
export type FileKind = 'file' | 'block' | 'servers';

interface LockedFileBase {
  /** Where it was written, relative to the project root (or the home folder for the user scope). */
  target: string;
  /** The loadout file it came from. */
  path: string;
  /** Its role (absent in locks written before roles were recorded). */
  role?: Role;
  /** sha256 of the bytes written: the whole file, the block's body, or (servers) the loadout file. */
  sha256: string;
}

/** A whole file an install owns. */
export interface LockedWholeFile extends LockedFileBase {
  kind: 'file';
}

/** A marked block in a shared Markdown file; `sha256` is of the block's body as written. */
export interface LockedBlock extends LockedFileBase {
  kind: 'block';
  /** The line endings (LF or CRLF, as the file's) written before the block's begin marker (taken away with the block). */
  separator: string;
}

/**
 * MCP configuration merged into a shared file (`.mcp.json`, `.cursor/mcp.json`,
 * `.gemini/settings.json`): `servers` are the servers this install added, name → sha256 of the
 * server's canonical JSON (`mcp-servers.ts`). The file's other content is not the install's.
 */
export interface LockedServers extends LockedFileBase {
  kind: 'servers';
  servers: Record<string, string>;
}

/** One file an install holds: a union on `kind` (a lock written before kinds were recorded is read as `servers` when it has servers, else `file`). */
export type LockedFile = LockedWholeFile | LockedBlock | LockedServers;

/** One installed loadout for one agent. */
export interface LockEntry {
  id: string;
  agent: Agent;
  version: string;
  /** The catalogue it came from (base URL or absolute folder). */
  source: string;
  /** Every file written, by target. */
  files: LockedFile[];
  /** Read only, from locks written before `created`: folders the install created (moved into the lock's `created`). */
  folders?: string[];
  /** What the installed version lets the agent run and reach (absent in locks written before capabilities were recorded). */
  capabilities?: LockedCapabilities;
  /**
   * Who asked for this install (issue 56): {@link USER_REQUEST} (`"user"`, `loadout install <id>`)
   * and/or `"bundle:<id>"` for each installed bundle it is a member of ({@link bundleRequest}),
   * sorted. Absent means `["user"]` alone (every lock written before bundles, and every install
   * the user asked for alone): see {@link requestersOf}.
   */
  requested_by?: string[];
}

/** The requester of an install the user asked for by its own id. */
export const USER_REQUEST = 'user';

/** The requester of an install a bundle brought: `bundle:<bundle id>`. */
export const bundleRequest = (bundle: string): string => `bundle:${bundle}`;

/** Who asked for `entry` (its `requested_by`, or `["user"]` when absent). */
export const requestersOf = (entry: Pick<LockEntry, 'requested_by'>): string[] => entry.requested_by ?? [USER_REQUEST];

/** True when the user also asked for `entry` on its own (not only through bundles). */
export const userRequested = (entry: Pick<LockEntry, 'requested_by'>): boolean => requestersOf(entry).includes(USER_REQUEST);

/**
 * `entry` with `requested_by` set to `requesters` (sorted, unique); the field is left out when it
 * is `["user"]` alone, so a lock of installs the user asked for alone reads as before bundles.
 */
export function withRequesters<T extends LockEntry>(entry: T, requesters: readonly string[]): T {
  const sorted = [...new Set(requesters)].sort();
  const { requested_by: _old, ...rest } = entry;
  return (sorted.length === 1 && sorted[0] === USER_REQUEST ? rest : { ...rest, requested_by: sorted }) as T;
}

/** A member of an installed bundle, as the lock records it: the loadout, the range the bundle's version accepts, the agents it was installed for. */
export interface LockedBundleMember {
  id: string;
  range: string;
  agents: Agent[];
}

/**
 * An installed bundle (issue 56; `install/bundles.ts`): its id, the version installed, the
 * catalogue it came from, the agents it was installed for, and its members. Each member's lock
 * entries carry `bundle:<id>` in their `requested_by`.
 */
export interface LockedBundle {
  id: string;
  version: string;
  source: string;
  agents: Agent[];
  members: LockedBundleMember[];
}

/**
 * What the lock keeps of an install's capabilities (issue 54, point 3): the digest of the
 * version's capability list for the agent (`tree-format/capabilities.ts`, `agents.<agent>.digest`),
 * and the keys of what the installed files hold (`install/installed-capabilities.ts`
 * `installedCapabilityKeys`), which `status` reads again from the project.
 */
export interface LockedCapabilities {
  digest: string;
  installed: string[];
}

/** What the lock keeps of a signed catalogue (docs/signing.md): the key ids it trusts and the newest snapshot time seen. */
export interface LockedTrust {
  keyids: string[];
  /** ISO 8601 UTC `generated_at` of the newest signed snapshot accepted (older ones are refused as rollbacks). */
  generated_at: string;
}

/**
 * The lock document. `created`: the files and folders installs created and still need, so the
 * last install that needs one removes it (a folder only when empty). `originals`: target → the
 * backup (under the backup folder) of the user's own file an install replaced, put back when the
 * last install of the target goes. Other top-level fields are kept as they are.
 */
export interface LockFile {
  lockfileVersion: 1;
  installs: LockEntry[];
  created?: string[];
  originals?: Record<string, string>;
  /** Signed catalogues by source (base URL or absolute folder, as in {@link LockEntry.source}); absent until one is used. */
  trust?: Record<string, LockedTrust>;
  /** The installed bundles, sorted by id ({@link LockedBundle}); absent when none is (and in locks written before bundles). */
  bundles?: LockedBundle[];
  [field: string]: unknown;
}

const SHA256 = /^[0-9a-f]{64}$/u;
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The problems of one lock entry, each naming its field. */
function entryProblems(entry: unknown, at: string): string[] {
  if (!isObject(entry)) return [`${at} is ${show(entry)} (expected an object)`];
  const problems: string[] = [];
  if (!(typeof entry['id'] === 'string' && SLUG_PATTERN.test(entry['id']))) problems.push(`${at}.id is ${show(entry['id'])} (expected a loadout id)`);
  if (!isAgent(entry['agent'])) problems.push(`${at}.agent is ${show(entry['agent'])} (expected an agent id)`);
  if (!(typeof entry['version'] === 'string' && VERSION_PATTERN.test(entry['version']))) problems.push(`${at}.version is ${show(entry['version'])} (expected MAJOR.MINOR.PATCH)`);
  if (typeof entry['source'] !== 'string') problems.push(`${at}.source is ${show(entry['source'])} (expected a catalogue URL or folder)`);
  const files = entry['files'];
  if (!Array.isArray(files)) return [...problems, `${at}.files is ${show(files)} (expected an array)`];
  files.forEach((file: unknown, j) => {
    const where = `${at}.files[${j}]`;
    if (!isObject(file)) return problems.push(`${where} is ${show(file)} (expected an object)`);
    const targetProblem = describeTargetProblem(file['target']);
    if (targetProblem !== undefined) problems.push(`${where}.target ${show(file['target'])} ${targetProblem}`);
    if (typeof file['path'] !== 'string') problems.push(`${where}.path is ${show(file['path'])} (expected a loadout file path)`);
    if (file['role'] !== undefined && !(ROLES as readonly unknown[]).includes(file['role'])) problems.push(`${where}.role is ${show(file['role'])} (expected one of ${ROLES.join(', ')})`);
    if (!(typeof file['sha256'] === 'string' && SHA256.test(file['sha256']))) problems.push(`${where}.sha256 is ${show(file['sha256'])} (expected 64 lowercase hex digits)`);
    if (file['kind'] !== undefined && !['file', 'block', 'servers'].includes(file['kind'] as string)) problems.push(`${where}.kind is ${show(file['kind'])} (expected file, block or servers)`);
    if (file['kind'] === 'block' && !(typeof file['separator'] === 'string' && /^(?:\r?\n){0,2}$/u.test(file['separator']))) problems.push(`${where}.separator is ${show(file['separator'])} (expected up to two line endings)`);
    const servers = file['servers'];
    if (servers !== undefined && !(isObject(servers) && Object.values(servers).every((h) => typeof h === 'string' && SHA256.test(h)))) problems.push(`${where}.servers is ${show(servers)} (expected an object of server name: sha256)`);
    return undefined;
  });
  const capabilities = entry['capabilities'];
  if (capabilities !== undefined && !(isObject(capabilities) && typeof capabilities['digest'] === 'string' && SHA256.test(capabilities['digest']) && Array.isArray(capabilities['installed']) && capabilities['installed'].every((k) => typeof k === 'string'))) problems.push(`${at}.capabilities is ${show(capabilities)} (expected {digest: 64 hex digits, installed: [strings]})`);
  const requested = entry['requested_by'];
  if (requested !== undefined && !(Array.isArray(requested) && requested.length > 0 && requested.every((r) => r === USER_REQUEST || (typeof r === 'string' && r.startsWith('bundle:') && SLUG_PATTERN.test(r.slice('bundle:'.length)))))) problems.push(`${at}.requested_by is ${show(requested)} (expected a non-empty array of "user" and "bundle:<id>")`);
  const folders = entry['folders'];
  if (folders !== undefined) {
    if (!Array.isArray(folders)) problems.push(`${at}.folders is ${show(folders)} (expected an array)`);
    else
      folders.forEach((folder: unknown, j) => {
        const problem = describeTargetProblem(folder);
        if (problem !== undefined) problems.push(`${at}.folders[${j}] ${show(folder)} ${problem}`);
      });
  }
  return problems;
}

const agentList = (value: unknown): boolean => Array.isArray(value) && value.every(isAgent);

/** The problems of the lock's `bundles` field, each naming its place. */
function bundleProblems(bundles: unknown): string[] {
  if (bundles === undefined) return [];
  if (!Array.isArray(bundles)) return [`bundles is ${show(bundles)} (expected an array of {id, version, source, agents, members})`];
  const problems: string[] = [];
  bundles.forEach((bundle: unknown, i) => {
    const at = `bundles[${i}]`;
    if (!isObject(bundle)) return problems.push(`${at} is ${show(bundle)} (expected an object)`);
    if (!(typeof bundle['id'] === 'string' && SLUG_PATTERN.test(bundle['id']))) problems.push(`${at}.id is ${show(bundle['id'])} (expected a bundle id)`);
    if (!(typeof bundle['version'] === 'string' && VERSION_PATTERN.test(bundle['version']))) problems.push(`${at}.version is ${show(bundle['version'])} (expected MAJOR.MINOR.PATCH)`);
    if (typeof bundle['source'] !== 'string') problems.push(`${at}.source is ${show(bundle['source'])} (expected a catalogue URL or folder)`);
    if (!agentList(bundle['agents'])) problems.push(`${at}.agents is ${show(bundle['agents'])} (expected an array of agent ids)`);
    const members = bundle['members'];
    if (!Array.isArray(members)) return problems.push(`${at}.members is ${show(members)} (expected an array)`);
    members.forEach((member: unknown, j) => {
      const where = `${at}.members[${j}]`;
      if (!(isObject(member) && typeof member['id'] === 'string' && SLUG_PATTERN.test(member['id']) && typeof member['range'] === 'string' && isRange(member['range']) && agentList(member['agents']))) problems.push(`${where} is ${show(member)} (expected {id: a loadout id, range: a semver range, agents: [agent ids]})`);
    });
    return undefined;
  });
  return problems;
}

/** The problems of the lock's `trust` field, each naming its source. */
function trustProblems(trust: unknown): string[] {
  if (trust === undefined) return [];
  if (!isObject(trust)) return [`trust is ${show(trust)} (expected an object of catalogue: {keyids, generated_at})`];
  const problems: string[] = [];
  for (const [source, entry] of Object.entries(trust)) {
    const ok = isObject(entry) && Array.isArray(entry['keyids']) && entry['keyids'].length > 0 && entry['keyids'].every((k) => typeof k === 'string' && SHA256.test(k)) && typeof entry['generated_at'] === 'string' && !Number.isNaN(Date.parse(entry['generated_at']));
    if (!ok) problems.push(`trust[${show(source)}] is ${show(entry)} (expected {keyids: [64 hex digits, …], generated_at: ISO 8601 time})`);
  }
  return problems;
}

/**
 * Parses and checks a lock document; `where` names it in messages. `backupRoot` is the folder
 * every `originals` value must lie in (the scope's backup folder): a backup is the only file a
 * lock may move back onto a target, so a lock naming any other file there (`.env`, a source
 * file) is refused as a whole (issue 35, point 2).
 * @throws LoadoutError `invalid_content` naming the first problem (field and what was expected)
 */
export function parseLock(text: string, where: string, backupRoot = PROJECT_BACKUP_ROOT): LockFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (cause) {
    throw new LoadoutError('invalid_content', `${where} is not a loadout lock file (${(cause as Error).message})`, { cause, hint: 'Fix or delete it; it is rewritten on the next install.' });
  }
  const problems: string[] = [];
  if (!isObject(doc) || doc['lockfileVersion'] !== 1 || !Array.isArray(doc['installs'])) problems.push('expected {"lockfileVersion": 1, "installs": [...]}');
  else {
    doc['installs'].forEach((entry: unknown, i) => problems.push(...entryProblems(entry, `installs[${i}]`)));
    problems.push(...pathListProblems(doc, backupRoot));
    problems.push(...trustProblems(doc['trust']));
    problems.push(...bundleProblems(doc['bundles']));
  }
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw new LoadoutError('invalid_content', `${where} is not a loadout lock file: ${problems[0] ?? ''}${more}; nothing was changed`, { hint: 'Fix or delete it; a lock that names paths outside the project or in .git is never acted on.' });
  }
  return normalizeLock(doc as unknown as LockFile);
}

/** The problems of the top-level `created` and `originals`: paths of the rules 1 and 2 of `target-rules.ts`; each backup of `originals` below `backupRoot`. */
function pathListProblems(doc: Record<string, unknown>, backupRoot: string): string[] {
  const problems: string[] = [];
  const created = doc['created'];
  if (created !== undefined) {
    if (!Array.isArray(created)) problems.push(`created is ${show(created)} (expected an array of paths)`);
    else created.forEach((path: unknown, i) => {
      const problem = describeTargetProblem(path);
      if (problem !== undefined) problems.push(`created[${i}] ${show(path)} ${problem}`);
    });
  }
  const originals = doc['originals'];
  if (originals !== undefined) {
    if (!isObject(originals)) problems.push(`originals is ${show(originals)} (expected an object of target: backup path)`);
    else for (const [target, backup] of Object.entries(originals)) {
      const problem = describeTargetProblem(target) ?? describeTargetProblem(backup) ?? (typeof backup === 'string' && backup.startsWith(`${backupRoot}/`) ? undefined : `is ${show(backup)} (expected a backup below ${backupRoot}/)`);
      if (problem !== undefined) problems.push(`originals[${show(target)}] ${problem}`);
    }
  }
  return problems;
}

/** A checked lock with every file's `kind` set and per-entry `folders` of older locks moved into `created`. */
function normalizeLock(lock: LockFile): LockFile {
  // A lock written before `created` was recorded: its installs created every file they hold (as uninstall then assumed).
  const created = new Set(lock.created ?? lock.installs.flatMap((e) => e.files.map((f) => f.target)));
  const installs = lock.installs.map((entry) => {
    for (const folder of entry.folders ?? []) created.add(folder);
    const files = entry.files.map((file): LockedFile => {
      const raw = file as unknown as Omit<LockedWholeFile, 'kind'> & { kind?: FileKind; servers?: Record<string, string> };
      if (raw.kind !== undefined) return raw as LockedFile;
      return raw.servers !== undefined ? { ...raw, kind: 'servers', servers: raw.servers } : { ...raw, kind: 'file' };
    });
    const { folders: _folders, ...rest } = entry;
    return { ...rest, files };
  });
  const { created: _created, ...rest } = lock;
  return { ...rest, installs, created: [...created].sort() };
}

/**
 * Reads the lock at `lockPath` (relative to the project, a handle or a folder); an empty one
 * when there is none. The lock is one of the installer's own files (`project-root.ts`): a
 * regular file or nothing, never reached through a link, at most {@link LOCK_MAX_BYTES}.
 * `backupRoot`: see {@link parseLock} (default: the one of `lockPath`'s scope).
 * @throws LoadoutError `invalid_content` (see {@link parseLock}; a link, folder, FIFO or device
 *   at the lock's place, or a link on its way), `io`
 */
export async function readLock(root: ProjectRoot | string, lockPath = LOCK_FILE, backupRoot = backupRootOf(lockPath)): Promise<LockFile> {
  const project = typeof root === 'string' ? await openProject(root, { ownArea: ownAreaOf(lockPath) }) : root;
  let bytes: Uint8Array | undefined;
  try {
    bytes = await project.read(lockPath, { own: true, max: LOCK_MAX_BYTES });
  } catch (error) {
    if (error instanceof LoadoutError) throw error;
    throw new LoadoutError('io', `cannot read ${lockPath}: ${(error as Error).message}`, { cause: error });
  }
  if (bytes === undefined) return { lockfileVersion: 1, installs: [] };
  return parseLock(Buffer.from(bytes).toString('utf8'), lockPath, backupRoot);
}

/**
 * `lock` keeping `trust` for the catalogue `source` (nothing changes when `trust` is undefined:
 * an unsigned catalogue); sources sorted. The rollback mark never goes back: `generated_at`
 * stays the lock's when that is newer than `trust`'s (TUF specification 5.5.5; issue 35,
 * point 3). Pure.
 */
export function withTrust(lock: LockFile, source: string, trust: LockedTrust | undefined): LockFile {
  if (trust === undefined) return lock;
  const seen = lock.trust?.[source]?.generated_at;
  const generatedAt = seen !== undefined && Date.parse(seen) > Date.parse(trust.generated_at) ? seen : trust.generated_at;
  const all = { ...lock.trust, [source]: { keyids: [...trust.keyids].sort(), generated_at: generatedAt } };
  return { ...lock, trust: Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : 1))) };
}

/** The lock document's text. */
export function lockText(lock: LockFile): string {
  return `${JSON.stringify(lock, null, 2)}\n`;
}

/** True when the lock records nothing: no install, no original to put back. */
export function isEmptyLock(lock: LockFile): boolean {
  return lock.installs.length === 0 && Object.keys(lock.originals ?? {}).length === 0;
}
