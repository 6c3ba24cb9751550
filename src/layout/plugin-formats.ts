/**
 * The plugin formats a loadout's plugin folder holds (plugin-folder.ts), which agent reads
 * which, and what a format leaves out. Pure data.
 */
import type { Agent } from '../catalogue/vocabulary.js';

/** The plugin formats of the folder. */
export type PluginFormat = 'agent-plugins' | 'claude-code' | 'gemini-cli' | 'cursor';

/** The format each agent's plugin manager reads (AGENT-FORMATS.md; Antigravity imports Gemini extensions). */
export const PLUGIN_FORMAT_OF: Record<Agent, PluginFormat> = {
  'claude-code': 'claude-code',
  codex: 'agent-plugins',
  copilot: 'agent-plugins',
  cursor: 'cursor',
  'gemini-cli': 'gemini-cli',
  'antigravity-cli': 'gemini-cli',
};

/** Each format's name for people, with the agents that read it. */
export const PLUGIN_FORMAT_NAMES: Record<PluginFormat, string> = {
  'agent-plugins': 'Agent Plugins 1.0 (Codex, Copilot CLI, VS Code)',
  'claude-code': 'Claude Code',
  'gemini-cli': 'Gemini CLI extension (and Antigravity)',
  cursor: 'Cursor',
};

/** Something of the loadout that a format cannot carry: the loadout file (or MCP server) and why. */
export interface UncarriedPart {
  format: PluginFormat;
  /** The loadout's file path, or `mcp:<server>` for one MCP server. */
  part: string;
  why: string;
}

