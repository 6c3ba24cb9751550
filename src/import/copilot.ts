/**
 * GitHub Copilot's instructions (VS Code and GitHub docs, "custom instructions"):
 * - `.github/copilot-instructions.md`, the repository-wide instructions, becomes `AGENTS.md`
 *   when the folder has none (Copilot reads `AGENTS.md` too); when it has one, it is left
 *   out with a note, since a loadout has one instructions file.
 * - each `<name>.instructions.md` (front matter `applyTo`, optionally `description`) becomes
 *   the rule `rules/<name>.md`, which installs back to
 *   `.github/instructions/<name>.instructions.md` for Copilot. A rule Cursor would not apply
 *   (no `alwaysApply`, `globs` or `description`) is not installed for Cursor, and one without
 *   `applyTo` not for Copilot (`install_to: null`), as the `install-paths` check requires; the
 *   author is told how to change that.
 */
import { baseNameOf, describeFile, emptyOutcome, frontMatterOf, isText, slugify, type FormatOutcome, type ImportedFile, type SourceFormat } from './parts.js';
import type { SourceFile } from './source-tree.js';

const REPOSITORY_INSTRUCTIONS = 'copilot-instructions.md';
const SUFFIX = '.instructions.md';

export const copilotInstructions: SourceFormat = {
  label: 'Copilot instructions',
  read(tree, claimed) {
    const outcome = emptyOutcome();
    for (const file of tree.files) {
      if (claimed.has(file.path)) continue;
      const name = baseNameOf(file.path);
      if (name === REPOSITORY_INSTRUCTIONS && (file.path === `.github/${name}` || tree.single === name)) {
        outcome.claimed.push(file.path);
        if (claimed.has('AGENTS.md')) outcome.notes.push({ path: file.path, reason: 'was not imported: the folder has an AGENTS.md, and a loadout has one instructions file (merge the two into AGENTS.md by hand)' });
        else if (!isText(file.bytes)) outcome.notes.push({ path: file.path, reason: 'is not UTF-8 text (save it as UTF-8)' });
        else outcome.files.push({ entry: { path: 'AGENTS.md', role: 'instructions', description: `Instructions for every agent (from ${file.path})` }, bytes: file.bytes, from: file.path });
      } else if (name.endsWith(SUFFIX) && name.length > SUFFIX.length) {
        outcome.claimed.push(file.path);
        const rule = ruleFrom(file, slugify(name.slice(0, -SUFFIX.length), 'rule'), outcome);
        if (rule !== undefined) outcome.files.push(rule);
      }
    }
    return outcome;
  },
};

/**
 * The rule `rules/<name>.md` from a Copilot instructions file or a Cursor rule, with the
 * agents that would not apply it left out (`install_to: null`) and a to-do line for each.
 * Shared with cursor-rules.ts. Undefined (and a note) for a file that is not text.
 */
export function ruleFrom(file: SourceFile, name: string, outcome: FormatOutcome): ImportedFile | undefined {
  if (!isText(file.bytes)) {
    outcome.notes.push({ path: file.path, reason: 'is not UTF-8 text (save it as UTF-8)' });
    return undefined;
  }
  const path = `rules/${name}.md`;
  const fm = describeFront(file);
  const installTo: Record<string, null> = {};
  if (!(fm.alwaysApply || fm.globs || fm.description)) {
    installTo['cursor'] = null;
    outcome.todo.push(`${path} (from ${file.path}) is not installed for Cursor: it has no alwaysApply, globs or description front matter (add one to install it there)`);
  }
  if (!fm.applyTo) {
    installTo['copilot'] = null;
    outcome.todo.push(`${path} (from ${file.path}) is not installed for Copilot: it has no applyTo front matter (add applyTo: "<glob>" to install it there)`);
  }
  return {
    entry: { path, role: 'rules', description: describeFile(file, `Rule: ${name}`), ...(Object.keys(installTo).length === 0 ? {} : { install_to: installTo }) },
    bytes: file.bytes,
    from: file.path,
  };
}

/** Which of the front matter keys the agents apply rules by are set (the `install-paths` check's reading). */
function describeFront(file: SourceFile): { alwaysApply: boolean; globs: boolean; description: boolean; applyTo: boolean } {
  const data = frontMatterOf(file);
  const has = (key: string): boolean => data[key] !== undefined && data[key] !== null && data[key] !== '';
  return { alwaysApply: data['alwaysApply'] === true, globs: has('globs'), description: has('description'), applyTo: has('applyTo') };
}
