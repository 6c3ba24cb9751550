/**
 * A project among neighbours, for the confinement tests (issue 53): a temporary folder holding
 * the project (a git repository with files of the user's) and, beside it, a sentinel tree that
 * no command run in the project may change: `home/` standing for the user's home folder (empty
 * folders `.ssh/` and `Music/`, an empty `Documents/.keep`, a key and notes) and `sibling/`, a
 * git repository of another project (whose `.git` holds empty folders too). The project holds
 * the same `README.md` as the sibling and empty `.keep` and `Documents/.keep`, as a hostile repository
 * would, so that a command comparing a file outside with the project's "same" file finds equal
 * bytes. {@link hashTree} hashes a tree with its empty files and folders and its links.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFolderEntries } from '../../src/catalogue/folder-entries.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';

export const README = '# A project\n\nShared template text.\n';
export const MAIN = 'export const main = () => 42;\n';

/** The folders of one test. */
export interface Neighbourhood {
  /** The folder holding the project and its neighbours. */
  base: string;
  project: string;
  home: string;
  sibling: string;
  /** The hash of everything under `base` but the project (see {@link hashTree}). */
  sentinel(): string;
  /** The hash of the user's files of the project: `.git`, `src`, `Documents`, `README.md`, `.keep`, `notes`. */
  userFiles(): string;
}

/**
 * The hash of the tree under `dir`: every entry's path and kind, a file's bytes, a link's
 * target (not followed); empty files and folders count. Entries whose path starts with one of
 * `skip` (a top-level name), and the installer's temporary files, are left out.
 */
export function hashTree(dir: string, skip: readonly string[] = []): string {
  const hash = createHash('sha256');
  const entries = listFolderEntries(dir)
    .filter((e) => !skip.includes(e.path.split('/')[0] ?? '') && !/\.loadout-\d+-[0-9a-f]{8}\.tmp$/u.test(e.path))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  for (const { path, dirent } of entries) {
    const full = join(dir, path);
    const kind = dirent.isSymbolicLink() ? `link ${readlinkSync(full)}` : dirent.isDirectory() ? 'folder' : dirent.isFile() ? `file ${createHash('sha256').update(readFileSync(full)).digest('hex')}` : 'other';
    hash.update(`${path}\0${kind}\n`);
  }
  return hash.digest('hex');
}

/** Makes the project and its neighbours in a fresh temporary folder (removed when the test ends). */
export function makeNeighbourhood(): Neighbourhood {
  const base = makeTempDir('loadout-neighbourhood-');
  const home = join(base, 'home');
  for (const folder of ['.ssh', 'Music', 'Documents', '.config']) mkdirSync(join(home, folder), { recursive: true });
  writeFileSync(join(home, 'Documents/.keep'), '');
  writeFileSync(join(home, 'Documents/notes.txt'), 'my notes\n');
  writeFileSync(join(home, '.ssh-key'), 'PRIVATE KEY\n');
  const sibling = join(base, 'sibling');
  mkdirSync(join(sibling, 'src'), { recursive: true });
  initRepo(sibling);
  writeFileSync(join(sibling, 'README.md'), README);
  writeFileSync(join(sibling, 'src/main.js'), MAIN);
  commitAll(sibling, 'sibling');
  const project = join(base, 'project');
  mkdirSync(join(project, 'src'), { recursive: true });
  mkdirSync(join(project, 'Documents'), { recursive: true });
  initRepo(project);
  writeFileSync(join(project, 'README.md'), README);
  writeFileSync(join(project, 'src/main.js'), MAIN);
  writeFileSync(join(project, 'Documents/.keep'), '');
  writeFileSync(join(project, '.keep'), '');
  commitAll(project, 'project');
  const ownFiles = ['.git', 'src', 'Documents', 'README.md', '.keep', 'notes'];
  return {
    base,
    project,
    home,
    sibling,
    sentinel: () => hashTree(base, ['project']),
    userFiles: () => hashTree(project, listFolderEntries(project).map((e) => e.path.split('/')[0] ?? '').filter((name) => !ownFiles.includes(name))),
  };
}
