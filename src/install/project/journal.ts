/**
 * The journal of a change being applied to a project (`transaction.ts`), so that a process
 * killed at any moment (`kill -9`, a power cut aside: nothing is fsynced) leaves a state that
 * `status` reports and the next command rolls back (issue 35, point 8; the write-ahead log of
 * databases, SQLite's rollback journal: https://www.sqlite.org/atomiccommit.html). Before the
 * first folder, temporary file or rename, the transaction creates `<lock>.journal` beside the
 * lock (exclusively, never through a link: `project-root.ts`): for every target (the lock
 * included) its bytes before (base64, or none), the sha256 of its bytes after (or none:
 * removed), and its temporary file; and the folders it creates. The journal goes when the lock
 * is in place.
 *
 * How the transaction leaves evidence of what it did, so that recovery acts on that alone
 * (issue 53, point 6): a file it creates is its temporary file's second name (a hard link)
 * until the lock is in place; a file it removes is renamed to its temporary name until then,
 * and the journal records that file's identity (device and inode) before; a file it replaces
 * gets the temporary file renamed over it. A cloned repository can commit files, not hard
 * links nor inode numbers, so it cannot forge that evidence.
 *
 * Recovery: when the lock on disk is the lock after, the change was complete (only the journal
 * was left): the temporary files and the removed files set aside go, then the journal.
 * Otherwise, for every target: a file the change created goes only when it is still the same
 * file as its temporary file; a file the change removed comes back only by renaming back the
 * file it set aside, when that is still the same file and holds the bytes before; a file it replaced gets its bytes before
 * back only when it holds exactly the bytes the change wrote. So recovery never creates a file
 * the change did not remove, never deletes one it did not create, and puts back only bytes it
 * names where its own bytes stand. Then the temporary files and the created folders (when
 * empty) go, then the journal. Temporary files go by their name: the one thing a committed
 * journal can make recovery delete is a file named as the transaction names them, beside one
 * of its targets.
 *
 * A journal is read as untrusted input, like a lock (it may come with a cloned repository):
 * it must be a regular file; every target passes rules 1 to 3 of `target-rules.ts` and the
 * protected-paths rule (`layout/protected-paths.ts`: only an MCP configuration whose servers
 * are merged, never an agent's settings or hooks); a temporary file is named as the
 * transaction names them, beside its target, and is a file or nothing; every folder is one of
 * a temporary file's folders. A journal that says anything else is refused as a whole
 * (`UnusableJournal`, naming what and why, and `loadout recover --set-aside`), and so is one
 * whose recovery fails. A journal that is not JSON (cut short by the kill while it was
 * written: nothing else was touched yet) is removed.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { showValue as show } from '../../catalogue/show-value.js';
import { findProtectedPlace, isMergeableMcpTarget } from '../../layout/protected-paths.js';
import { describeTargetProblem } from '../../layout/target-rules.js';
import { ConsumerError } from '../errors.js';
import { backupRootOf, interruptedRootOf, USER_LOCK_FILE } from './lock.js';
import { RefusedPath, TEMPORARY_NAME, type PathOptions, type ProjectRoot } from './project-root.js';

/** One target of a journal; paths relative to the project's real root, `/`-separated. */
export interface JournalFile {
  target: string;
  /** Base64 of the bytes before the change; absent when there was no file. */
  before?: string;
  /** sha256 (hex) of the bytes the change writes; absent when the change removes the file. */
  after?: string;
  /** The temporary file: the new bytes before they are in place (a created file's second name until the commit), or the removed file set aside. */
  temp?: string;
  /** For a file the change removes: its identity (`<device>:<inode>`) when the journal was written, which the file set aside must still have to be renamed back. */
  inode?: string;
}

/** What a change is about to do. */
export interface Journal {
  loadoutJournal: 1;
  files: JournalFile[];
  /** Folders the change creates, outermost first. */
  folders: string[];
}

/** What {@link recoverInterrupted} found and did. */
export interface Recovery {
  /** `completed`: only the journal was left; `rolled-back`: the project is back as it was before the change; `unreadable`: a journal cut short, removed. */
  outcome: 'completed' | 'rolled-back' | 'unreadable';
  /** Targets put back. */
  restored: string[];
  /** Targets left as they are: their state is neither the one before nor the one the change left (changed since, or not the change's). */
  kept: string[];
}

/** The journal of the lock at `lockPath`: beside it. */
export const journalPathOf = (lockPath: string): string => `${lockPath}.journal`;

