/**
 * The adapter generator (DESIGN.md section 3; spec "Install layout in published records"): Claude
 * Code reads `CLAUDE.md` and Gemini CLI reads `GEMINI.md`, and neither reads `AGENTS.md` by default
 * (Claude Code memory docs; gemini-cli docs/cli/gemini-md.md and google-gemini/gemini-cli issue
 * #28227). Each adapter is a short root file that imports `AGENTS.md` with the agent's own import
 * syntax (`@path`, supported by both) and states that `AGENTS.md` wins where the two disagree. The
 * `adapters` check compares every adapter file with this output.
 */
import type { Agent } from '../catalogue/vocabulary.js';
import { ADAPTER_TARGETS } from '../layout/layout.js';

/** Agents that need an adapter file, in a fixed order. */
export const ADAPTER_AGENTS = ['claude-code', 'gemini-cli'] as const satisfies readonly Agent[];
export type AdapterAgent = (typeof ADAPTER_AGENTS)[number];

const AGENT_NAMES: Record<AdapterAgent, string> = { 'claude-code': 'Claude Code', 'gemini-cli': 'Gemini CLI' };

/** The file name of the adapter for `agent` (`CLAUDE.md`, `GEMINI.md`). */
export function adapterFileName(agent: AdapterAgent): string {
  return ADAPTER_TARGETS[agent] ?? `${agent}.md`;
}

/**
 * `title` as text in a Markdown heading: what would make it markup (an HTML tag or character
 * reference, a link or image, code) written as character references or escapes (CommonMark
 * sections 2.4 and 2.5), so that a title such as `<img src=x>` reads as those characters and
 * is no reference of the adapter's. A title without them is written as it is.
 */
function headingText(title: string): string {
  return title.replace(/[&<>]/gu, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;')).replace(/[[\]\\`]/gu, (c) => `\\${c}`);
}

/**
 * The exact text of the adapter for `agent`, for the loadout titled `title`.
 * Deterministic: the same arguments give the same bytes; ends with one newline.
 */
export function generateAdapter(agent: AdapterAgent, title: string): string {
  return [
    `# ${adapterFileName(agent)}: ${headingText(title)}`,
    '',
    '@AGENTS.md',
    '',
    `${AGENT_NAMES[agent]} reads this file rather than AGENTS.md, so it imports AGENTS.md above.`,
    'AGENTS.md holds the instructions of this project: where this file and AGENTS.md disagree, AGENTS.md wins.',
    '',
  ].join('\n');
}
