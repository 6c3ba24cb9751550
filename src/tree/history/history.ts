/**
 * Versions of each loadout from git history (DESIGN.md section 3: "loadout build reads git
 * history and publishes every version a loadout has had").
 *
 * A version's files are the loadout folder as it stood just before the commit that moved the
 * manifest to another version (that commit's first parent), so each pinned version holds its
 * final content. The current version always comes from the working tree. `published` is the
 * date of the first commit that touched the folder, `updated` of the last one.
 *
 * Each version also carries its changes: the subjects of the commits that touched the loadout
 * folder from the commit that first set that version up to (not including) the commit that set
 * the next one, newest first, in `git log` order. The oldest version also gets the commits
 * before its manifest existed; a version bump not committed yet has no changes.
 *
 * Git is read with a handful of processes whatever the catalogue's size: one `git log` for the
 * dates and subjects, one for manifest changes (both in commit-log.ts), and one
 * `git cat-file --batch` for every blob (version-files.ts).
 */
import { relative, resolve } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { VERSION_PATTERN } from '../../catalogue/vocabulary.js';
import { readManifestVersion } from '../../catalogue/yaml-document.js';
import { idOf, pathspecs, readDates, readDirty, readManifestCommits, type FolderDates, type ManifestCommit } from './commit-log.js';
import { gitIn, type GitCommands } from './git-commands.js';
import { BlobReader, readSnapshot, type Snapshot } from './version-files.js';

/** An earlier version of a loadout, read from git. Its files are read only when asked for. */
export interface HistoricVersion {
  version: string;
  /**
   * The last commit that changed the loadout while it held this version: its tree holds this
   * version's files. It stays the same when later commits or uncommitted changes come.
   */
  commit: string;
  /** `YYYY-MM-DD` the version was first committed. */
  date: string;
  /** Subjects of the commits that made this version, newest first (see the module comment). */
  changes: string[];
  /** Reads the folder at `commit`; undefined when it has no manifest there. */
  load(): Promise<Snapshot | undefined>;
}

/** An earlier version with its files read: what a build's worker thread gets (no functions cross threads). */
export type HistoricVersionData = Omit<HistoricVersion, 'load'> & {
  /** Its files, or undefined when the commit has no manifest for the loadout. */
  snapshot: Snapshot | undefined;
};

/** What git says about one loadout. */
export interface LoadoutHistory {
  /** Versions other than the working tree's, oldest first. */
  versions: HistoricVersion[];
  published: string | undefined;
  updated: string | undefined;
  /** The last commit that changed the folder. */
  lastCommit: string | undefined;
  /** Date the working-tree version was first committed (undefined when not committed yet). */
  currentSince: string | undefined;
  /** Subjects of the commits that made the working-tree version, newest first ([] when not committed yet). */
  currentChanges: string[];
  /** Versions found in history but not published, each with the commit and why (for the build's warnings). */
  skipped: SkippedVersion[];
}

/** A {@link LoadoutHistory} with the files of every earlier version read. */
export type LoadoutHistoryData = Omit<LoadoutHistory, 'versions'> & { versions: HistoricVersionData[] };

/** Reads the files of every earlier version of `history` (git, through its reader). */
export async function readHistoryData(history: LoadoutHistory): Promise<LoadoutHistoryData> {
  const versions = await Promise.all(history.versions.map(async ({ load, ...version }) => ({ ...version, snapshot: await load() })));
  return { ...history, versions };
}

/** A version read from history that fails the rules of the current manifest, so is not published. */
export interface SkippedVersion {
  /** The value as read (possibly hostile: print it with JSON.stringify). */
  version: string;
  /** The commit whose manifest holds it. */
  commit: string;
  /** What is wrong, e.g. `does not match MAJOR.MINOR.PATCH`. */
  reason: string;
}

/** Git facts for a catalogue: the HEAD commit and a history per loadout id. */
export interface CatalogueHistory {
  /** HEAD sha, or undefined outside git. */
  head: string | undefined;
  /** Loadout ids with uncommitted changes in their folder. */
  dirty: Set<string>;
  /** History of a loadout whose working-tree version is `currentVersion`. */
  historyOf(id: string, currentVersion: string): Promise<LoadoutHistory>;
  /** Ends the git processes. */
  close(): void;
}