/** The most bytes a journal may hold (it carries the bytes before of every file a change touches); a larger one is refused unread. */
export const JOURNAL_MAX_BYTES = 256 * 1024 * 1024;

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const SHA256 = /^[0-9a-f]{64}$/u;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/u;
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * True when `path` is one of the installer's own files or folders for the lock at `lockPath`
 * (the lock, its journal, the backup and set-aside folders with everything below them and the
 * folders above them, and their temporary files): `project-root.ts`, rule 3.
 */
export function isOwnPath(lockPath: string, path: string): boolean {
  const plain = path.replace(TEMPORARY_NAME, '');
  const folders = [backupRootOf(lockPath), interruptedRootOf(lockPath)];
  return plain === lockPath || plain === journalPathOf(lockPath) || folders.some((folder) => plain === folder || plain.startsWith(`${folder}/`) || folder.startsWith(`${plain}/`));
}

const ownOf = (lockPath: string, path: string): PathOptions => ({ own: isOwnPath(lockPath, path) });

/** How to set an unusable journal aside, for the hint of {@link unusableJournal}. */
const setAsideHint = (lockPath: string): string =>
  `\`loadout recover --set-aside${lockPath === USER_LOCK_FILE ? ' --global' : ''}\` (with the same --dir) moves it and its temporary files to ${interruptedRootOf(lockPath)}/<time>/ and says what it moved; look at them, then run the command again.`;

/**
 * The error for a journal that cannot be acted on: names it, says why, and names the command
 * that sets it aside. `changed` says whether recovery had changed anything before it failed.
 */
export function unusableJournal(lockPath: string, why: string, cause?: unknown, changed = false): ConsumerError {
  const after = changed ? 'recovery stopped there, and what it had not reached was left as it was' : 'nothing was changed';
  return new ConsumerError('UnusableJournal', `${journalPathOf(lockPath)} cannot be used: ${why}; ${after}`, { hint: setAsideHint(lockPath), ...(cause === undefined ? {} : { cause }) });
}

/**
 * Writes `journal` for the lock at `lockPath`: created exclusively, never through a link
 * (issue 53, point 2), after the lock's folder (the user scope's `.config/loadout/`). Written in
 * place: a journal cut short is unreadable, and nothing else is touched before it is whole.
 * @throws LoadoutError `io` naming the journal (anything already at its place included)
 */
export async function writeJournal(project: ProjectRoot, lockPath: string, journal: Journal): Promise<void> {
  const path = journalPathOf(lockPath);
  try {
    const folder = posix.dirname(path);
    if (folder !== '.') await project.mkdirs(folder, { own: true });
    await project.createExclusive(path, `${JSON.stringify(journal)}\n`, { own: true });
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'EEXIST' ? `${path} is already there (another install, update or uninstall may be running)` : (error as Error).message;
    throw new LoadoutError('io', `cannot write ${path}: ${why}; nothing was changed`, { cause: error });
  }
}

/** Removes the journal of the lock at `lockPath` (a file the transaction created). */
export async function removeJournal(project: ProjectRoot, lockPath: string): Promise<void> {
  await project.remove(journalPathOf(lockPath), { own: true });
}

/** The problems of one file entry, each naming its field. */
async function fileProblems(project: ProjectRoot, lockPath: string, file: unknown, at: string): Promise<string[]> {
  if (!isObject(file)) return [`${at} is ${show(file)} (expected an object)`];
  const { target, before, after, temp } = file;
  if (before !== undefined && !(typeof before === 'string' && BASE64.test(before))) return [`${at}.before is ${show(before)} (expected base64)`];
  if (after !== undefined && !(typeof after === 'string' && SHA256.test(after))) return [`${at}.after is ${show(after)} (expected 64 lowercase hex digits)`];
  if (file['inode'] !== undefined && !(typeof file['inode'] === 'string' && /^\d{1,40}:\d{1,40}$/u.test(file['inode']))) return [`${at}.inode is ${show(file['inode'])} (expected <device>:<inode>)`];
  const form = describeTargetProblem(target);
  if (form !== undefined) return [`${at}.target ${show(target)} ${form}`];
  const path = target as string;
  // Only an MCP configuration whose servers are merged: never a settings or hooks file, whose writing --force does not allow either.
  const place = findProtectedPlace(path);
  if (place !== undefined && !isMergeableMcpTarget('mcp', path)) return [`${at}.target ${path} is ${place.what}, which an install never writes whole, so no change of the installer can have touched it (expected the agents' own folders and files, or an MCP configuration whose servers are merged)`];
  const landing = await project.describeLanding(path, ownOf(lockPath, path));
  if (landing !== undefined) return [`${at}.target ${path} ${landing}`];
  if (temp === undefined) return [];
  if (!(typeof temp === 'string' && TEMPORARY_NAME.test(temp) && describeTargetProblem(temp) === undefined)) return [`${at}.temp is ${show(temp)} (expected <target>.loadout-<pid>-<8 hex>.tmp)`];
  const beside = temp.replace(TEMPORARY_NAME, '');
  if (beside !== path && beside !== (await project.placeOf(path).catch(() => path))) return [`${at}.temp ${temp} is not beside ${path} (expected ${path}.loadout-<pid>-<8 hex>.tmp, or beside the file a link there points to)`];
  const kind = await project.kindOf(temp, ownOf(lockPath, temp)).catch((error: unknown) => (error instanceof LoadoutError ? error.message : String(error)));
  if (kind === 'folder' || kind === 'other') return [`${at}.temp ${temp} is ${kind === 'folder' ? 'a folder' : 'neither a file nor a link'} (expected a temporary file of the change, or nothing)`];
  if (typeof kind === 'string' && kind !== 'file' && kind !== 'link') return [`${at}.temp ${kind}`];
  return [];
}

