/**
 * Every entry below a folder, listed the same way on Node 20, 22 and 24: symbolic links listed,
 * never followed.
 *
 * `readdirSync(dir, { recursive: true, withFileTypes: true })` is not that. On Node 22 and 24 it
 * descends into symbolic links to folders (seen on 22.23.3 and 24.21.0; nodejs/node#55714, the
 * fix of #52663, made it list what the listing without `withFileTypes` lists, which follows links:
 * nodejs/node#51858, open), while Node 20 (20.20.2) does not.
 * A build's trees hold their loadouts by links to folders of the store, so a copy of a tree that
 * followed them linked each loadout's files twice and failed (ENOENT) on Node 22 and 24. A link
 * that points at a folder above it would be listed again and again, up to the path's limit.
 */
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/** One entry below a folder: its path relative to that folder (`/`-separated) and what it is (not what a link points at). */
export interface FolderEntry {
  path: string;
  dirent: Dirent;
}

/**
 * The entries below `dir`, a folder before the entries inside it, in the order the file system
 * lists them. Symbolic links are listed as links, and what they point at is not read.
 * @throws the `readdirSync` error (ENOENT, ENOTDIR, EACCES) of `dir` or of a folder below it.
 */
export function listFolderEntries(dir: string): FolderEntry[] {
  const entries: FolderEntry[] = [];
  const visit = (folder: string, prefix: string): void => {
    for (const dirent of readdirSync(folder, { withFileTypes: true })) {
      const path = prefix === '' ? dirent.name : `${prefix}/${dirent.name}`;
      entries.push({ path, dirent });
      if (dirent.isDirectory()) visit(join(folder, dirent.name), path);
    }
  };
  visit(dir, '');
  return entries;
}
