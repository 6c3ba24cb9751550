/**
 * The context caps the agents document: past one, an agent reads no further (or truncates what
 * it lists), so an install of a composition of loadouts can lose instructions silently (issue
 * 33, point 4). Each cap with its source (checked 2026-11-26):
 * - Codex reads `AGENTS.md` files (the global one, then from the project root down) until their
 *   combined size reaches `project_doc_max_bytes`, 32 KiB by default, and stops there
 *   (developers.openai.com/codex/guides/agents-md; `DEFAULT_PROJECT_DOC_MAX_BYTES = 32 * 1024`
 *   in openai/codex `codex-rs/config/src/config_toml.rs`). Checked over the composed project
 *   `AGENTS.md`.
 * - Codex lists every skill's name and description in its context within a budget of about 2 %
 *   of the context window (developers.openai.com/codex/skills), logged as `budget_limit=5440`
 *   characters for the default window, past which descriptions are truncated (openai/codex
 *   issue 24299, `codex-tui.log`: "truncated skill metadata to fit skills context budget").
 *   Checked over the names and descriptions of the skills installed for Codex.
 * - Antigravity reads at most 12,000 characters of a rule file
 *   (antigravity.google/docs/rules-workflows: "Rule files are limited to 12,000 characters
 *   each"). Checked per `.agents/rules/*.md` file.
 * - Claude Code warns "Large CLAUDE.md will impact performance" above 40,000 characters (its
 *   start-up message; its documentation gives no figure). Checked per `CLAUDE.md`.
 * - Gemini CLI, GitHub Copilot and Cursor document no cap on these files (GitHub's note that
 *   Copilot code review reads only the first 4,000 characters was removed from docs.github.com).
 * Pure: text in, warnings out.
 */
import { readFrontMatterData } from '../catalogue/front-matter-data.js';
import type { Agent } from '../catalogue/vocabulary.js';

/** One documented cap. */
export interface ContextCap {
  agent: Agent;
  /** What is measured: one file by name (`file`) or below a folder (`folder`), or all skills' names and descriptions together. */
  over: { file: string } | { folder: string } | { skills: true };
  limit: number;
  unit: 'bytes' | 'characters';
  /** The cap's name and what happens past it. */
  name: string;
  source: string;
}

/** The caps (see the module comment for the sources). */
export const CONTEXT_CAPS: readonly ContextCap[] = [
  { agent: 'codex', over: { file: 'AGENTS.md' }, limit: 32 * 1024, unit: 'bytes', name: 'project_doc_max_bytes (default 32 KiB; Codex reads no further)', source: 'developers.openai.com/codex/guides/agents-md' },
  { agent: 'codex', over: { skills: true }, limit: 5440, unit: 'characters', name: 'the skills list budget (about 2 % of the context window; descriptions past it are truncated)', source: 'developers.openai.com/codex/skills; openai/codex issue 24299 (budget_limit=5440)' },
  { agent: 'antigravity-cli', over: { folder: '.agents/rules' }, limit: 12_000, unit: 'characters', name: 'the rule file limit (Antigravity reads 12,000 characters of a rule file)', source: 'antigravity.google/docs/rules-workflows' },
  { agent: 'claude-code', over: { file: 'CLAUDE.md' }, limit: 40_000, unit: 'characters', name: 'Claude Code\'s "Large CLAUDE.md will impact performance" warning', source: 'Claude Code\'s start-up message (not in its documentation)' },
];

/** A cap passed: what (a target, or `skills list`), its size, the cap, and by how much. */
export interface CapWarning {
  agent: Agent;
  target: string;
  size: number;
  cap: ContextCap;
  /** `size - cap.limit`, in the cap's unit. */
  excess: number;
}

const measure = (text: string, unit: ContextCap['unit']): number => (unit === 'bytes' ? Buffer.byteLength(text, 'utf8') : [...text].length);

function warn(agent: Agent, target: string, size: number, cap: ContextCap): CapWarning[] {
  return size > cap.limit ? [{ agent, target, size, cap, excess: size - cap.limit }] : [];
}

/** The file caps `text` at the project-relative `target` passes for `agent`. */
export function checkFileCaps(agent: Agent, target: string, text: string): CapWarning[] {
  const name = target.slice(target.lastIndexOf('/') + 1);
  return CONTEXT_CAPS.filter((c) => c.agent === agent && (('file' in c.over && c.over.file === name) || ('folder' in c.over && target.startsWith(`${c.over.folder}/`)))).flatMap((cap) => warn(agent, target, measure(text, cap.unit), cap));
}

/** The characters a skill takes in a skills list: its name and its description, from the `SKILL.md` front matter. */
export function skillListingSize(skillMd: string): number {
  const data = readFrontMatterData(skillMd);
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return [...text(data['name'])].length + [...text(data['description'])].length;
}

/** The skills-list caps that `skills` (the texts of the `SKILL.md` files `agent` discovers) pass together. */
export function checkSkillsList(agent: Agent, skills: readonly string[]): CapWarning[] {
  const size = skills.reduce((sum, text) => sum + skillListingSize(text), 0);
  return CONTEXT_CAPS.filter((c) => c.agent === agent && 'skills' in c.over).flatMap((cap) => warn(agent, 'skills list', size, cap));
}

/** One line for a warning: `<target> is <n> <unit> for <agent>, <excess> past <limit> (<name>; source: <source>)`. */
export function describeCapWarning(w: CapWarning): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  return `${w.target} is ${n(w.size)} ${w.cap.unit} for ${w.agent}, ${n(w.excess)} past ${n(w.cap.limit)} (${w.cap.name}; source: ${w.cap.source})`;
}
