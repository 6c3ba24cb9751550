/**
 * Telling a folder that holds no catalogue from a catalogue that lacks a loadout. A consumer
 * who runs `install` or `search` without `--from` reads the default folder `dist`, which only
 * a catalogue's own repository has after `loadout build`: the message must say that there is
 * no catalogue there and how to name one, not "check the id" or "run loadout build"
 * (issue 36, point 6).
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { ConsumerError } from '../errors.js';

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
