/**
 * The lock: what `loadout install` put into a project (`loadout.lock.json` at its root) or
 * into the user's folders (`~/.config/loadout/lock.json`, issue 12 point 5), so an install
 * can be repeated exactly (`--frozen`), updated, checked for drift and removed, and a file the
 * user edited since is never overwritten without `--force` (DESIGN.md section 8).
 * Deterministic: no timestamps, entries sorted.
 *
 * A lock is read as untrusted input (it may come with a cloned repository): every field that
 * becomes part of a path is checked here (ids, agents, versions, hashes), and every target
 * and folder must pass rules 1 and 2 of `target-rules.ts`; where a target really lands is
 * checked again before anything is written or removed.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { isAgent, ROLES, SLUG_PATTERN, VERSION_PATTERN, type Agent, type Role } from '../../catalogue/vocabulary.js';
import { describeTargetProblem } from '../../layout/target-rules.js';

/** The project lock file's name, at the project root. */
export const LOCK_FILE = 'loadout.lock.json';

/** The user lock, relative to the home folder (issue 12 point 5). */
export const USER_LOCK_FILE = '.config/loadout/lock.json';

/** One file an install owns. */
export interface LockedFile {
  /** Where it was written, relative to the project root (or the home folder for the user scope). */
  target: string;
  /** The loadout file it came from. */
  path: string;
  /** Its role (absent in locks written before roles were recorded). */
  role?: Role;
  /** sha256 of the bytes written (for a merged MCP configuration file: of the loadout file). */
  sha256: string;
  /**
   * For an MCP configuration merged into a shared file (`.mcp.json`, `.cursor/mcp.json`,
   * `.gemini/settings.json`): the servers this install added, name → sha256 of the server's
   * canonical JSON (`mcp-merge.ts`). The file's other content is not the install's.
   */
  servers?: Record<string, string>;
}

/** One installed loadout for one agent. */
export interface LockEntry {
  id: string;
  agent: Agent;
  version: string;
  /** The catalogue it came from (base URL or absolute folder). */
  source: string;
  /** Every file written, by target. */
  files: LockedFile[];
  /** Folders the install created, deepest last; uninstall removes those left empty. */
  folders?: string[];
}

/** What the lock keeps of a signed catalogue (docs/signing.md): the key ids it trusts and the newest snapshot time seen. */
export interface LockedTrust {
  keyids: string[];
  /** ISO 8601 UTC `generated_at` of the newest signed snapshot accepted (older ones are refused as rollbacks). */
  generated_at: string;
}

/** The lock document. */
export interface LockFile {
  lockfileVersion: 1;
  installs: LockEntry[];
  /** Signed catalogues by source (base URL or absolute folder, as in {@link LockEntry.source}); absent until one is used. */
  trust?: Record<string, LockedTrust>;
}

const SHA256 = /^[0-9a-f]{64}$/u;
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const show = (value: unknown): string => {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 80 ? `${json.slice(0, 79)}…` : json;
};

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
    const servers = file['servers'];
    if (servers !== undefined && !(isObject(servers) && Object.values(servers).every((h) => typeof h === 'string' && SHA256.test(h)))) problems.push(`${where}.servers is ${show(servers)} (expected an object of server name: sha256)`);
    return undefined;
  });
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
 * Parses and checks a lock document; `where` names it in messages.
 * @throws LoadoutError `invalid_content` naming the first problem (field and what was expected)
 */
export function parseLock(text: string, where: string): LockFile {
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
    problems.push(...trustProblems(doc['trust']));
  }
  if (problems.length > 0) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw new LoadoutError('invalid_content', `${where} is not a loadout lock file: ${problems[0] ?? ''}${more}; nothing was changed`, { hint: 'Fix or delete it; a lock that names paths outside the project or in .git is never acted on.' });
  }
  return doc as unknown as LockFile;
}

/**
 * Reads the lock at `lockPath` (relative to `root`); an empty one when there is none.
 * @throws LoadoutError `invalid_content` (see {@link parseLock}), `io`
 */
export async function readLock(root: string, lockPath = LOCK_FILE): Promise<LockFile> {
  const path = join(root, ...lockPath.split('/'));
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lockfileVersion: 1, installs: [] };
    throw new LoadoutError('io', `cannot read ${path}`, { cause: error });
  }
  return parseLock(text, path);
}

/** `lock` with `entries` replacing those of the same (id, agent), and `removed` (id, agent) pairs dropped; sorted. Pure. */
export function withEntries(lock: LockFile, entries: readonly LockEntry[], removed: readonly { id: string; agent: string }[] = []): LockFile {
  const same = (a: { id: string; agent: string }, b: { id: string; agent: string }): boolean => a.id === b.id && a.agent === b.agent;
  const installs = [...lock.installs.filter((e) => !entries.some((n) => same(n, e)) && !removed.some((r) => same(r, e))), ...entries];
  installs.sort((a, b) => (a.id === b.id ? (a.agent < b.agent ? -1 : 1) : a.id < b.id ? -1 : 1));
  return { ...lock, lockfileVersion: 1, installs };
}

/** `lock` keeping `trust` for the catalogue `source` (nothing changes when `trust` is undefined: an unsigned catalogue); sources sorted. Pure. */
export function withTrust(lock: LockFile, source: string, trust: LockedTrust | undefined): LockFile {
  if (trust === undefined) return lock;
  const all = { ...lock.trust, [source]: { keyids: [...trust.keyids].sort(), generated_at: trust.generated_at } };
  return { ...lock, trust: Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : 1))) };
}

/** The lock document's text. */
export function lockText(lock: LockFile): string {
  return `${JSON.stringify(lock, null, 2)}\n`;
}

/**
 * Writes `text` to `path` through a temporary file beside it and one rename, so a reader sees
 * the old or the new file whole. Creates the folder.
 * @throws the file system's error (the temporary file removed)
 */
export async function writeFileAtomic(path: string, text: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** The sha256 the lock recorded for `target` (any install), or undefined. */
export function lockedHash(lock: LockFile, target: string): string | undefined {
  for (const entry of lock.installs) {
    const file = entry.files.find((f) => f.target === target);
    if (file !== undefined) return file.sha256;
  }
  return undefined;
}

/** The lock entries, other than `except`, that own `target`. */
export function otherOwners(lock: LockFile, target: string, except: { id: string; agent: string }): LockEntry[] {
  return lock.installs.filter((e) => !(e.id === except.id && e.agent === except.agent) && e.files.some((f) => f.target === target));
}
