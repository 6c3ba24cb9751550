/**
 * Applying a set of file changes and the new lock together (the lock changes atomically with
 * the files, so it always records what the project holds; DESIGN.md section 8): every new file
 * is first written beside its target as a temporary file; only when all are written are they
 * renamed into place, the removed files removed and the lock replaced (through its own
 * temporary file and rename). When a step fails, every target already changed gets its old
 * bytes back, the temporary files and the folders this change created are removed, and the
 * error is thrown: the project holds the old files and the old lock, or the new files and the
 * new lock. A process killed at any step (`kill -9`) leaves the journal written before the
 * first change (`journal.ts`): `status` reports it, and the next install, update or uninstall
 * rolls the change back (or finishes it, when only the journal was left) before it reads the
 * lock (issue 35, point 8).
 *
 * Every target is checked again here, whoever planned it: rules 1 to 3 of `target-rules.ts`.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { lockText, type LockFile } from './lock.js';
import { readProjectFile, writePathOf } from './project-file.js';
import { journalError, removeJournal, rollBack, sha256, writeJournal, type Journal } from './journal.js';
import { checkpoint } from './crash-points.js';
import { describeLandingProblem, describeTargetProblem, realProjectRoot } from '../../layout/target-rules.js';

/** One change: write `bytes` at `target`, or remove `target`. Targets are relative to the root. */
export type FileChange = { target: string; bytes: Uint8Array } | { target: string; remove: true };

/** What {@link applyChanges} did. */
export interface AppliedChanges {
  /** Folders of `prune` that were left empty and removed. */
  pruned: string[];
}

/**
 * The folders that writing each of `targets` would create under `root` (relative, outermost
 * first), so the lock can record them before anything is written. Targets must have passed
 * rules 1 to 3.
 */
export async function foldersToCreate(root: string, targets: readonly string[]): Promise<Map<string, string[]>> {
  const real = await realProjectRoot(root);
  const result = new Map<string, string[]>();
  for (const target of targets) {
    const segments = target.split('/').slice(0, -1);
    const missing: string[] = [];
    for (let i = segments.length; i > 0; i--) {
      const folder = segments.slice(0, i).join('/');
      const exists = await stat(join(real, ...segments.slice(0, i))).then(
        () => true,
        () => false,
      );
      if (exists) break;
      missing.unshift(folder);
    }
    if (missing.length > 0) result.set(target, missing);
  }
  return result;
}

const temporaryName = (path: string): string => `${path}.loadout-${process.pid}-${randomBytes(4).toString('hex')}.tmp`;

/**
 * Applies `changes` under `root` and writes `lock` at `lockPath` (relative to `root`), or
 * removes the lock file when `lock` is null (it records nothing); then removes each folder of
 * `prune` (relative) that is left empty, deepest first.
 * @throws LoadoutError `invalid_content` when a target breaks rules 1 to 3 (nothing changed);
 *   `io` when a write fails (everything restored as it was)
 */
export async function applyChanges(root: string, changes: readonly FileChange[], lock: LockFile | null, lockPath: string, prune: readonly string[] = []): Promise<AppliedChanges> {
  const real = await realProjectRoot(root);
  const targets = [...changes.map((c) => c.target), lockPath, ...prune];
  // Read-only checks and reads run together; the first problem in target order is reported.
  const problems = await Promise.all(targets.map(async (target) => describeTargetProblem(target) ?? (await describeLandingProblem(real, target))));
  problems.forEach((problem, i) => {
    if (problem !== undefined) throw new LoadoutError('invalid_content', `${targets[i]} ${problem}; nothing was changed`, { hint: '--force does not change this.' });
  });
  const absolute = (target: string): string => join(real, ...target.split('/'));
  // The bytes before, of every target and of the lock: what a rollback puts back (journal.ts).
  const backups = new Map<string, Uint8Array | undefined>(await Promise.all([...changes.map((c) => c.target), lockPath].map(async (target) => [target, await readProjectFile(real, target)] as const)));

  // A write to a symbolic link inside the project goes to the file it points to: the link stays (project-file.ts).
  const landing = new Map(await Promise.all(changes.filter((c) => 'bytes' in c).map(async (c) => [c.target, await writePathOf(real, c.target)] as const)));
  const writePath = (target: string): string => landing.get(target) ?? absolute(target);
  const inProject = (path: string): string => relative(real, path).split(sep).join('/');
  // The lock is the last change: its rename is the commit point of the journal.
  const lockChange: FileChange = lock === null ? { target: lockPath, remove: true } : { target: lockPath, bytes: Buffer.from(lockText(lock)) };
  const all = [...changes, lockChange];
  const temps = new Map(all.filter((c) => 'bytes' in c).map((c) => [c.target, temporaryName(writePath(c.target))]));
  const folders = [...new Set([...(await foldersToCreate(real, [...temps.keys()].map((t) => inProject(writePath(t))))).values()].flat())].sort((a, b) => a.split('/').length - b.split('/').length);
  const journal: Journal = {
    loadoutJournal: 1,
    files: all.map((c) => {
      const before = backups.get(c.target);
      const temp = temps.get(c.target);
      return { target: c.target, ...(before === undefined ? {} : { before: Buffer.from(before).toString('base64') }), ...('bytes' in c ? { after: sha256(c.bytes) } : {}), ...(temp === undefined ? {} : { temp: inProject(temp) }) };
    }),
    folders,
  };
  // Nothing is touched before the journal is whole (journal.ts): a kill from here on is rolled back by the next command.
  await writeJournal(real, lockPath, journal).catch((error: unknown) => {
    throw journalError(lockPath, error);
  });
  checkpoint();
  try {
    for (const folder of folders) {
      await mkdir(absolute(folder), { recursive: true });
      checkpoint();
    }
    // The temporary files are written together; nothing is in place until the renames below.
    const written = await Promise.allSettled(all.map((change) => ('bytes' in change ? writeFile(temps.get(change.target) as string, change.bytes) : undefined)));
    const failed = written.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    checkpoint();
    for (const change of all) {
      const temp = temps.get(change.target);
      if (temp !== undefined) await rename(temp, writePath(change.target));
      else await rm(absolute(change.target), { force: true });
      checkpoint();
    }
  } catch (error) {
    await rollBack(real, journal);
    await removeJournal(real, lockPath).catch(() => undefined);
    if (error instanceof LoadoutError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOTDIR' || code === 'EEXIST' ? 'a file of the project stands where a folder is needed' : code === 'EISDIR' ? 'the project has a folder there' : (error as Error).message;
    throw new LoadoutError('io', `cannot write the install: ${why}; every file and the lock were left as they were`, { cause: error });
  }
  await removeJournal(real, lockPath);
  checkpoint();

  const pruned: string[] = [];
  for (const folder of [...new Set(prune)].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? 1 : -1))) {
    // rmdir removes only an empty folder: a folder holding anything of the user's stays.
    const removed = await rmdir(absolute(folder)).then(
      () => true,
      () => false,
    );
    if (removed) pruned.push(folder);
  }
  return { pruned };
}