/** The git repository that holds a catalogue, with a commit. */
export interface CatalogueRepository {
  /** git in the catalogue's root folder. */
  git: GitCommands;
  /** HEAD's sha. */
  head: string;
  /** The repository's top folder. */
  top: string;
  /** The `loadouts/` folder relative to `top`, with forward slashes (`''` when it is the top). */
  prefix: string;
}

/**
 * The git repository of the catalogue whose loadouts live in `loadoutsDir`; undefined outside
 * a git repository or in one with no commits. Read once per build and shared by
 * {@link changesSince} and {@link openHistory}.
 * @param gitFor how git runs in a folder: from this process (the default), or from
 *   `loadout dev`'s helper process (git-helper.ts).
 * @throws LoadoutError `git` when git fails inside a repository.
 */
export async function openRepository(loadoutsDir: string, gitFor: (cwd: string) => GitCommands = gitIn): Promise<CatalogueRepository | undefined> {
  const git = gitFor(resolve(loadoutsDir, '..'));
  // One process: the top folder, then HEAD's sha (in a repository with no commits, the top
  // folder alone). Outside a repository git fails, saying so.
  let said: string;
  try {
    said = await git.raw(['rev-parse', '--show-toplevel', '--verify', '-q', 'HEAD']);
  } catch (cause) {
    // Outside a repository, or no git installed: the build goes on without history.
    if (/not a git repository|ENOENT/u.test((cause as Error).message)) return undefined;
    throw new LoadoutError('git', `cannot read git history of ${loadoutsDir}: ${(cause as Error).message}`, { cause });
  }
  const [top = '', head = ''] = said.trim().split('\n');
  if (top === '' || !/^[0-9a-f]{40,64}$/u.test(head)) return undefined;
  return { git, head, top, prefix: relative(top, resolve(loadoutsDir)).split('\\').join('/') };
}

/**
 * Opens the git history of the catalogue in `repo` (undefined: not in git, and every history
 * is empty with `head` undefined): of every loadout, or of the loadouts `only` (a rebuild
 * reads the history of the changed ones only, cache.ts). `dirtyOfAll`, when the caller has
 * asked git already, is what the status of the whole working tree said (stamp.ts
 * `readDirtyFolders`): the histories take it, narrowed to `only`, instead of a status of their
 * own (at 10,000 loadouts a status of the whole tree costs git about half a second of processor
 * time, taken from the threads that build; in a rebuild, a status of the changed folders came
 * between git's tree ids and the changed loadout's build, 75 ms).
 * @throws LoadoutError `git` when git fails.
 */
export async function openHistory(repo: CatalogueRepository | undefined, only?: readonly string[], early?: EarlyHistoryReads, dirtyOfAll?: Promise<Set<string>>): Promise<CatalogueHistory> {
  const taken = early !== undefined && repo !== undefined && early.top === repo.top && early.prefix === repo.prefix && sameIds(early.only, only) ? early : undefined;
  if (early !== undefined) early.claimed = true;
  if (taken !== early) early?.discard();
  if (repo === undefined) return emptyHistory();
  const { git, head, top, prefix } = repo;
  if (only?.length === 0) return { ...emptyHistory(), head };
  try {
    const [dates, manifestCommits, dirty] = await (taken ?? startHistoryReads(repo, only, { dirty: only === undefined || dirtyOfAll === undefined ? dirtyOfAll : dirtyOfAll.then((all) => new Set(only.filter((id) => all.has(id)))) })).logs;
    const blobs = taken?.blobs ?? new BlobReader(git);
    return {
      head,
      dirty,
      historyOf: (id, currentVersion) => readLoadoutHistory(git, blobs, { prefix, id, head, currentVersion }, dates.get(id), manifestCommits.get(id) ?? []),
      close: () => blobs.close(),
    };
  } catch (cause) {
    if (cause instanceof LoadoutError) throw cause;
    throw new LoadoutError('git', `cannot read git history of ${top}: ${(cause as Error).message}`, { cause });
  }
}

/**
 * The git reads of {@link openHistory} for the loadouts `only` (every one when undefined),
 * started: three git processes at once (none needs another's answer; the logs read HEAD as it
 * is when they run) and the blob reader. A build told what changed (`loadout dev`) starts them
 * with the repository the last build in the process opened, before it asks git for HEAD, so
 * that a save does not wait for one git process after another (issue 37, point 1).
 */
