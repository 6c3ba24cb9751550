/**
 * The installer's one access to a built tree on disk (`--from <folder>`), the only module of
 * `src/install/` besides the project's handle (`project/project-root.ts`) that touches the file
 * system (`test/import-graph.test.ts` holds that): it reads a catalogue, never the project, so
 * the project's rules do not apply; `catalogue-reader.ts` checks that every file it reads
 * resolves inside the tree.
 *
 * Telling a folder that holds no catalogue from a catalogue that lacks a loadout. A consumer
 * who runs `install` or `search` without `--from` reads the default folder `dist`, which only
 * a catalogue's own repository has after `loadout build`: the message must say that there is
 * no catalogue there and how to name one, not "check the id" or "run loadout build"
 * (issue 36, point 6).
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { openRegularFile, readAtMost } from '../../catalogue/read-at-most.js';
import { ConsumerError } from '../errors.js';
import { tooLarge } from './http-get.js';

/** The folder of the loadouts' documents in a built tree (spec "Address shapes": `api/loadouts/<id>/versions.json`). */
const LOADOUTS_FOLDER = 'api/loadouts';

/** `dir` as the user reads it: a relative path starts with `./`. */
const shown = (dir: string): string => (isAbsolute(dir) || dir.startsWith('.') ? dir : `./${dir}`);

/**
 * Refuses `dir` unless it holds a built tree (its `api/loadouts/` folder).
 * @throws ConsumerError `BadSource` naming the folder, with a hint that shows `--from <url>`
 */
export async function checkCatalogueFolder(dir: string): Promise<void> {
  const found = await stat(join(dir, LOADOUTS_FOLDER)).then((s) => s.isDirectory(), () => false);
  if (found) return;
  const exists = await stat(dir).then((s) => s.isDirectory(), () => false);
  throw new ConsumerError('BadSource', `there is no catalogue at ${shown(dir)}: ${exists ? `the folder holds no built tree (no ${LOADOUTS_FOLDER}/ in it)` : 'no such folder'}`, {
    hint: "Name the catalogue with --from <url>, its base address (the one its pages' install commands show, such as https://loadouts.example), or --from <folder> of a built catalogue tree.",
  });
}

/** The real path of `path` in a built tree (links resolved). @throws the file system's error */
export const realPathOf = (path: string): Promise<string> => realpath(path);

/**
 * Reads at most `cap` bytes of the regular file `file`, refusing a larger one without reading it whole. A raw
 * file (`declared`: `cap` is the size its entry declares) larger than declared is a file that
 * does not match its entry.
 * @throws ConsumerError `HashMismatch` (a raw file of another size), `ResponseTooLarge` or
 *   `InvalidCatalogue` (a FIFO, socket or device) naming `what`; the file system's error
 */
export async function readFileCapped(file: string, cap: number, what: string, declared: boolean): Promise<Buffer> {
  // Only a regular file: a FIFO in a catalogue folder would block the read forever.
  const { handle, size } = await openRegularFile(file, `${what} (${file})`).catch((error: unknown) => {
    throw error instanceof LoadoutError && !(error instanceof ConsumerError) ? new ConsumerError('InvalidCatalogue', error.message, { cause: error }) : error;
  });
  try {
    if (size > cap && declared) throw new ConsumerError('HashMismatch', `${what} does not match its published sha256 (${file} is ${size} bytes; its entry declares ${cap})`);
    if (size > cap) throw tooLarge(`${what} (${file})`, cap);
    // One byte more than the file's size means the file grew while it was read.
    const bytes = await readAtMost(handle, size);
    if (bytes.length > size) throw new LoadoutError('io', `${file} changed while it was read (expected a built tree that no build is writing)`);
    return bytes;
  } finally {
    await handle.close();
  }
}
