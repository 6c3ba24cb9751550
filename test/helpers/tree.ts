/**
 * Listing a built tree the way its readers see it: every file, and every symbolic link to a
 * sibling with its target (the build links a raw `latest` folder to its version's), so that two
 * trees compare equal only when both hold the same files and the same links. Links to folders
 * further away are followed: those by which a tree holds its loadouts' entries in the store
 * (src/tree/write/store.ts), and those by which an entry's skill folders repeat its raw ones
 * (src/tree/render/raw-folders.ts). Their targets name the build that wrote the entry, which two
 * equal trees need not share.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_CACHE_FILE } from '../../src/tree/incremental/cache.js';

/** Relative paths below `dir` (followed if it is a link), sorted: a file as its path, a link as `path -> target`. */
export function treeEntries(dir: string): string[] {
  const real = realpathSync(dir);
  const entries: string[] = [];
  const walk = (folder: string, prefix: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = `${prefix}${entry.name}`;
      const full = join(folder, entry.name);
      if (entry.isDirectory()) walk(full, `${path}/`);
      else if (entry.isFile()) entries.push(path);
      else if (entry.isSymbolicLink()) {
        const target = readlinkSync(full);
        if (target.includes('/') && lstatSync(realpathSync(full)).isDirectory()) walk(realpathSync(full), `${path}/`);
        else entries.push(`${path} -> ${target}`);
      }
    }
  };
  walk(real, '');
  return entries.sort();
}

/**
 * The files of {@link treeEntries} whose bytes differ between the trees `a` and `b` (the files
 * of `a`), but for the build cache, which names the store entries of each tree's own build.
 */
export function differingFiles(a: string, b: string, skip: (path: string) => boolean = () => false): string[] {
  return treeEntries(a).filter((p) => !p.includes(' -> ') && p !== BUILD_CACHE_FILE && !skip(p) && !readFileSync(join(a, p)).equals(readFileSync(join(b, p))));
}

/**
 * Copies the tree `from` (followed if it is a link) to `to`, which must not exist, with every
 * symbolic link below it replaced by a copy of what it points at: a tree that stands alone, as a
 * static host serves it. GNU `cp -RL`, not `cpSync(…, { dereference: true })`, which on Node 22
 * and 24 copies the links below the top as links to absolute paths (nodejs/node#58939).
 */
export function copyDereferenced(from: string, to: string): void {
  execFileSync('cp', ['-RL', '--', realpathSync(from), to]);
}