export interface EarlyHistoryReads {
  /** The repository's top folder they were started in, and its `loadouts/` folder (as {@link CatalogueRepository}). */
  top: string;
  prefix: string;
  /** The loadouts they read (undefined: every one). */
  only: readonly string[] | undefined;
  /** Dates, manifest commits and dirty folders. Rejects with git's error. */
  logs: Promise<[Map<string, FolderDates>, Map<string, ManifestCommit[]>, Set<string>]>;
  blobs: BlobReader | undefined;
  /** Set when {@link openHistory} was given them: it then takes them or discards them. */
  claimed: boolean;
  /** Stops the blob reader and ignores the reads (a build that did not take them). */
  discard(): void;
}

/**
 * Starts the reads of {@link EarlyHistoryReads} in `repo` (only `top`, `prefix` and `git` are read: no HEAD).
 * @param options.dirty the dirty folders of `only`, when the caller has asked git already.
 */
export function startHistoryReads(repo: Pick<CatalogueRepository, 'git' | 'top' | 'prefix'>, only: readonly string[] | undefined, options: { blobs?: boolean; dirty?: Promise<Set<string>> | undefined } = {}): EarlyHistoryReads {
  const { git, top, prefix } = repo;
  const specs = pathspecs(prefix, only);
  // The status first: it reads the whole index, the longest of the three for a few loadouts.
  const dirty = options.dirty ?? readDirty(git, prefix, only);
  const logs = Promise.all([readDates(git, prefix, specs.folders), readManifestCommits(git, prefix, specs.manifests), dirty]);
  // Read by whoever takes them; a build that fails before does not.
  logs.catch(() => undefined);
  const blobs = options.blobs === true ? new BlobReader(git) : undefined;
  return { top, prefix, only, logs, blobs, claimed: false, discard: () => blobs?.close() };
}

/** Whether `a` and `b` name the same loadouts in the same order (undefined: every one). */
const sameIds = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean => (a === undefined || b === undefined ? a === b : a.length === b.length && a.every((id, i) => id === b[i]));

/**
 * What changed in git since the commit `since` (a previous build's HEAD), for a rebuild to
 * know which loadouts' histories may differ: `touched` holds the ids of the loadouts that the
 * commits after `since` up to HEAD changed. When `since` is not an ancestor of HEAD (history
 * was rewritten, or `since` is unknown, or either is outside git) every history may differ,
 * and `touched` is undefined.
 * @throws LoadoutError `git` when git fails.
 */
export async function changesSince(repo: CatalogueRepository | undefined, since: string | undefined): Promise<{ touched: Set<string> | undefined }> {
  if (repo?.head === since) return { touched: new Set() };
  if (repo === undefined || since === undefined || !/^[0-9a-f]{40,64}$/u.test(since)) return { touched: undefined };
  const { git, head, prefix } = repo;
  // `since` is an ancestor of HEAD when it is their merge base (simple-git does not report
  // `merge-base --is-ancestor`'s exit code 1, which has no output).
  const isAncestor = (await git.raw(['merge-base', since, head]).catch(() => '')).trim() === since;
  if (!isAncestor) return { touched: undefined };
  try {
    const out = await git.raw(['log', '--format=', '--name-only', `${since}..${head}`, '--', ...pathspecs(prefix, undefined).folders]);
    const touched = new Set<string>();
    for (const path of out.split('\n')) {
      const id = idOf(prefix, path);
      if (id !== undefined) touched.add(id);
    }
    return { touched };
  } catch (cause) {
    throw new LoadoutError('git', `cannot read git history of ${repo.top}: ${(cause as Error).message}`, { cause });
  }
}

/** The history of a loadout that git knows nothing of (outside git, or never committed): the working tree's version alone. Pure. */
export function noHistory(): LoadoutHistory & LoadoutHistoryData {
  return { versions: [], published: undefined, updated: undefined, lastCommit: undefined, currentSince: undefined, currentChanges: [], skipped: [] };
}

function emptyHistory(): CatalogueHistory {
  return { head: undefined, dirty: new Set(), historyOf: async () => noHistory(), close: () => undefined };
}

