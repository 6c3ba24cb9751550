/**
 * Agent Skills folders (agentskills.io specification: a folder with a `SKILL.md` whose front
 * matter has `name` and `description`, plus any files beside it), alone or many in a folder
 * (`<folder>/<skill>/SKILL.md`, `skills/<skill>/SKILL.md`, a plugin's `skills/`).
 *
 * Each outermost folder holding a `SKILL.md` becomes `skills/<name>/` with every text file
 * below it, paths kept: `SKILL.md` with role `skill`, the others `reference` (a `SKILL.md`
 * nested inside a skill is one of its files, as SEP-2640 and the loadout layout both read it).
 * `<name>` is the front matter's `name` when it is a slug, else the folder's name; the `parse`
 * check then names a mismatch.
 */
import { SLUG_PATTERN } from '../catalogue/vocabulary.js';
import { baseNameOf, clip, emptyOutcome, frontMatterOf, isText, slugify, uniqueName, type SourceFormat } from './parts.js';

const SKILL_FILE = 'SKILL.md';

const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

export const agentSkills: SourceFormat = {
  label: 'Agent Skills',
  read(tree, claimed) {
    const outcome = emptyOutcome();
    const skillFolders = tree.files
      .filter((f) => baseNameOf(f.path) === SKILL_FILE && !claimed.has(f.path))
      .map((f) => folderOf(f.path))
      // Outermost only: a SKILL.md inside another skill's folder is a file of that skill.
      .filter((dir, _i, all) => !all.some((other) => other !== dir && (other === '' || dir.startsWith(`${other}/`))));
    const taken = new Set<string>();
    for (const dir of skillFolders) {
      const prefix = dir === '' ? '' : `${dir}/`;
      const skillMd = tree.files.find((f) => f.path === `${prefix}${SKILL_FILE}`);
      if (skillMd === undefined) continue;
      const folderName = dir === '' ? tree.name : baseNameOf(dir);
      const declared = frontMatterOf(skillMd)['name'];
      const name = uniqueName(typeof declared === 'string' && SLUG_PATTERN.test(declared) ? declared : SLUG_PATTERN.test(folderName) ? folderName : slugify(folderName, 'skill'), taken);
      const fmDescription = frontMatterOf(skillMd)['description'];
      for (const file of tree.files) {
        if (!file.path.startsWith(prefix) || claimed.has(file.path)) continue;
        outcome.claimed.push(file.path);
        const rel = file.path.slice(prefix.length);
        if (!isText(file.bytes)) {
          outcome.notes.push({ path: file.path, reason: `is not UTF-8 text, and a loadout holds text files only: left out of skill ${name} (convert it to text, or leave it out)` });
          continue;
        }
        const isEntry = rel === SKILL_FILE;
        outcome.files.push({
          entry: {
            path: `skills/${name}/${rel}`,
            role: isEntry ? 'skill' : 'reference',
            skill: name,
            description: isEntry && typeof fmDescription === 'string' && fmDescription.trim() !== '' ? clip(fmDescription, 200) : clip(isEntry ? `Entry file of the ${name} skill` : `Reference of the ${name} skill: ${rel}`, 200),
          },
          bytes: file.bytes,
          from: file.path,
        });
      }
    }
    return outcome;
  },
};
