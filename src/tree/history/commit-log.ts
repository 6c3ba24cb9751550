/**
 * Reading commits: what `git log` and `git status` say about the loadout folders of a
 * catalogue, per loadout id. Each reader is one git process whatever the catalogue's size.
 */
import type { GitCommands } from './git-commands.js';
import { MANIFEST_FILE } from '../../catalogue/manifest.js';

/**
 * More loadouts than this are read with one pathspec for the whole `loadouts/` folder instead
 * of one per loadout (git walks history once either way; a long pathspec list costs matching).
 */
const MAX_PATHSPECS = 500;

/**
 * Pathspecs of the loadout folders `only` (every one when undefined), and of their manifests,
 * from the repository's top (git's `:(top,literal)` and `:(top,glob)` pathspec magic).
 * `prefix` is the `loadouts/` folder relative to the top (`''` when it is the top).
 */
export function pathspecs(prefix: string, only: readonly string[] | undefined): { folders: string[]; manifests: string[] } {
  if (only === undefined || only.length > MAX_PATHSPECS) {
    // From the top folder, as `prefix` is: git reads pathspecs from its working folder, the catalogue's root.
    return { folders: [`:(top,literal)${prefix === '' ? '.' : prefix}`], manifests: [`:(top,glob)${prefix === '' ? '' : `${prefix}/`}*/${MANIFEST_FILE}`] };
  }
  const folders = only.map((id) => `:(top,literal)${prefix === '' ? id : `${prefix}/${id}`}`);
  return { folders, manifests: folders.map((f) => `${f}/${MANIFEST_FILE}`) };
}

/** What git log says about one loadout folder. */
export interface FolderDates {
  /** `YYYY-MM-DD` of the first commit that touched the folder. */
  first: string;
  /** `YYYY-MM-DD` of the last commit that touched the folder. */
  last: string;
  /** The last commit's sha. */
  lastCommit: string;
  /** Every commit that touched the folder, newest first, with its subject. */
  log: { commit: string; subject: string }[];
}

/** A commit that changed a loadout's manifest, with its first parent and `YYYY-MM-DD` date. */
export interface ManifestCommit {
  commit: string;
  /** Undefined for a root commit. */
  parent: string | undefined;
  date: string;
  /**
   * The object id of the manifest as the commit left it; undefined when the commit deleted it.
   * The blob reader asks for it by this id: asking for `<commit>:<path>` makes git read the
   * `loadouts/` folder's tree object for each request, which at 10,000 loadouts holds 10,000
   * entries (see {@link readManifestCommits}).
   */
  blob: string | undefined;
}

/**
 * First and last commit dates, the last commit and every commit with its subject, per loadout id.
 * Rejects with git's error.
 */
export async function readDates(git: GitCommands, prefix: string, folders: readonly string[]): Promise<Map<string, FolderDates>> {
  // %s is one line (git joins a multi-line subject); the tab ends the fixed-width fields.
  const out = await git.raw(['log', '--format=%x00%H %cs%x09%s', '--name-only', '--', ...folders]);
  const dates = new Map<string, FolderDates>();
  for (const block of out.split('\u0000').slice(1)) {
    const [header = '', ...paths] = block.split('\n');
    const tab = header.indexOf('\t');
    const [commit = '', date = ''] = (tab < 0 ? header : header.slice(0, tab)).split(' ');
    const subject = tab < 0 ? '' : header.slice(tab + 1);
    for (const path of paths) {
      const id = idOf(prefix, path);
      if (id === undefined) continue;
      const seen = dates.get(id);
      // git log lists newest first: the first date seen is the last change.
      if (seen === undefined) dates.set(id, { first: date, last: date, lastCommit: commit, log: [{ commit, subject }] });
      else {
        seen.first = date;
        if (seen.log[seen.log.length - 1]?.commit !== commit) seen.log.push({ commit, subject });
      }
    }
  }
  return dates;
}

/**
 * Commits that changed each loadout's manifest, newest first, with their first parents and the
 * manifest's object id after each. Rejects with git's error.
 *
 * The ids come from the log's raw diff (git-log, "RAW OUTPUT FORMAT": `:<mode> <mode> <id> <id>
 * <status>` TAB `<path>`, a rename or copy followed by TAB and the path it went to), so that the
 * blob reader reads each manifest by id. Reading it as `<commit>:<path>` instead made
 * `git cat-file` find the path in the commit's trees for each request, reading the whole
 * `loadouts/` tree object each time: at 10,000 loadouts that tree has 10,000 entries, and git
 * spent 14 s of processor time on a cold build's 10,000 manifests (a third of a core for the
 * whole build), against 0.2 s by id (docs/performance.md).
 */