async function readLoadoutHistory(
  git: GitCommands,
  blobs: BlobReader,
  { prefix, id, head, currentVersion }: { prefix: string; id: string; head: string; currentVersion: string },
  dates: FolderDates | undefined,
  manifestCommits: ManifestCommit[],
): Promise<LoadoutHistory> {
  const dir = prefix === '' ? id : `${prefix}/${id}`;
  const history: LoadoutHistory = { versions: [], published: dates?.first, updated: dates?.last, lastCommit: dates?.lastCommit, currentSince: undefined, currentChanges: [], skipped: [] };
  if (manifestCommits.length === 0) return history;
  // Version after each manifest commit, newest first.
  const texts = await Promise.all(manifestCommits.map((c) => (c.blob === undefined ? undefined : blobs.read(c.blob))));
  const versions = texts.map((t) => (t === undefined ? undefined : readManifestVersion(Buffer.from(t).toString('utf8'))));
  for (let i = 0; i < versions.length && versions[i] === currentVersion; i++) history.currentSince = manifestCommits[i]?.date;
  const changesOf = changeReader(dates?.log ?? [], manifestCommits, versions);
  const lastChangeBefore = lastChangeReader(dates?.log ?? []);
  if (versions[0] === currentVersion) history.currentChanges = changesOf(0);
  const seen = new Set<string>([currentVersion]);
  // A version from history becomes part of addresses and paths: it must pass the manifest's rule.
  const publishable = (version: string, commit: string): boolean => {
    if (VERSION_PATTERN.test(version)) return true;
    if (!history.skipped.some((s) => s.version === version)) history.skipped.push({ version, commit, reason: 'does not match MAJOR.MINOR.PATCH, digits only' });
    return false;
  };
  // The state just before a commit that changed the version holds the older version's final files.
  for (let i = 0; i < manifestCommits.length; i++) {
    const older = versions[i + 1];
    const change = manifestCommits[i];
    const from = manifestCommits[i + 1];
    if (older === undefined || change === undefined || change.parent === undefined || older === versions[i] || seen.has(older)) continue;
    seen.add(older);
    if (!publishable(older, from?.commit ?? change.parent)) continue;
    const parent = change.parent;
    history.versions.push({ version: older, commit: lastChangeBefore(change.commit) ?? parent, date: from?.date ?? change.date, changes: changesOf(i + 1), load: () => readSnapshot(git, blobs, parent, dir) });
  }
  // A version bump not committed yet: HEAD holds the committed version's final files, as the
  // last commit that changed the folder does (its commit does not move with HEAD or the working tree).
  const committed = versions[0];
  if (committed !== undefined && !seen.has(committed) && publishable(committed, manifestCommits[0]?.commit ?? head)) {
    history.versions.unshift({ version: committed, commit: history.lastCommit ?? head, date: manifestCommits[0]?.date ?? '', changes: changesOf(0), load: () => readSnapshot(git, blobs, head, dir) });
  }
  history.versions.reverse();
  return history;
}

/**
 * The last commit that changed the loadout folder before `commit` (one of the folder's own
 * commits), from `log`, the folder's commits newest first; undefined when `commit` is not in it
 * or is the first. A version's `commit` is this for the commit that moved the manifest off it:
 * the last commit of the loadout that held that version, whatever commits of other loadouts
 * came after, whatever the working tree holds (issue 36, point 2). Pure.
 */
function lastChangeReader(log: readonly { commit: string }[]): (commit: string) => string | undefined {
  const position = new Map(log.map((entry, index) => [entry.commit, index]));
  return (commit) => {
    const at = position.get(commit);
    return at === undefined ? undefined : log[at + 1]?.commit;
  };
}

/**
 * The changes of the version that manifest commit `i` holds (see the module comment):
 * `log` is the folder's commits and `manifestCommits` the manifest's, both newest first;
 * `versions[i]` is the version after manifest commit `i`. Pure.
 */
function changeReader(log: readonly { commit: string; subject: string }[], manifestCommits: readonly { commit: string }[], versions: readonly (string | undefined)[]): (i: number) => string[] {
  const position = new Map(log.map((entry, index) => [entry.commit, index]));
  return (i) => {
    // The run of manifest commits that keep this version: from the oldest (start) to i.
    let start = i;
    while (start + 1 < versions.length && versions[start + 1] === versions[i]) start++;
    const newest = i === 0 ? 0 : (position.get(manifestCommits[i - 1]?.commit ?? '') ?? -1) + 1;
    const oldest = start === manifestCommits.length - 1 ? log.length - 1 : position.get(manifestCommits[start]?.commit ?? '');
    if (oldest === undefined || (newest <= 0 && i !== 0)) return [];
    return log.slice(newest, oldest + 1).map((entry) => entry.subject);
  };
}
