/**
 * Size limits vendors set on the instruction files they read, so an install can warn when a
 * composed file passes one. Checked 2026-11-25:
 * - Codex reads `AGENTS.md` files (the global `~/.codex/AGENTS.md`, then from the project root
 *   down) until their combined size reaches `project_doc_max_bytes`, 32 KiB by default, and
 *   truncates there (developers.openai.com/codex/guides/agents-md, "project_doc_max_bytes";
 *   `DEFAULT_PROJECT_DOC_MAX_BYTES = 32 * 1024` in codex-rs/config/src/config_toml.rs). A
 *   composed `AGENTS.md` above it is cut off for Codex.
 * - Claude Code warns "Large CLAUDE.md will impact performance" above 40,000 characters (the
 *   product's own start-up message; its documentation gives no figure).
 * - Gemini CLI, GitHub Copilot and Antigravity document no size limit on these files (GitHub's
 *   note that Copilot code review reads only the first 4,000 characters was removed from
 *   docs.github.com).
 */
import type { Agent } from '../../catalogue/vocabulary.js';

/** One vendor's limit on one instruction file. */
export interface SizeLimit {
  agent: Agent;
  /** The file's name (its last path segment). */
  file: string;
  limit: number;
  unit: 'bytes' | 'characters';
  /** The limit's name and what happens past it. */
  name: string;
  source: string;
}

/** The limits (see the module comment for the sources). */
export const SIZE_LIMITS: readonly SizeLimit[] = [
  { agent: 'codex', file: 'AGENTS.md', limit: 32 * 1024, unit: 'bytes', name: 'project_doc_max_bytes (default 32 KiB; Codex reads no further)', source: 'developers.openai.com/codex/guides/agents-md' },
  { agent: 'claude-code', file: 'CLAUDE.md', limit: 40_000, unit: 'characters', name: 'Claude Code\'s "Large CLAUDE.md will impact performance" warning', source: 'Claude Code\'s start-up message (not in its documentation)' },
];

/** A composed file past a limit. */
export interface SizeWarning {
  agent: Agent;
  target: string;
  size: number;
  limit: SizeLimit;
}

/** The limits `text` at `target` passes for `agent`. Pure. */
export function checkSize(agent: Agent, target: string, text: string): SizeWarning[] {
  const name = target.slice(target.lastIndexOf('/') + 1);
  return SIZE_LIMITS.filter((l) => l.agent === agent && l.file === name).flatMap((limit) => {
    const size = limit.unit === 'bytes' ? Buffer.byteLength(text, 'utf8') : [...text].length;
    return size > limit.limit ? [{ agent, target, size, limit }] : [];
  });
}
