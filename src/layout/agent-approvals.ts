/**
 * What each agent itself asks the user to approve when it first meets what an install wrote
 * (issue 54, point 2: "the per-agent tab says what the agent will ask the user to approve"):
 * trusting the project folder, starting the project's MCP servers, running their tools,
 * activating a skill. It is the agent's own prompt, apart from what `loadout install` asks
 * before it writes anything (`capabilities/consent.ts`). Each fact carries the page it was read
 * on; vendors change these often (checked 2026-11-28; /work/shared/AGENT-FORMATS.md).
 *
 * - Claude Code: "Do you trust the files in this folder?" on the first start in a folder, and a
 *   one-time approval of each project-scoped server of `.mcp.json` (code.claude.com/docs/en/security,
 *   "Trust verification"; code.claude.com/docs/en/mcp, "Project scope": "Claude Code prompts for
 *   approval before using project-scoped servers from .mcp.json files").
 * - Codex: project configuration (`.codex/config.toml`, where the install writes MCP servers)
 *   is loaded only in a project the user trusted (openai/codex#9533, "Only load config from
 *   trusted folders", January 2026).
 * - Gemini CLI: folder trust, on by default (`security.folderTrust.enabled` defaults to true in
 *   google-gemini/gemini-cli `packages/cli/src/config/settingsSchema.ts`): an untrusted folder's
 *   `.gemini/settings.json` is ignored and its MCP servers do not connect
 *   (geminicli.com/docs/cli/trusted-folders); each MCP tool call is confirmed unless the server
 *   has `trust` (geminicli.com/docs/tools/mcp-server); each skill's activation asks for consent
 *   (geminicli.com/docs/cli/skills, "Consent").
 * - Cursor: "All MCP connections need your approval. After you approve an MCP connection, each
 *   tool call still needs individual approval" (cursor.com/docs/agent/security).
 * - Copilot (VS Code reads the `.vscode/mcp.json` the install writes): a workspace's MCP server
 *   is trusted by the user the first time it runs and whenever its definition changes
 *   (microsoft/vscode#257564, "mcp: implement autorun, rework trust"), and its tool calls are
 *   confirmed (agentscli.com/course/copilot/extending/trust, a third-party course: confirm).
 * - Antigravity: the agent asks before terminal commands and tool calls as its review and
 *   execution policies say (antigravity.google/docs/agent-modes-settings; third-party copies of
 *   that page were read: confirm against the product).
 *
 * Pure data and a pure selection.
 */
import type { Agent } from '../catalogue/vocabulary.js';

/** What of an install makes the agent ask: any install (`always`), MCP servers it writes (`mcp`), skills it writes (`skills`). */
export type ApprovalTrigger = 'always' | 'mcp' | 'skills';

/** One prompt of the agent's own, in a sentence, and where that was read. */
export interface AgentApproval {
  when: ApprovalTrigger;
  text: string;
  source: string;
}

/** Per agent, its prompts (see the module comment for each source). */
export const AGENT_APPROVALS: Readonly<Record<Agent, readonly AgentApproval[]>> = {
  'claude-code': [
    { when: 'always', text: 'Claude Code asks whether you trust the files in the project folder the first time it starts there.', source: 'https://code.claude.com/docs/en/security' },
    { when: 'mcp', text: 'It asks you to approve each MCP server of the project\'s .mcp.json once before it starts it (claude mcp reset-project-choices asks again), then asks before each MCP tool call you have not allowed.', source: 'https://code.claude.com/docs/en/mcp' },
  ],
  codex: [
    { when: 'mcp', text: 'Codex reads the project\'s .codex/config.toml, where the MCP servers go, only once you trust the project (it asks on its first start in the folder); until then they do not start.', source: 'https://github.com/openai/codex/pull/9533' },
  ],
  cursor: [
    { when: 'mcp', text: 'Cursor asks you to approve each MCP server before it connects, and then each of its tool calls unless you allow-list the tool.', source: 'https://cursor.com/docs/agent/security' },
  ],
  'gemini-cli': [
    { when: 'always', text: 'Gemini CLI asks whether to trust the folder on its first start there; in a folder you do not trust it ignores .gemini/settings.json and connects no MCP server.', source: 'https://geminicli.com/docs/cli/trusted-folders/' },
    { when: 'mcp', text: 'It asks before each call of an MCP server\'s tool unless the server has trust: true.', source: 'https://geminicli.com/docs/tools/mcp-server/' },
    { when: 'skills', text: 'It asks for your consent each time it activates one of the skills, naming the folder the skill may read.', source: 'https://geminicli.com/docs/cli/skills/' },
  ],
  copilot: [
    { when: 'mcp', text: 'VS Code asks you to trust each MCP server of .vscode/mcp.json the first time it starts it and again when its definition changes; Copilot asks you to confirm its tool calls.', source: 'https://github.com/microsoft/vscode/pull/257564' },
    { when: 'mcp', text: 'Copilot CLI loads the servers of .github/mcp.json only once you trust the folder (it asks on its first start there; in prompt mode, copilot -p, only with GITHUB_COPILOT_PROMPT_MODE_WORKSPACE_MCP=true), and asks before each MCP tool call.', source: 'https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-mcp-servers' },
  ],
  'antigravity-cli': [
    { when: 'always', text: 'Antigravity asks before the agent runs a terminal command or a tool, as its review and execution policies are set (/permissions).', source: 'https://antigravity.google/docs/agent-modes-settings' },
  ],
};

/** What an install brings that the agent's prompts are about. */
export interface InstalledKinds {
  /** It writes MCP servers for the agent. */
  mcp: boolean;
  /** It writes skills for the agent. */
  skills: boolean;
}

/** The prompts of `agent` for an install that brings `kinds`, in the table's order. Pure. */
export function agentApprovals(agent: Agent, kinds: InstalledKinds): AgentApproval[] {
  return AGENT_APPROVALS[agent].filter((a) => a.when === 'always' || kinds[a.when]);
}
