/**
 * An `AGENTS.md` (agents.md: the instructions every coding agent reads) at the root of the
 * folder being imported becomes the loadout's `AGENTS.md`, its one `instructions` file. An
 * `AGENTS.md` deeper in the folder is left out with a note: a loadout has one, at its root.
 */
import { emptyOutcome, isText, baseNameOf, type SourceFormat } from './parts.js';

export const agentsMd: SourceFormat = {
  label: 'AGENTS.md',
  read(tree, claimed) {
    const outcome = emptyOutcome();
    for (const file of tree.files) {
      if (baseNameOf(file.path) !== 'AGENTS.md' || claimed.has(file.path)) continue;
      outcome.claimed.push(file.path);
      if (file.path !== 'AGENTS.md') {
        outcome.notes.push({ path: file.path, reason: 'is an AGENTS.md below the root: a loadout has one AGENTS.md, at its root (merge it into that one by hand)' });
      } else if (!isText(file.bytes)) {
        outcome.notes.push({ path: file.path, reason: 'is not UTF-8 text (save it as UTF-8)' });
      } else {
        outcome.files.push({ entry: { path: 'AGENTS.md', role: 'instructions', description: 'Instructions for every agent' }, bytes: file.bytes, from: file.path });
      }
    }
    return outcome;
  },
};
