/**
 * The journal of a change being applied to a project (`transaction.ts`), so that a process
 * killed at any moment (`kill -9`, a power cut aside: nothing is fsynced) leaves a state that
 * `status` reports and the next command rolls back (issue 35, point 8; the write-ahead log of
 * databases, SQLite's rollback journal: https://www.sqlite.org/atomiccommit.html). Before the
 * first folder, temporary file or rename, the transaction writes `<lock>.journal` beside the
 * lock: for every target (the lock included) its bytes before (base64, or none), the sha256
 * of its bytes after (or none: removed), and its temporary file; and the folders it creates.
 * The journal goes when the lock is in place.
 *
 * Recovery: when the lock on disk is the lock after, the change was complete (only the journal
 * was left): the journal and any temporary file go. Otherwise every target whose bytes are
 * those the change wrote gets its bytes before back (a file the change created goes), the
 * temporary files and the created folders (when empty) go, then the journal.
 *
 * A journal is read as untrusted input, like a lock (it may come with a cloned repository):
 * every path passes rules 1 to 3 of `target-rules.ts`, a temporary file must be named as the
 * transaction names them, and a file is only ever changed back when its bytes are exactly the
 * bytes the journal says were written; so a journal can do no more than put back bytes it
 * names where its own bytes stand. A journal that cannot be read (cut short by the kill while
 * it was written: nothing else was touched yet) is removed.
 */