/**
 * The checked journal `doc` (see the module comment).
 * @throws ConsumerError `UnusableJournal` naming the first problem
 */
async function checkJournal(project: ProjectRoot, lockPath: string, doc: unknown): Promise<Journal> {
  if (!isObject(doc) || doc['loadoutJournal'] !== 1 || !Array.isArray(doc['files']) || !Array.isArray(doc['folders'])) throw unusableJournal(lockPath, 'it is not a journal of this installer (expected {"loadoutJournal": 1, "files": [...], "folders": [...]})');
  const files = doc['files'] as unknown[];
  const problems = (await Promise.all(files.map((file, i) => fileProblems(project, lockPath, file, `files[${i}]`)))).flat();
  const temps = files.flatMap((file) => (isObject(file) && typeof file['temp'] === 'string' ? [file['temp']] : []));
  (doc['folders'] as unknown[]).forEach((folder, i) => {
    const form = describeTargetProblem(folder);
    if (form !== undefined) problems.push(`folders[${i}] ${show(folder)} ${form}`);
    else if (!temps.some((temp) => temp.startsWith(`${folder as string}/`))) problems.push(`folders[${i}] ${folder as string} holds none of the journal's temporary files (expected only folders the change made for them)`);
  });
  if (problems.length > 0) throw unusableJournal(lockPath, `${problems[0] ?? ''}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`);
  return doc as unknown as Journal;
}

/**
 * Puts back what the change of `journal` did (see the module comment), and removes its
 * temporary files and the created folders left empty; used by the transaction when a step
 * fails and by {@link recoverInterrupted}. A target whose state is not the change's is left as
 * it is and returned in `kept`.
 * @throws the handle's errors (a path refused, a file that cannot be changed)
 */
export async function rollBack(project: ProjectRoot, lockPath: string, journal: Journal): Promise<Pick<Recovery, 'restored' | 'kept'>> {
  const restored: string[] = [];
  const kept: string[] = [];
  for (const file of [...journal.files].reverse()) {
    const own = ownOf(lockPath, file.target);
    const before = file.before === undefined ? undefined : Buffer.from(file.before, 'base64');
    // A removed file set aside is the user's: it is never deleted here, only renamed back.
    const setAside = file.after === undefined;
    if (file.after !== undefined && before === undefined) {
      // Created: only the file that is still its temporary file's second name goes.
      if (file.temp !== undefined && (await project.sameFile(file.target, file.temp, own))) {
        await project.remove(file.target, own);
        restored.push(file.target);
      } else if ((await project.kindOf(file.target, own)) !== undefined) kept.push(file.target);
    } else if (file.after !== undefined && before !== undefined) {
      // Replaced: the bytes before come back only where the bytes the change wrote stand.
      const now = await project.read(file.target, own);
      const current = now === undefined ? undefined : sha256(now);
      if (current === file.after) {
        await project.writeFileAtomic(file.target, before, own);
        restored.push(file.target);
      } else if (current !== sha256(before)) kept.push(file.target);
    } else if (before !== undefined && (await project.kindOf(file.target, own)) === undefined) {
      // Removed: only the file the change set aside comes back (the same file, with the bytes before).
      const same = file.temp !== undefined && file.inode !== undefined && (await project.identify(file.temp, own)) === file.inode;
      const aside = same && file.temp !== undefined ? await project.read(file.temp, own).catch(() => undefined) : undefined;
      if (file.temp !== undefined && aside !== undefined && sha256(aside) === sha256(before)) {
        await project.rename(file.temp, file.target, own);
        restored.push(file.target);
      } else kept.push(file.target);
    }
    if (file.temp !== undefined && !setAside) await project.remove(file.temp, own);
  }
  for (const folder of [...journal.folders].reverse()) await project.removeEmptyFolder(folder, ownOf(lockPath, folder));
  return { restored: restored.reverse(), kept: kept.reverse() };
}

