/** `loadout new <id>`: scaffold `loadouts/<id>/` (DESIGN.md section 2). */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LoadoutError } from '../../catalogue/errors.js';
import { scaffoldLoadout } from '../../scaffold/scaffold.js';
import { SLUG_PATTERN } from '../../catalogue/vocabulary.js';
import { loadoutsDirOf } from '../../catalogue/source.js';
import type { Write } from '../report.js';

/** Options of `loadout new`. */
export interface NewOptions {
  root: string;
  id: string;
  today: string;
}

/**
 * Writes the scaffold. @throws LoadoutError `usage` for an id that is not a slug,
 * `invalid_content` when the folder exists already (nothing is overwritten).
 */
export async function newCommand(options: NewOptions, out: Write): Promise<number> {
  if (!SLUG_PATTERN.test(options.id)) {
    throw new LoadoutError('usage', `id ${JSON.stringify(options.id)} is not a slug (expected lowercase letters and digits in groups separated by single hyphens, e.g. "react-testing")`);
  }
  const dir = join(loadoutsDirOf(options.root), options.id);
  if (await stat(dir).then(() => true, () => false)) {
    throw new LoadoutError('invalid_content', `loadouts/${options.id} exists already; nothing was written`, { hint: 'Pick another id, or edit the existing loadout.' });
  }
  for (const [path, text] of scaffoldLoadout(options.id, options.today)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text, { flag: 'wx' });
  }
  out(`created loadouts/${options.id}/ (loadout.yaml, AGENTS.md, CLAUDE.md, GEMINI.md)\n`);
  out(`next: fill in loadout.yaml (author, summary, description, highlights) and AGENTS.md; after changing the title, run \`loadout adapters ${options.id}\` to regenerate CLAUDE.md and GEMINI.md; then run \`loadout verify ${options.id}\`\n`);
  return 0;
}