export async function readManifestCommits(git: GitCommands, prefix: string, manifests: readonly string[]): Promise<Map<string, ManifestCommit[]>> {
  const out = await git.raw(['log', '--format=%x00%H %P%x09%cs', '--raw', '--no-abbrev', '--', ...manifests]);
  const map = new Map<string, ManifestCommit[]>();
  for (const block of out.split('\u0000').slice(1)) {
    const [header = '', ...lines] = block.split('\n');
    const [shas = '', date = ''] = header.split('\t');
    const [commit = '', parent] = shas.split(' ');
    for (const line of lines) {
      const change = RAW_LINE.exec(line);
      if (change === null) continue;
      // The path the change leaves (a rename's or copy's second path), as --name-only names it.
      const paths = (change[3] ?? '').split('\t');
      const id = idOf(prefix, paths[paths.length - 1] ?? '');
      if (id === undefined) continue;
      const list = map.get(id) ?? [];
      list.push({ commit, parent: parent === '' ? undefined : parent, date, blob: NO_OBJECT.test(change[1] ?? '') ? undefined : change[1] });
      map.set(id, list);
    }
  }
  return map;
}

/** A line of git's raw diff format: the object id after the change, its status letter (and score), the path or paths. */
const RAW_LINE = /^:\d{6} \d{6} [0-9a-f]{40,64} ([0-9a-f]{40,64}) ([A-Z]\d*)\t(.+)$/u;
/** The id git's raw format gives a file that the change deleted: all zeros. */
const NO_OBJECT = /^0+$/u;

/**
 * Ids of the loadouts with uncommitted changes in their folder: modified, added, deleted,
 * renamed or untracked files, in the working tree or the index, of the loadouts `only` (every
 * loadout when undefined). Rejects with git's error.
 *
 * For every loadout, git is asked about the whole working tree with its untracked cache
 * (`core.untrackedCache=true`; git-update-index, "UNTRACKED CACHE"), which lets it skip every
 * folder whose modification time has not changed since the last status instead of reading it:
 * at 10,000 loadouts the untracked scan took 0.9 of a status's 1.3 s (docs/performance.md). git
 * uses that cache with no pathspec and in its `normal` mode only (an untracked folder is named,
 * not its files: the loadout is dirty either way), and keeps it in the index once made, for
 * later runs (the first one makes it, at about the cost of a scan). For a few loadouts, the
 * scan is of their folders alone.
 *
 * The cache has a racy window that git's index does not (git smudges a racily clean index
 * entry; it does not smudge a cached folder). It compares a folder's modification time in whole
 * seconds, and takes it as unchanged unless the index is as new as it: so a file made in a
 * folder later in the same second as a status read that folder, and then any command that
 * rewrites the index in a later second without a scan (`git add`, `git mv`, `git commit`), leave
 * that file unseen by the next status (reproduced with git 2.39;
 * test/tree/incremental/stamp.test.ts sets its folders' times back so as not to meet it). The
 * build then carries that loadout over until its folder changes again or `loadout build
 * --clean`. Not worked around: it needs an untracked file made within a second of a build's
 * status.
 */
export async function readDirty(git: GitCommands, prefix: string, only: readonly string[] | undefined): Promise<Set<string>> {
  const whole = only === undefined || only.length > MAX_PATHSPECS;
  const out = whole
    ? await git.raw(['-c', 'core.untrackedCache=true', 'status', '--porcelain=v1', '-z', '--untracked-files=normal'])
    : await git.raw(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...pathspecs(prefix, only).folders]);
  const dirty = new Set<string>();
  const records = out.split('\u0000');
  for (let i = 0; i < records.length; i++) {
    const record = records[i] ?? '';
    // `XY SP <path>`; a rename or copy is followed by a record holding the path it came from
    // (git-status, "Porcelain Format Version 1", -z), paths relative to the top folder.
    const paths = [record.slice(3)];
    if (record[0] === 'R' || record[0] === 'C') paths.push(records[++i] ?? '');
    for (const path of paths) {
      const id = idOf(prefix, path);
      if (id !== undefined) dirty.add(id);
    }
  }
  return dirty;
}

/** The loadout id of `path` (relative to the top folder) inside the folder `prefix`, if any. */
export function idOf(prefix: string, path: string): string | undefined {
  const rest = prefix === '' ? path : path.startsWith(`${prefix}/`) ? path.slice(prefix.length + 1) : undefined;
  if (rest === undefined) return undefined;
  const slash = rest.indexOf('/');
  return slash <= 0 ? undefined : rest.slice(0, slash);
}
