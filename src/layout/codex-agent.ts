/**
 * A subagent as Codex reads it: Codex custom agents are TOML files, one per agent, in the
 * project's `.codex/agents/<name>.toml` (or `~/.codex/agents/`), with `name`, `description` and
 * `developer_instructions` required (developers.openai.com/codex/subagents, "Custom agents";
 * checked 2026-11-26). A loadout's subagent is Markdown with `name` and `description` in its
 * front matter (the `parse` check requires both) and the instructions as its body, so the
 * translation is one to one; every other front-matter key (Claude Code's `tools`, `model`, …)
 * names things Codex does not share and is left out.
 */
import { parse, stringify } from 'smol-toml';
import { readFrontMatterForInstall as readFrontMatter } from '../catalogue/front-matter-data.js';

/**
 * The Codex custom-agent TOML of the subagent `text` (Markdown with front matter), or undefined
 * when its front matter does not give a string `name` and `description`. Pure; never throws.
 */
export function codexAgentToml(text: string): string | undefined {
  const fm = readFrontMatter(text);
  const { name, description } = fm.data;
  if (fm.errors.length > 0 || typeof name !== 'string' || typeof description !== 'string') return undefined;
  const instructions = fm.body.replace(/^(?:\r?\n)+/u, '');
  // The instructions as a multi-line literal string, which a person can read and edit as the
  // Markdown it is (TOML 1.0, "String"); smol-toml's escaped basic string where that cannot hold
  // them (a ''' in the text, a control character). Either way the file parses back to the same values.
  const head = stringify({ name, description });
  const literal = `${head}\ndeveloper_instructions = '''\n${instructions}'''\n`;
  if (readsBack(literal, name, description, instructions)) return literal;
  return `${stringify({ name, description, developer_instructions: instructions })}\n`;
}

function readsBack(toml: string, name: string, description: string, instructions: string): boolean {
  try {
    const value = parse(toml);
    return value['name'] === name && value['description'] === description && value['developer_instructions'] === instructions && Object.keys(value).length === 3;
  } catch {
    return false;
  }
}
