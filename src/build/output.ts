/**
 * Writing the static tree so that a failed build never leaves a half-written `dist/`.
 * Everything is written into a fresh temporary folder beside the output first. Then either
 * - the whole folder replaces the output with two renames ({@link writeTreeAtomically}), or
 * - for an incremental build, only the parts that changed are renamed into the existing
 *   output ({@link updateTreeInPlace}): each changed loadout's folders, then the catalogue
 *   documents, then removals. Every step is a rename, so readers see whole files, and a build
 *   that fails before that point leaves the output as it was.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';

/** A folder being written. Paths are relative, with forward slashes. */
export interface OutputTree {
  /** The temporary folder being written. */
  readonly dir: string;
  /** Writes a file, creating its folders. */
  write(path: string, data: string | Uint8Array): Promise<void>;
  /** Writes pretty-printed JSON with a final newline. */
  writeJson(path: string, value: unknown): Promise<void>;
  /** Total bytes written so far. */
  readonly bytes: number;
}

/** What an in-place update changes in the output besides the catalogue-level files written. */
export interface TreeChanges {
  /** Paths (files or folders) replaced whole by what the temporary tree holds there (or removed when it holds nothing). */
  replace: string[];
}

/**
 * Runs `fill` on a temporary tree and, when it resolves, swaps the tree in at `out`.
 * When `fill` throws, the temporary tree is removed and `out` is left as it was.
 */
export async function writeTreeAtomically<T>(out: string, fill: (tree: OutputTree) => Promise<T>): Promise<T> {
  const { tree, target, tag } = await openTemporaryTree(out);
  const result = await fillOrDiscard(tree, fill);
  const old = join(dirname(target), `.${basename(target)}.old-${tag}`);
  const hadOld = await rename(target, old).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  await rename(tree.dir, target);
  if (hadOld) rmSync(old, { recursive: true, force: true });
  return result;
}

/**
 * Runs `fill` on a temporary tree; when it resolves, moves into `out` the paths it lists in
 * `replace` (old contents go first) and then every other file the temporary tree holds.
 * When `fill` throws, `out` is left as it was.
 */
export async function updateTreeInPlace<T extends TreeChanges>(out: string, fill: (tree: OutputTree) => Promise<T>): Promise<T> {
  const { tree, target, tag } = await openTemporaryTree(out);
  const changes = await fillOrDiscard(tree, fill);
  const trash = join(dirname(target), `.${basename(target)}.old-${tag}`);
  try {
    for (const path of changes.replace) {
      moveIfPresent(join(target, path), join(trash, path));
      moveIfPresent(join(tree.dir, path), join(target, path));
    }
    for (const file of listFiles(tree.dir)) moveIfPresent(join(tree.dir, file), join(target, file));
  } finally {
    rmSync(trash, { recursive: true, force: true });
    rmSync(tree.dir, { recursive: true, force: true });
  }
  return changes;
}

async function openTemporaryTree(out: string): Promise<{ tree: OutputTree; target: string; tag: string }> {
  const target = resolve(out);
  await mkdir(dirname(target), { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const dir = join(dirname(target), `.${basename(target)}.tmp-${tag}`);
  await mkdir(dir, { recursive: true });
  const made = new Set<string>();
  let bytes = 0;
  const tree: OutputTree = {
    dir,
    async write(path, data) {
      const file = join(dir, path);
      const folder = dirname(file);
      if (!made.has(folder)) {
        await mkdir(folder, { recursive: true });
        made.add(folder);
      }
      await writeFile(file, data);
      bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
    },
    async writeJson(path, value) {
      await tree.write(path, `${JSON.stringify(value, null, 2)}\n`);
    },
    get bytes() {
      return bytes;
    },
  };
  return { tree, target, tag };
}

async function fillOrDiscard<T>(tree: OutputTree, fill: (tree: OutputTree) => Promise<T>): Promise<T> {
  try {
    return await fill(tree);
  } catch (error) {
    await rm(tree.dir, { recursive: true, force: true });
    throw error;
  }
}

function moveIfPresent(from: string, to: string): void {
  if (!existsSync(from)) return;
  mkdirSync(dirname(to), { recursive: true });
  renameSync(from, to);
}

/** Every file below `dir`, as relative paths. */
function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}
