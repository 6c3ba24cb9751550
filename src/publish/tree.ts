/**
 * Reading the built tree for a publish: every published file with its sha256, and the bytes again
 * at upload time. Dot files and dot folders (`.loadout-build.jsonl`, the build's temporary trees)
 * are not part of the published API and are skipped, as `loadout serve` skips them, except the
 * `.well-known` folders of Agent Skills discovery (the one rule of both, `isPublishedPath` in
 * tree-format/tree-headers.ts). A symbolic link is followed only to a regular file or a folder
 * inside `--out`, or inside the store of loadout entries that a built tree links into
 * (tree-format/tree-region.ts; nothing outside the tree reaches object storage, as DESIGN.md
 * section 3 keeps every path inside its loadout), and a folder only when it is not already being
 * walked (no cycles); the build links each loadout's folders into its store entry and a raw
 * `latest` folder to its version's. `--out` itself may be a link.
 */
import { createHash } from 'node:crypto';
import { constants, type Dirent } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isPublishedPath } from '../tree-format/tree-headers.js';
import { linkRegionsOf, placeIn } from '../tree-format/index.js';
import { LoadoutError } from '../catalogue/errors.js';
import { mapConcurrent } from '../concurrency.js';
import { describeKeyPathProblem } from './keys.js';

/** One file of the tree. */
export interface TreeFile {
  /** Relative path with forward slashes, e.g. `raw/x/1.0.0/AGENTS.md`. */
  path: string;
  /** Absolute path of the bytes (a link's target for a link). */
  source: string;
  /** Size in bytes. */
  bytes: number;
  /** sha256 of the bytes, lower-case hex. */
  sha256: string;
}

/** What {@link readTree} found. */
export interface Tree {
  /** Published files, sorted by path. */
  files: TreeFile[];
  /** Dot files and folders left out (relative paths), sorted. */
  skipped: string[];
}

// O_NOFOLLOW: a file swapped for a link after the walk is not read through the link (0 where the platform lacks it).
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);
const HASH_CONCURRENCY = 16;

/**
 * Walks `out` and hashes every file to publish.
 * @throws LoadoutError `not_found` when `out` is missing or not a folder; `invalid_content`
 *   naming the path when a name cannot be a key (src/publish/keys.ts), a link leaves `out`,
 *   points at nothing, at a dot file or at a folder that contains it, or an entry is not a
 *   regular file.
 */
export async function readTree(out: string): Promise<Tree> {
  const root = await realpath(out).catch((error: unknown) => {
    throw new LoadoutError('not_found', `--out ${out} does not exist`, { hint: 'run `loadout build` first, or give the built tree with --out', cause: error });
  });
  if (!(await stat(root)).isDirectory()) throw new LoadoutError('not_found', `--out ${out} is not a folder`, { hint: 'give the folder `loadout build` wrote with --out' });
  const regions = linkRegionsOf(root);
  const found: { path: string; source: string }[] = [];
  const skipped: string[] = [];
  const refuse = (path: string, what: string): never => {
    throw new LoadoutError('invalid_content', `${join(out, path)}: ${what}; nothing was published`, {
      hint: 'publish a tree written by `loadout build`; links are followed only to files inside --out',
    });
  };

  // The real folders being walked, outermost first: a link back into one of them would never end.
  const walking: string[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    walking.push(dir);
    const entries: Dirent[] = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = prefix + entry.name;
      if (!isPublishedPath(path)) {
        skipped.push(path);
        continue;
      }
      const problem = describeKeyPathProblem(path);
      if (problem !== undefined) refuse(path, `the name ${problem}, so it cannot be an object key`);
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, `${path}/`);
      else if (entry.isFile()) found.push({ path, source: full });
      else if (entry.isSymbolicLink()) {
        const target = await followLink(regions, full, (what) => refuse(path, what));
        if (!target.folder) found.push({ path, source: target.path });
        else if (walking.includes(target.path)) refuse(path, 'is a link to a folder that holds it (a cycle)');
        else await walk(target.path, `${path}/`);
      } else refuse(path, 'is not a regular file');
    }
    walking.pop();
  };
  await walk(root, '');

  const files = await mapConcurrent(found, HASH_CONCURRENCY, async ({ path, source }) => {
    const body = await readBytes(source);
    return { path, source, bytes: body.byteLength, sha256: sha256Hex(body) };
  });
  return { files, skipped: skipped.sort() };
}

/**
 * Reads `file.source` for upload and checks that its bytes are still the ones hashed.
 * @throws LoadoutError `io` when the file changed or vanished since {@link readTree}.
 */
export async function readTreeFile(file: TreeFile): Promise<Buffer> {
  const body = await readBytes(file.source).catch((error: unknown) => {
    throw new LoadoutError('io', `${file.path} could not be read (${(error as Error).message})`, { hint: 'do not build into --out while publishing it', cause: error });
  });
  if (sha256Hex(body) !== file.sha256) {
    throw new LoadoutError('io', `${file.path} changed while it was being published (expected sha256 ${file.sha256})`, { hint: 'publish again once `loadout build` has finished' });
  }
  return body;
}

/** sha256 of `body` as lower-case hex. */
export function sha256Hex(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

/** The real path of `link`'s target inside one of `regions` (the tree and its store), a file or a folder. */
async function followLink(regions: readonly string[], link: string, refuse: (what: string) => never): Promise<{ path: string; folder: boolean }> {
  let target: string;
  try {
    target = await realpath(link);
  } catch {
    return refuse('is a link to nothing');
  }
  const place = placeIn(regions, target);
  if (place === undefined) return refuse(`is a link out of the tree (to ${target})`);
  if (!isPublishedPath(place.join('/'))) return refuse('is a link to a dot file, which is never published');
  const info = await stat(target);
  if (!info.isFile() && !info.isDirectory()) return refuse('is a link to something other than a file or a folder');
  return { path: target, folder: info.isDirectory() };
}

async function readBytes(source: string): Promise<Buffer> {
  const handle = await open(source, READ_FLAGS);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
