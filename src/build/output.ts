/**
 * Writing the static tree atomically: everything goes into a fresh temporary folder beside
 * the output, which then replaces the output with two renames, so a failed build never leaves
 * a half-written `dist/`.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

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

/**
 * Runs `fill` on a temporary tree and, when it resolves, swaps the tree in at `out`.
 * When `fill` throws, the temporary tree is removed and `out` is left as it was.
 */
export async function writeTreeAtomically<T>(out: string, fill: (tree: OutputTree) => Promise<T>): Promise<T> {
  const target = resolve(out);
  const parent = dirname(target);
  await mkdir(parent, { recursive: true });
  const tag = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const dir = join(parent, `.${basename(target)}.tmp-${tag}`);
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
  await mkdir(dir, { recursive: true });
  let result: T;
  try {
    result = await fill(tree);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const old = join(parent, `.${basename(target)}.old-${tag}`);
  const hadOld = await rename(target, old).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
  await rename(dir, target);
  if (hadOld) await rm(old, { recursive: true, force: true });
  return result;
}
