/**
 * Agent files: Copilot's custom agents (`<name>.agent.md`, VS Code and GitHub docs) and Claude
 * Code's subagents (`.claude/agents/<name>.md`, front matter `name` and `description`). Each
 * becomes the subagent `agents/<name>.md`, which installs back to `.github/agents/<name>.agent.md`
 * for Copilot and `.claude/agents/<name>.md` for Claude Code. A Claude Code plugin's
 * `agents/` folder is read by claude-plugin.ts.
 */
import { baseNameOf, describeFile, emptyOutcome, isText, slugify, type FormatOutcome, type SourceFormat } from './parts.js';
import type { SourceFile } from './source-tree.js';

const SUFFIX = '.agent.md';

export const agentFiles: SourceFormat = {
  label: 'Copilot and Claude Code agents',
  read(tree, claimed) {
    const outcome = emptyOutcome();
    for (const file of tree.files) {
      if (claimed.has(file.path)) continue;
      const name = baseNameOf(file.path);
      const claude = /^(?:.*\/)?\.claude\/agents\/[^/]+\.md$/u.test(file.path);
      if (name.endsWith(SUFFIX) && name.length > SUFFIX.length) addAgent(file, name.slice(0, -SUFFIX.length), outcome);
      else if (claude) addAgent(file, name.slice(0, -'.md'.length), outcome);
    }
    return outcome;
  },
};

/** Adds `agents/<slug of name>.md` from `file` to `outcome` (a note instead when it is not text). Shared with claude-plugin.ts. */
export function addAgent(file: SourceFile, name: string, outcome: FormatOutcome): void {
  outcome.claimed.push(file.path);
  if (!isText(file.bytes)) {
    outcome.notes.push({ path: file.path, reason: 'is not UTF-8 text (save it as UTF-8)' });
    return;
  }
  const slug = slugify(name, 'agent');
  outcome.files.push({ entry: { path: `agents/${slug}.md`, role: 'subagent', description: describeFile(file, `Subagent: ${slug}`) }, bytes: file.bytes, from: file.path });
}