/** Removes the temporary files of a change that is complete: the second names of created files, and the removed files set aside. */
async function finishComplete(project: ProjectRoot, lockPath: string, journal: Journal): Promise<void> {
  for (const file of journal.files) if (file.temp !== undefined) await project.remove(file.temp, ownOf(lockPath, file.temp));
}

/** The journal's bytes, or undefined when there is none. @throws ConsumerError `UnusableJournal` (a link, folder, FIFO or device at its place, or a link on its way; too large) */
async function readJournal(project: ProjectRoot, lockPath: string): Promise<Uint8Array | undefined> {
  try {
    return await project.read(journalPathOf(lockPath), { own: true, max: JOURNAL_MAX_BYTES });
  } catch (error) {
    if (error instanceof RefusedPath) throw unusableJournal(lockPath, `it ${error.problem}`, error);
    const message = error instanceof LoadoutError ? error.message.replace(`${journalPathOf(lockPath)} `, '').replace(/; nothing was read$/u, '') : (error as Error).message;
    throw unusableJournal(lockPath, `it ${message} (expected a regular file, or nothing)`, error);
  }
}

/**
 * The journal of the lock at `lockPath` read and checked, without acting on it: undefined when
 * there is none, `unreadable` for one that is not JSON (cut short). Reads only.
 * @throws ConsumerError `UnusableJournal` (see the module comment)
 */
export async function readCheckedJournal(project: ProjectRoot, lockPath: string): Promise<Journal | 'unreadable' | undefined> {
  const bytes = await readJournal(project, lockPath);
  if (bytes === undefined) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return 'unreadable';
  }
  return checkJournal(project, lockPath, doc);
}

/**
 * Finishes what a killed change left (see the module comment), for the lock at `lockPath`:
 * undefined when there is no journal.
 * @throws ConsumerError `UnusableJournal` naming the journal and why (it is not a regular file,
 *   names what its change cannot have touched, or its recovery failed), with the command that
 *   sets it aside
 */
export async function recoverInterrupted(project: ProjectRoot, lockPath: string): Promise<Recovery | undefined> {
  const journal = await readCheckedJournal(project, lockPath);
  if (journal === undefined) return undefined;
  if (journal === 'unreadable') {
    await removeJournal(project, lockPath);
    return { outcome: 'unreadable', restored: [], kept: [] };
  }
  try {
    const lockEntry = journal.files.find((f) => f.target === lockPath);
    const lockNow = await project.read(lockPath, { own: true });
    const complete = lockEntry !== undefined && (lockNow === undefined ? lockEntry.after === undefined : sha256(lockNow) === lockEntry.after);
    if (complete) {
      await finishComplete(project, lockPath, journal);
      await removeJournal(project, lockPath);
      return { outcome: 'completed', restored: [], kept: [] };
    }
    const result = await rollBack(project, lockPath, journal);
    await removeJournal(project, lockPath);
    return { outcome: 'rolled-back', ...result };
  } catch (error) {
    throw unusableJournal(lockPath, `recovering it failed: ${(error as Error).message}`, error, true);
  }
}

/**
 * A one-line description of an interrupted change for `status`, or undefined when the lock at
 * `lockPath` has no journal: what the next command does, or why the journal cannot be used and
 * what to run. Reads only.
 * @throws the handle's errors other than an unusable journal
 */
export async function describeInterrupted(project: ProjectRoot, lockPath: string): Promise<string | undefined> {
  try {
    if ((await readCheckedJournal(project, lockPath)) === undefined) return undefined;
  } catch (error) {
    if (error instanceof ConsumerError && error.name === 'UnusableJournal') return `${error.message.replace(/; nothing was changed$/u, '')}: ${error.hint ?? ''}`;
    throw error;
  }
  return `${journalPathOf(lockPath)} is there: an install, update or uninstall was interrupted; the next install, update or uninstall rolls it back (or finishes it, when only the journal was left)`;
}
