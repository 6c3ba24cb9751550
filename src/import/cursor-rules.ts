/**
 * Cursor rules (Cursor docs, "Rules": `.cursor/rules/<name>.mdc`, front matter `description`,
 * `globs`, `alwaysApply`), wherever they are in the folder (a project's `.cursor/rules/`, or
 * a folder of `.mdc` files). Each becomes the rule `rules/<name>.md`, which installs back to
 * `.cursor/rules/<name>.mdc` for Cursor; agents that would not apply it are left out as in
 * copilot.ts (most Cursor rules have no `applyTo`, so Copilot is left out with a to-do line).
 */
import { ruleFrom } from './copilot.js';
import { baseNameOf, emptyOutcome, slugify, type SourceFormat } from './parts.js';

export const cursorRules: SourceFormat = {
  label: 'Cursor rules',
  read(tree, claimed) {
    const outcome = emptyOutcome();
    for (const file of tree.files) {
      const name = baseNameOf(file.path);
      if (claimed.has(file.path) || !name.toLowerCase().endsWith('.mdc') || name.length <= 4) continue;
      outcome.claimed.push(file.path);
      const rule = ruleFrom(file, slugify(name.slice(0, -4), 'rule'), outcome);
      if (rule !== undefined) outcome.files.push(rule);
    }
    return outcome;
  },
};
