/**
 * Change detection from git's own content addresses: a loadout folder's stamp is its tree id
 * at HEAD (`git ls-tree`), taken only when the folder has no change in the working tree
 * (`git status --porcelain`, untracked files included). A tree id names the folder's exact
 * contents, so it survives a fresh clone, a checkout in another folder and a restored cache,
 * where file status (inode, change time) never matches; and it needs no wait for racy time
 * stamps (git's Documentation/technical/racy-git.txt), since git itself answers for the
 * working tree.
 *
 * Two git calls cover the whole catalogue: one listing of the `loadouts/` folder's tree and
 * one status of it.
 */
import type { CatalogueRepository } from '../history/history.js';

/** A loadout folder's stamp: git's tree id of the folder at the build's HEAD, the folder being clean. */
export interface FolderStamp {
  tree: string;
}

/**
 * The stamps of the loadout folders of `repo` that have no change in the working tree, by
 * loadout id; empty outside git.
 * @throws Error from git when it fails.
 */
export async function readFolderStamps(repo: CatalogueRepository | undefined): Promise<Map<string, FolderStamp>> {
  const stamps = new Map<string, FolderStamp>();
  if (repo === undefined) return stamps;
  const folder = repo.prefix === '' ? '.' : `${repo.prefix}/`;
  const [listing, dirty] = await Promise.all([repo.git.raw(['ls-tree', '-z', '--full-tree', repo.head, '--', folder]), readDirtyFolders(repo)]);
  for (const record of listing.split('\u0000')) {
    // `<mode> SP <type> SP <object> TAB <path>` (git-ls-tree, "Output format").
    const tab = record.indexOf('\t');
    const [, type, object] = record.slice(0, tab).split(' ');
    const id = tab < 0 ? undefined : idOf(repo.prefix, `${record.slice(tab + 1)}/`);
    if (type === 'tree' && object !== undefined && id !== undefined && !dirty.has(id)) stamps.set(id, { tree: object });
  }
  return stamps;
}

/**
 * The loadout folders of `repo` with any change in the working tree or the index (modified,
 * added, deleted, renamed or untracked files), by id.
 * @throws Error from git when it fails.
 */
export async function readDirtyFolders(repo: CatalogueRepository): Promise<Set<string>> {
  const pathspec = `:(top,literal)${repo.prefix === '' ? '.' : repo.prefix}`;
  const out = await repo.git.raw(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', pathspec]);
  const dirty = new Set<string>();
  const records = out.split('\u0000');
  for (let i = 0; i < records.length; i++) {
    const record = records[i] ?? '';
    // `XY SP <path>`; a rename or copy is followed by a record holding the path it came from
    // (git-status, "Porcelain Format Version 1", -z), paths relative to the top folder.
    const paths = [record.slice(3)];
    if (record[0] === 'R' || record[0] === 'C') paths.push(records[++i] ?? '');
    for (const path of paths) {
      const id = idOf(repo.prefix, path);
      if (id !== undefined) dirty.add(id);
    }
  }
  return dirty;
}

/** The loadout id of `path` (relative to the top folder) inside the folder `prefix`, if any. */
function idOf(prefix: string, path: string): string | undefined {
  const rest = prefix === '' ? path : path.startsWith(`${prefix}/`) ? path.slice(prefix.length + 1) : undefined;
  if (rest === undefined) return undefined;
  const slash = rest.indexOf('/');
  return slash <= 0 ? undefined : rest.slice(0, slash);
}

/**
 * The stamps of `before` that still hold once the folders were read: a folder that changed in
 * the working tree meanwhile (`dirtyAfter`) keeps none, so what was read from it is read again
 * next time.
 */
export function stampsThatHeld(before: ReadonlyMap<string, FolderStamp>, dirtyAfter: ReadonlySet<string>): Map<string, FolderStamp> {
  return new Map([...before].filter(([id]) => !dirtyAfter.has(id)));
}
