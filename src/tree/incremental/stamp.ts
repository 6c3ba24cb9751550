/**
 * Change detection from git's own content addresses: a loadout folder's stamp is its tree id
 * at HEAD (`git ls-tree`), taken only when the folder has no change in the working tree
 * (`git status --porcelain`, untracked files included). A tree id names the folder's exact
 * contents, so it survives a fresh clone, a checkout in another folder and a restored cache,
 * where file status (inode, change time) never matches; and it needs no wait for racy time
 * stamps (git's Documentation/technical/racy-git.txt), since git itself answers for the
 * working tree, with one racy window of git's untracked cache for untracked files
 * (commit-log.ts `readDirty`).
 *
 * Two git calls cover the whole catalogue: one listing of the `loadouts/` folder's tree and
 * one status of it.
 */
import { idOf, readDirty } from '../history/commit-log.js';
import type { CatalogueRepository } from '../history/history.js';
import { readTreeListing } from '../history/version-files.js';

/** A loadout folder's stamp: git's tree id of the folder at the build's HEAD, the folder being clean. */
export interface FolderStamp {
  tree: string;
}

/**
 * The stamps of the loadout folders of `repo` that have no change in the working tree, by
 * loadout id; empty outside git. `dirtyFolders` is the status of every folder
 * ({@link readDirtyFolders}), read now by default; a build reads it once for the stamps and the
 * histories (build.ts).
 * @throws Error from git when it fails.
 */
export async function readFolderStamps(repo: CatalogueRepository | undefined, dirtyFolders?: Promise<Set<string>>): Promise<Map<string, FolderStamp>> {
  const stamps = new Map<string, FolderStamp>();
  if (repo === undefined) return stamps;
  const folder = repo.prefix === '' ? '.' : `${repo.prefix}/`;
  const [listing, dirty] = await Promise.all([repo.git.raw(['ls-tree', '-z', '--full-tree', repo.head, '--', folder]), dirtyFolders ?? readDirtyFolders(repo)]);
  for (const { type, object, path } of readTreeListing(listing)) {
    const id = idOf(repo.prefix, `${path}/`);
    if (type === 'tree' && id !== undefined && !dirty.has(id)) stamps.set(id, { tree: object });
  }
  return stamps;
}

/**
 * The loadout folders of `repo` with any change in the working tree or the index (modified,
 * added, deleted, renamed or untracked files), by id: of every folder, or of the folders of
 * `ids` only (a rebuild checks again only what it read).
 * @throws Error from git when it fails.
 */
export function readDirtyFolders(repo: CatalogueRepository, ids?: readonly string[]): Promise<Set<string>> {
  return readDirty(repo.git, repo.prefix, ids);
}

/**
 * The stamps of `before` that still hold once the folders were read: a folder that changed in
 * the working tree meanwhile (`dirtyAfter`) keeps none, so what was read from it is read again
 * next time. Only the folders read need checking again: a carried-over folder's stamp names
 * HEAD's tree, whose output the build kept, and the next build sees that folder dirty anyway.
 */
export function stampsThatHeld(before: ReadonlyMap<string, FolderStamp>, dirtyAfter: ReadonlySet<string>): Map<string, FolderStamp> {
  return new Map([...before].filter(([id]) => !dirtyAfter.has(id)));
}
