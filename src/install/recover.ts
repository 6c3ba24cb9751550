/**
 * `loadout recover`: the journal an interrupted install, update or uninstall left
 * (`project/journal.ts`), dealt with on its own. Without `setAside` it does what the next
 * install, update or uninstall would do first (roll the change back, or finish it) and says so.
 * With `setAside` it acts on nothing the journal names: it moves the journal (whatever stands at
 * its place: a file, a folder, a link, which is moved and not followed) and the temporary files
 * the journal names to `<interruptedRoot>/<time>/` (`.loadout/interrupted/…` in a project,
 * `~/.config/loadout/interrupted/…` for the user scope), keeping their paths, and says what it
 * moved (issue 53, point 15). That is the way out of a journal that cannot be used
 * (`UnusableJournal`), which otherwise stops every install, update and uninstall; the files it
 * moved are the user's to look at, and nothing else of the project changes.
 */
import { posix } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import { describeTargetProblem } from '../layout/target-rules.js';
import { isOwnPath, journalPathOf, JOURNAL_MAX_BYTES, recoverInterrupted, type Recovery } from './project/journal.js';
import { RefusedPath, TEMPORARY_NAME, type ProjectRoot } from './project/project-root.js';
import { openScope, type InstallScope } from './project/scope.js';
import { freshRunFolder } from './run-plan.js';

/** Options of {@link recoverChange}. */
export interface RecoverOptions {
  scope: InstallScope;
  /** Move the journal and its temporary files aside instead of acting on them. */
  setAside?: boolean;
}

/** What {@link recoverChange} found and did; paths relative to the scope's folder, `/`-separated. */
export interface RecoverOutcome {
  /** The journal's path. */
  journal: string;
  /** False when there was no journal: nothing was done. */
  found: boolean;
  /** What the recovery did (without `setAside`). */
  recovered?: Recovery;
  /** What was set aside (with `setAside`): the folder, each entry moved, and each named one left where it is, with why. */
  set_aside?: { folder: string; moved: { from: string; to: string }[]; left: { path: string; reason: string }[] };
}

/** The temporary files the journal's text names, in a form the handle takes; none when it is not JSON. */
function namedTemporaryFiles(text: string): string[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  const files = doc !== null && typeof doc === 'object' && Array.isArray((doc as { files?: unknown }).files) ? ((doc as { files: unknown[] }).files) : [];
  const temps = files.flatMap((file) => (file !== null && typeof file === 'object' && typeof (file as { temp?: unknown }).temp === 'string' ? [(file as { temp: string }).temp] : []));
  return [...new Set(temps.filter((temp) => TEMPORARY_NAME.test(temp) && describeTargetProblem(temp) === undefined))];
}

/** Moves the journal of `lockPath` and the temporary files it names below a fresh folder of `interruptedRoot`. */
async function setAside(project: ProjectRoot, lockPath: string, interruptedRoot: string): Promise<NonNullable<RecoverOutcome['set_aside']>> {
  const journal = journalPathOf(lockPath);
  const kind = await project.kindOf(journal, { own: true });
  // Only a regular file is read for the names of its temporary files; anything else is moved as it is.
  const bytes = kind === 'file' ? await project.read(journal, { own: true, max: JOURNAL_MAX_BYTES }).catch(() => undefined) : undefined;
  const folder = await freshRunFolder(project, interruptedRoot);
  const moved: { from: string; to: string }[] = [];
  const left: { path: string; reason: string }[] = [];
  const move = async (from: string): Promise<void> => {
    const to = `${folder}/${from}`;
    await project.mkdirs(posix.dirname(to), { own: true });
    await project.rename(from, to, { own: isOwnPath(lockPath, from) }, { own: true });
    moved.push({ from, to });
  };
  // The journal goes last: while it is there, it still names what was not moved yet.
  for (const temp of namedTemporaryFiles(bytes === undefined ? '' : Buffer.from(bytes).toString('utf8'))) {
    try {
      if ((await project.kindOf(temp, { own: isOwnPath(lockPath, temp) })) !== undefined) await move(temp);
    } catch (error) {
      if (!(error instanceof RefusedPath)) throw error;
      left.push({ path: temp, reason: error.problem });
    }
  }
  await move(journal);
  return { folder, moved, left };
}

/**
 * Recovers, or sets aside, the interrupted change of `options.scope` (see the module comment).
 * @throws ConsumerError `UnusableJournal` (without `setAside`: see `recoverInterrupted`);
 *   LoadoutError `invalid_content` when the set-aside folder is reached through a link, `io`
 */
export async function recoverChange(options: RecoverOptions): Promise<RecoverOutcome> {
  const { scope } = options;
  const project = await openScope(scope);
  const journal = journalPathOf(scope.lockPath);
  if ((await project.kindOf(journal, { own: true })) === undefined) return { journal, found: false };
  if (options.setAside !== true) {
    const recovered = await recoverInterrupted(project, scope.lockPath);
    return recovered === undefined ? { journal, found: false } : { journal, found: true, recovered };
  }
  try {
    return { journal, found: true, set_aside: await setAside(project, scope.lockPath, scope.interruptedRoot) };
  } catch (error) {
    if (error instanceof LoadoutError) throw error;
    throw new LoadoutError('io', `cannot set ${journal} aside: ${(error as Error).message}`, { cause: error });
  }
}
