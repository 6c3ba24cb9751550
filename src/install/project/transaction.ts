/**
 * Applying a set of file changes and the new lock together (the lock changes atomically with
 * the files, so it always records what the project holds; DESIGN.md section 8): every new file
 * is first written beside its target as a temporary file (created exclusively, never through a
 * link: `project-root.ts`); only when all are written are they put in place, the removed files
 * set aside and the lock replaced (through its own temporary file). When a step fails, every
 * target already changed gets its old state back, the temporary files and the folders this
 * change created are removed, and the error is thrown: the project holds the old files and the
 * old lock, or the new files and the new lock. A process killed at any step (`kill -9`) leaves
 * the journal written before the first change (`journal.ts`): `status` reports it, and the next
 * install, update or uninstall rolls the change back (or finishes it, when only the journal was
 * left) before it reads the lock (issue 35, point 8).
 *
 * How each change is made, so that recovery can tell what the change did (`journal.ts`;
 * issue 53, point 6): a new file is linked into place as its temporary file's second name
 * (which fails if anything appeared there meanwhile), a replaced file gets its temporary file
 * renamed over it, and a removed file is renamed to its temporary name; after the lock is in
 * place, the temporary names go.
 *
 * Every path, the lock's, the journal's and the backups' included, goes through the project's
 * handle, which checks it again at the moment of use; every target is also checked here first,
 * whoever planned it: rules 1 to 3 of `target-rules.ts`.
 */
import { LoadoutError } from '../../catalogue/errors.js';
import { describeTargetProblem } from '../../layout/target-rules.js';
import { checkpoint } from './crash-points.js';
import { isOwnPath, journalPathOf, removeJournal, rollBack, sha256, writeJournal, type Journal } from './journal.js';
import { lockText, type LockFile } from './lock.js';
import { temporaryNameOf, type ProjectRoot } from './project-root.js';

/** One change: write `bytes` at `target`, or remove `target`. Targets are relative to the root. */
export type FileChange = { target: string; bytes: Uint8Array } | { target: string; remove: true };

/** What {@link applyChanges} did. */
export interface AppliedChanges {
  /** Folders of `prune` that were left empty and removed. */
  pruned: string[];
}

/**
 * The folders that writing each of `targets` would create in `project` (relative, outermost
 * first), so the lock can record them before anything is written. Targets must have passed
 * rules 1 to 3.
 * @throws RefusedPath (`project-root.ts`)
 */
export async function foldersToCreate(project: ProjectRoot, targets: readonly string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  for (const target of targets) {
    const segments = target.split('/').slice(0, -1);
    const missing: string[] = [];
    for (let i = segments.length; i > 0; i--) {
      const folder = segments.slice(0, i).join('/');
      if ((await project.kindOf(folder, { follow: true })) !== undefined) break;
      missing.unshift(folder);
    }
    if (missing.length > 0) result.set(target, missing);
  }
  return result;
}

/** The message of a failed step, for the user. */
function describeFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTDIR') return 'a file of the project stands where a folder is needed';
  if (code === 'EISDIR') return 'the project has a folder there';
  // The handle's EEXIST errors say what is there; the file system's own do not.
  if (code === 'EEXIST') return (error as Error).message.startsWith('EEXIST: file already exists') ? 'something appeared in the project where a file or folder was to be created' : (error as Error).message.replace(/^EEXIST: /u, '');
  return (error as Error).message;
}

/**
 * Applies `changes` in `project` and writes `lock` at `lockPath`, or removes the lock file when
 * `lock` is null (it records nothing); then removes each folder of `prune` (relative) that is
 * left empty, deepest first.
 * @throws LoadoutError `invalid_content` when a target breaks rules 1 to 3 (nothing changed);
 *   `io` when a write fails (everything restored as it was)
 */
