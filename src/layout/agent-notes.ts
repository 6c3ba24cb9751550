/**
 * What a reader of an agent's install instructions should know about the agent itself, with
 * its source (issue 33, point 5; checked 2026-11-26). Shown beside the agent's install panel.
 */
import type { Agent } from '../catalogue/vocabulary.js';

/** A note on one agent: a sentence, and where it was read. */
export interface AgentNote {
  text: string;
  source: string;
}

/** Notes per agent (none for most). */
export const AGENT_NOTES: Partial<Record<Agent, AgentNote>> = {
  'gemini-cli': {
    text: "Gemini CLI's individual tier (Google AI Pro and Ultra, free Code Assist for individuals) stopped serving on 2026-06-18; it still runs with a Gemini API key or a Code Assist Standard or Enterprise licence. Antigravity CLI (agy) replaces it and imports Gemini CLI extensions: see the Antigravity tab.",
    source: 'https://developers.googleblog.com/an-important-update-transitioning-gemini-cli-to-antigravity-cli/',
  },
  copilot: {
    text: 'MCP servers are written to .vscode/mcp.json, which VS Code reads; Copilot CLI reads .mcp.json and .github/mcp.json instead.',
    source: 'https://github.com/github/copilot-cli/issues/3019',
  },
};
