/**
 * Listing a built tree the way its readers see it: every file, and every symbolic link with
 * its target (the build links a raw `latest` folder to its version's), so that two trees
 * compare equal only when both hold the same files and the same links.
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

/** Relative paths below `dir` (followed if it is a link), sorted: a file as its path, a link as `path -> target`. */
export function treeEntries(dir: string): string[] {
  const real = realpathSync(dir);
  return readdirSync(real, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() || e.isSymbolicLink())
    .map((e) => {
      const path = join(e.parentPath, e.name).slice(real.length + 1);
      return e.isSymbolicLink() ? `${path} -> ${readlinkSync(join(real, path))}` : path;
    })
    .sort();
}

/** The files of {@link treeEntries} whose bytes differ between the trees `a` and `b` (the files of `a`). */
export function differingFiles(a: string, b: string, skip: (path: string) => boolean = () => false): string[] {
  return treeEntries(a).filter((p) => !p.includes(' -> ') && !skip(p) && !readFileSync(join(a, p)).equals(readFileSync(join(b, p))));
}