import { createHash } from 'node:crypto';
import { mkdir, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { describeLandingProblem, describeTargetProblem } from '../../layout/target-rules.js';
import { writeFileAtomic } from './lock.js';
import { readProjectFile, writePathOf } from './project-file.js';

/** One target of a journal; paths relative to the project's real root, `/`-separated. */
export interface JournalFile {
  target: string;
  /** Base64 of the bytes before the change; absent when there was no file. */
  before?: string;
  /** sha256 (hex) of the bytes the change writes; absent when the change removes the file. */
  after?: string;
  /** The temporary file the new bytes are written to before the rename. */
  temp?: string;
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
  /** Targets left as they are: their bytes are neither those before nor those the change wrote (changed since). */
  kept: string[];
}

/** The journal of the lock at `lockPath`: beside it. */
export const journalPathOf = (lockPath: string): string => `${lockPath}.journal`;

/** The names the transaction gives its temporary files: `<file>.loadout-<pid>-<8 hex>.tmp`. */
export const TEMPORARY_NAME = /\.loadout-\d+-[0-9a-f]{8}\.tmp$/u;

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
const SHA256 = /^[0-9a-f]{64}$/u;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/u;
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Writes `journal` for the lock at `lockPath` under the real root `real`. Written in place (not
 * through a temporary file): a journal cut short is unreadable, and nothing else is touched
 * before it is whole.
 */
export async function writeJournal(real: string, lockPath: string, journal: Journal): Promise<void> {
  const path = join(real, ...journalPathOf(lockPath).split('/'));
  // The lock's folder (the user scope's `.config/loadout/`) is made first when it is missing.
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(journal)}\n`);
}

/** Removes the journal of the lock at `lockPath`. */
export async function removeJournal(real: string, lockPath: string): Promise<void> {
  await rm(join(real, ...journalPathOf(lockPath).split('/')), { force: true });
}

/** The checked journal in `text`, or undefined when it is not one (see the module comment). */
async function parseJournal(real: string, text: string): Promise<Journal | undefined> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(doc) || doc['loadoutJournal'] !== 1 || !Array.isArray(doc['files']) || !Array.isArray(doc['folders'])) return undefined;
  const paths: unknown[] = [...doc['folders']];
  for (const file of doc['files'] as unknown[]) {
    if (!isObject(file)) return undefined;
    const { target, before, after, temp } = file;
    if (before !== undefined && !(typeof before === 'string' && BASE64.test(before))) return undefined;
    if (after !== undefined && !(typeof after === 'string' && SHA256.test(after))) return undefined;
    if (temp !== undefined && !(typeof temp === 'string' && TEMPORARY_NAME.test(temp))) return undefined;
    paths.push(target, ...(temp === undefined ? [] : [temp]));
  }
  for (const path of paths) if (typeof path !== 'string' || describeTargetProblem(path) !== undefined || (await describeLandingProblem(real, path)) !== undefined) return undefined;
  return doc as unknown as Journal;
}

/**
 * Puts back every target of `journal` whose bytes are those the change wrote, and removes the
 * temporary files and the created folders left empty. Never throws for one target: what
 * cannot be put back is returned in `kept`.
 */
export async function rollBack(real: string, journal: Journal): Promise<Pick<Recovery, 'restored' | 'kept'>> {
  const restored: string[] = [];
  const kept: string[] = [];
  for (const file of [...journal.files].reverse()) {
    if (file.temp !== undefined) await rm(join(real, ...file.temp.split('/')), { force: true }).catch(() => undefined);
    const now = await readProjectFile(real, file.target).catch(() => null);
    if (now === null) {
      kept.push(file.target);
      continue;
    }
    const current = now === undefined ? undefined : sha256(now);
    const before = file.before === undefined ? undefined : Buffer.from(file.before, 'base64');
    if (current === (before === undefined ? undefined : sha256(before))) continue;
    if (current !== file.after) {
      kept.push(file.target);
      continue;
    }
    try {
      if (before === undefined) await rm(join(real, ...file.target.split('/')), { force: true });
      else await writeFileAtomic(await writePathOf(real, file.target), before);
      restored.push(file.target);
    } catch {
      kept.push(file.target);
    }
  }
  for (const folder of [...journal.folders].reverse()) await rmdir(join(real, ...folder.split('/'))).catch(() => undefined);
  return { restored: restored.reverse(), kept: kept.reverse() };
}

/**
 * Finishes what a killed change left (see the module comment), for the lock at `lockPath`
 * under the real root `real`: undefined when there is no journal.
 * @throws LoadoutError `invalid_content` when the journal is a FIFO or device, `io`
 */
export async function recoverInterrupted(real: string, lockPath: string): Promise<Recovery | undefined> {
  const bytes = await readProjectFile(real, journalPathOf(lockPath));
  if (bytes === undefined) return undefined;
  const journal = await parseJournal(real, Buffer.from(bytes).toString('utf8'));
  if (journal === undefined) {
    await removeJournal(real, lockPath);
    return { outcome: 'unreadable', restored: [], kept: [] };
  }
  const lockEntry = journal.files.find((f) => f.target === lockPath);
  const lockNow = await readProjectFile(real, lockPath);
  const complete = lockEntry !== undefined && (lockNow === undefined ? lockEntry.after === undefined : sha256(lockNow) === lockEntry.after);
  if (complete) {
    for (const file of journal.files) if (file.temp !== undefined) await rm(join(real, ...file.temp.split('/')), { force: true });
    await removeJournal(real, lockPath);
    return { outcome: 'completed', restored: [], kept: [] };
  }
  const result = await rollBack(real, journal);
  await removeJournal(real, lockPath);
  return { outcome: 'rolled-back', ...result };
}

/**
 * A one-line description of an interrupted change for `status`, or undefined when the lock at
 * `lockPath` has no journal. Reads only.
 * @throws LoadoutError `invalid_content` when the journal is a FIFO or device, `io`
 */
export async function describeInterrupted(real: string, lockPath: string): Promise<string | undefined> {
  const bytes = await readProjectFile(real, journalPathOf(lockPath));
  if (bytes === undefined) return undefined;
  return `${journalPathOf(lockPath)} is there: an install, update or uninstall was interrupted; the next install, update or uninstall rolls it back (or finishes it, when only the journal was left)`;
}

/** The error when a change cannot be journaled. */
export function journalError(lockPath: string, error: unknown): LoadoutError {
  return new LoadoutError('io', `cannot write ${journalPathOf(lockPath)}: ${(error as Error).message}; nothing was changed`, { cause: error });
}
