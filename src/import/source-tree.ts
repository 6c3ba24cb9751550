/**
 * Reading the content `loadout import` starts from, as hostile input (DESIGN.md section 8): a
 * folder (or one file) the author points at, which may hold links, `.git`, huge or binary
 * files and names no loadout path may have.
 *
 * - The root is resolved to its real path once; every file read must have its real path
 *   inside it. A symbolic link that leads outside the root, to nothing or to something other
 *   than a regular file is skipped with a note, never read; links to folders are not followed.
 * - `.git` (any case), `node_modules` and other dot folders are not entered, except the
 *   agents' own (`.github`, `.cursor`, `.claude`, `.claude-plugin`); dot files are skipped.
 * - A file whose name is not a plain path segment (control characters, a backslash) is
 *   skipped with a note; so is a file over {@link MAX_FILE_BYTES} or past {@link MAX_FILES}.
 *
 * Pure apart from reading the file system; never writes.
 */
import type { Dirent } from 'node:fs';
import { lstat, open, readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { LoadoutError } from '../catalogue/errors.js';
import { describePathProblem } from '../catalogue/file-path.js';
import { readAtMost } from '../catalogue/read-at-most.js';

/** Files read at most; the rest are skipped with a note (a loadout holds at most 30). */
export const MAX_FILES = 2000;
/** Bytes read at most per file (the size check allows 32 KB; larger files are still shown to fail it, up to this). */
export const MAX_FILE_BYTES = 1024 * 1024;

/** Dot folders that hold agent configuration, and are therefore entered. */
const AGENT_DOT_FOLDERS = new Set(['.github', '.cursor', '.claude', '.claude-plugin']);
/** Folders never entered. */
const NEVER_ENTERED = new Set(['node_modules']);

/** True for a folder name the import enters: not `node_modules`, and no dot folder but the agents' own. */
export const isEnteredFolder = (name: string): boolean => !NEVER_ENTERED.has(name) && (!name.startsWith('.') || AGENT_DOT_FOLDERS.has(name));

/** A file of the source, by its path relative to the root (forward slashes). */
export interface SourceFile {
  /** Relative to the root, `/`-separated; passes the rule of `files[].path`. */
  path: string;
  bytes: Uint8Array;
}

/** Something of the source that was not read, and why (for the report). */
export interface SkippedSource {
  /** Relative to the root (or the root's name). */
  path: string;
  reason: string;
}

/** What {@link readSourceTree} found. */
export interface SourceTree {
  /** Real path of the root folder. */
  root: string;
  /** Display name of the root: the folder's base name. */
  name: string;
  /** Files read, sorted by path. */
  files: SourceFile[];
  skipped: SkippedSource[];
  /** When the author pointed at one file: its path (the tree then holds it alone). */
  single?: string;
}

/**
 * Reads the folder `path`, or the one file `path` (its folder becomes the root, and only it
 * is read).
 * @throws LoadoutError `not_found` when `path` does not exist; `usage` when it is neither a
 *   folder nor a regular file.
 */
export async function readSourceTree(path: string): Promise<SourceTree> {
  const info = await stat(path).catch((cause: unknown) => {
    throw new LoadoutError('not_found', `${path} does not exist`, { cause, hint: 'Give the folder (or file) to import: a skill folder, a folder of skills, Copilot instructions or agents, Cursor rules, a Claude Code plugin, or an AGENTS.md.' });
  });
  if (info.isFile()) {
    const root = await realpath(dirname(path));
    const name = basename(path);
    const tree: SourceTree = { root, name: basename(root), files: [], skipped: [], single: name };
    await readOne(tree, join(root, name), name);
    return tree;
  }
  if (!info.isDirectory()) throw new LoadoutError('usage', `${path} is neither a folder nor a file (expected content to import)`);
  const root = await realpath(path);
  const tree: SourceTree = { root, name: basename(root), files: [], skipped: [] };
  await walk(tree, root, '');
  tree.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return tree;
}

async function walk(tree: SourceTree, dir: string, prefix: string): Promise<void> {
  const entries: Dirent[] = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = `${prefix}${entry.name}`;
    const full = join(dir, entry.name);
    if (entry.name.toLowerCase() === '.git') continue;
    if (entry.isDirectory()) {
      if (!isEnteredFolder(entry.name)) continue;
      await walk(tree, full, `${path}/`);
    } else if (entry.name.startsWith('.')) {
      // Dot files (.DS_Store, .gitignore, an .mcp.json) are read only where a format asks for them.
      if (entry.name === '.mcp.json') await readOne(tree, full, path);
    } else {
      await readOne(tree, full, path);
    }
  }
}

/** Reads one file (or link to one) at `full`, shown as `path`, into `tree` when it is safe to. */
async function readOne(tree: SourceTree, full: string, path: string): Promise<void> {
  const problem = describePathProblem(path);
  if (problem !== undefined) return void tree.skipped.push({ path, reason: `its name ${problem}, so it cannot be a file of a loadout (rename it)` });
  if (tree.files.length >= MAX_FILES) return void tree.skipped.push({ path, reason: `more than ${MAX_FILES} files in the source: import a smaller folder` });
  const info = await lstat(full);
  if (info.isSymbolicLink()) {
    const target = await realpath(full).catch(() => undefined);
    if (target === undefined) return void tree.skipped.push({ path, reason: 'is a link to nothing' });
    const inside = relative(tree.root, target);
    if (inside === '' || inside.startsWith('..') || inside.split(sep).includes('..') || target === inside) {
      return void tree.skipped.push({ path, reason: `is a link out of the folder being imported (to ${target}); it is never read` });
    }
    if (inside.split(sep).some((s) => s.toLowerCase() === '.git')) return void tree.skipped.push({ path, reason: 'is a link into .git; it is never read' });
    if (!(await stat(target)).isFile()) return void tree.skipped.push({ path, reason: 'is a link to something other than a file (links to folders are not followed)' });
  } else if (!info.isFile()) {
    return void tree.skipped.push({ path, reason: 'is not a regular file' });
  }
  const bytes = await readCapped(full);
  if (bytes === undefined) return void tree.skipped.push({ path, reason: `is larger than ${MAX_FILE_BYTES} bytes (a loadout file may have 32 KB)` });
  tree.files.push({ path, bytes });
}

/** The file's bytes, or undefined when it has more than {@link MAX_FILE_BYTES}; never reads more than that. */
async function readCapped(file: string): Promise<Uint8Array | undefined> {
  const handle = await open(file, 'r');
  try {
    const bytes = await readAtMost(handle, MAX_FILE_BYTES);
    return bytes.length > MAX_FILE_BYTES ? undefined : bytes;
  } finally {
    await handle.close();
  }
}