export async function applyChanges(project: ProjectRoot, changes: readonly FileChange[], lock: LockFile | null, lockPath: string, prune: readonly string[] = []): Promise<AppliedChanges> {
  const own = (path: string): { own: boolean } => ({ own: isOwnPath(lockPath, path) });
  const targets = [...changes.map((c) => c.target), lockPath, ...prune];
  // Read-only checks and reads run together; the first problem in target order is reported.
  const problems = await Promise.all(targets.map(async (target) => describeTargetProblem(target) ?? (await project.describeLanding(target, own(target)))));
  problems.forEach((problem, i) => {
    if (problem !== undefined) throw new LoadoutError('invalid_content', `${targets[i]} ${problem}; nothing was changed`, { hint: '--force does not change this.' });
  });
  // The lock is the last change: its rename is the commit point of the journal.
  const lockChange: FileChange = lock === null ? { target: lockPath, remove: true } : { target: lockPath, bytes: Buffer.from(lockText(lock)) };
  const all = [...changes, lockChange];
  // The bytes before, of every target and of the lock: what a rollback puts back (journal.ts).
  const before = new Map(await Promise.all(all.map(async (c) => [c.target, await project.read(c.target, own(c.target))] as const)));
  // A write to a symbolic link inside the project goes to the file it points to: the link stays (project-root.ts, placeOf).
  const place = new Map(await Promise.all(all.map(async (c) => [c.target, 'bytes' in c && !own(c.target).own ? await project.placeOf(c.target) : c.target] as const)));
  const placeOf = (target: string): string => place.get(target) ?? target;
  // A removed file is set aside under a temporary name beside it (the link itself, when it is one).
  const temps = new Map(all.filter((c) => 'bytes' in c || before.get(c.target) !== undefined).map((c) => [c.target, temporaryNameOf('bytes' in c ? placeOf(c.target) : c.target)]));
  const writes = all.filter((c): c is Extract<FileChange, { bytes: Uint8Array }> => 'bytes' in c);
  // The identity of each file a removal sets aside: the evidence recovery needs to rename it back (journal.ts).
  const inodes = new Map(await Promise.all(all.filter((c) => !('bytes' in c) && temps.has(c.target)).map(async (c) => [c.target, await project.identify(c.target, own(c.target))] as const)));
  const folders = [...new Set([...(await foldersToCreate(project, writes.map((c) => temps.get(c.target) as string))).values()].flat())].sort((a, b) => a.split('/').length - b.split('/').length);
  const journal: Journal = {
    loadoutJournal: 1,
    files: all.map((c) => {
      const old = before.get(c.target);
      const temp = temps.get(c.target);
      const inode = inodes.get(c.target);
      return { target: c.target, ...(old === undefined ? {} : { before: Buffer.from(old).toString('base64') }), ...('bytes' in c ? { after: sha256(c.bytes) } : {}), ...(temp === undefined ? {} : { temp }), ...(inode === undefined ? {} : { inode }) };
    }),
    folders,
  };
  // Nothing is touched before the journal is whole (journal.ts): a kill from here on is rolled back by the next command.
  await writeJournal(project, lockPath, journal);
  checkpoint();
  try {
    for (const folder of folders) {
      await project.mkdirs(folder, own(folder));
      checkpoint();
    }
    // The temporary files are written together; nothing is in place until the steps below.
    const written = await Promise.allSettled(writes.map((c) => project.createExclusive(temps.get(c.target) as string, c.bytes, own(c.target))));
    const failed = written.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    checkpoint();
    for (const change of all) {
      const temp = temps.get(change.target);
      if (temp !== undefined && 'bytes' in change) {
        // A new file is its temporary file's second name until the commit; a replaced one gets the temporary file renamed over it.
        if (before.get(change.target) === undefined) await project.linkExclusive(temp, placeOf(change.target), own(change.target));
        else await project.rename(temp, placeOf(change.target), own(change.target));
      } else if (temp !== undefined) await project.rename(change.target, temp, own(change.target));
      checkpoint();
    }
  } catch (error) {
    // When the rollback itself fails, the journal stays: status reports it and the next command tries again.
    const undone = await rollBack(project, lockPath, journal).then(
      () => true,
      () => false,
    );
    if (undone) await removeJournal(project, lockPath).catch(() => undefined);
    const after = undone ? 'every file and the lock were left as they were' : `putting every file back failed too: ${journalPathOf(lockPath)} records what the next install, update or uninstall puts back`;
    if (error instanceof LoadoutError) throw undone ? error : new LoadoutError(error.code, `${error.message}; ${after}`, { cause: error, ...(error.hint === undefined ? {} : { hint: error.hint }) });
    throw new LoadoutError('io', `cannot write the install: ${describeFailure(error)}; ${after}`, { cause: error });
  }
  // Committed: the temporary names go (a created file keeps its own name; a removed file goes for good).
  for (const change of all) {
    const temp = temps.get(change.target);
    if (temp !== undefined && !('bytes' in change && before.get(change.target) !== undefined)) await project.remove(temp, own(change.target));
  }
  checkpoint();
  await removeJournal(project, lockPath);
  checkpoint();

  const pruned: string[] = [];
  for (const folder of [...new Set(prune)].sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? 1 : -1))) {
    // Only an empty folder is removed: a folder holding anything of the user's stays.
    if (await project.removeEmptyFolder(folder, own(folder))) pruned.push(folder);
  }
  return { pruned };
}
