/**
 * The plugin formats a loadout's plugin folder holds (plugin-folder.ts), which agent reads
 * which, and what a format leaves out. Pure data.
 */
import type { FileEntry } from '../catalogue/manifest.js';
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


/** What a format carries of a role (`true`), or why not. */
const CARRIES: Record<PluginFormat, Partial<Record<FileEntry['role'], string>>> = {
  'agent-plugins': {
    instructions: 'Agent Plugins 1.0 has no project instructions',
    adapter: 'Agent Plugins 1.0 has no project instructions',
    rules: 'Agent Plugins 1.0 has no rules',
    subagent: 'Agent Plugins 1.0 has no subagents',
  },
  'claude-code': {
    instructions: 'a Claude Code plugin carries no CLAUDE.md or AGENTS.md',
    adapter: 'a Claude Code plugin carries no CLAUDE.md or AGENTS.md',
    rules: 'a Claude Code plugin carries no rules',
  },
  'gemini-cli': {
    // The adapter only imports AGENTS.md, which the extension loads itself (contextFileName).
    rules: 'a Gemini CLI extension has no rules (the install command imports them into GEMINI.md)',
  },
  cursor: {
    instructions: 'a Cursor plugin carries no AGENTS.md',
  },
};

/** The adapter is the rest of the instructions, and matters only to the format of its agent. */
const concerns = (entry: FileEntry, format: PluginFormat): boolean => entry.role !== 'adapter' || (entry.agent !== undefined && PLUGIN_FORMAT_OF[entry.agent] === format);

/**
 * What each format cannot carry of a loadout whose manifest lists `entries` (in order), and
 * whose MCP servers `refused` Agent Plugins 1.0 cannot carry (plugin-manifests.ts
 * `agentPluginsMcp`). A plugin carries the first `instructions` file only. Pure.
 */
export function listUncarried(entries: readonly FileEntry[], refused: readonly { name: string; reason: string }[]): UncarriedPart[] {
  const uncarried: UncarriedPart[] = [];
  let instructions = false;
  for (const entry of entries) {
    if (entry.role === 'mcp') continue;
    if (entry.role === 'instructions' && instructions) {
      for (const format of Object.keys(CARRIES) as PluginFormat[]) uncarried.push({ format, part: entry.path, why: 'a plugin carries one instructions file' });
      continue;
    }
    if (entry.role === 'instructions') instructions = true;
    for (const [format, roles] of Object.entries(CARRIES) as [PluginFormat, Partial<Record<FileEntry['role'], string>>][]) {
      const why = roles[entry.role];
      if (why !== undefined && concerns(entry, format)) uncarried.push({ format, part: entry.path, why });
    }
  }
  for (const server of refused) uncarried.push({ format: 'agent-plugins', part: `mcp:${server.name}`, why: server.reason });
  return uncarried;
}
