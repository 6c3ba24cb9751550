/**
 * The user-scope layout (`--global`, DESIGN.md section 8): where each file lands in the user's
 * home folder, per agent, as each agent documents its user-level files. Targets are relative
 * to the home folder. A role an agent has no user-level file for becomes a manual step.
 *
 * Sources (the vendors' documentation, checked 2026-11-22):
 * - Claude Code (code.claude.com/docs/en/memory, /skills, /sub-agents, /mcp): user memory
 *   `~/.claude/CLAUDE.md` (it imports `@AGENTS.md`, resolved beside it), user rules
 *   `~/.claude/rules/`, skills `~/.claude/skills/`, subagents `~/.claude/agents/`; user MCP
 *   servers live in `~/.claude.json`, which `claude mcp add --scope user` manages: manual.
 * - Codex (developers.openai.com/codex/guides/agents-md, /codex/skills): global guidance
 *   `~/.codex/AGENTS.md`, user skills `~/.agents/skills/`, MCP servers as tables of
 *   `~/.codex/config.toml` (merged line by line, `install/compose/toml-tables.ts`), custom
 *   agents as TOML in `~/.codex/agents/` (/codex/subagents; `codex-agent.ts`); rules have no
 *   Markdown place: manual.
 * - Cursor (cursor.com/docs): user skills `~/.cursor/skills/`, subagents `~/.cursor/agents/`,
 *   global MCP `~/.cursor/mcp.json`; user rules live in Cursor Settings, not in files: manual.
 * - Gemini CLI (geminicli.com/docs): global context `~/.gemini/GEMINI.md` (its `@AGENTS.md`
 *   import resolves to `~/.gemini/AGENTS.md`), user settings `~/.gemini/settings.json`
 *   (`mcpServers`), user skills `~/.agents/skills/`, subagents `~/.gemini/agents/`.
 * - GitHub Copilot (docs.github.com, "About agent skills"): personal skills `~/.copilot/skills/`;
 *   instructions, rules, MCP and agents have no user-level file in every Copilot client: manual.
 * - Antigravity: no user-level folders documented: manual.
 *
 * An entry's `install_to` is for projects: in the user scope a path override is not used
 * (the default above applies), while `null` still means "not installed".
 */
import type { FileEntry } from '../catalogue/manifest.js';
import type { Agent, Role } from '../catalogue/vocabulary.js';
import { ADAPTER_TARGETS, baseName, pathInsideSkill, type InstallTarget } from './layout.js';
import { describeSettingsProblem } from './protected-paths.js';

/** User-level skill folders, relative to the home folder (null: none documented). */
const USER_SKILL_DIRS: Record<Agent, string | null> = {
  'claude-code': '.claude/skills',
  codex: '.agents/skills',
  cursor: '.cursor/skills',
  'gemini-cli': '.agents/skills',
  copilot: '.copilot/skills',
  'antigravity-cli': null,
};

/** The folder holding each agent's user-level instructions and adapter (null: none). */
const USER_CONTEXT_DIRS: Record<Agent, string | null> = {
  'claude-code': '.claude',
  codex: '.codex',
  cursor: null,
  'gemini-cli': '.gemini',
  copilot: null,
  'antigravity-cli': null,
};

const USER_RULE_DIRS: Partial<Record<Agent, string>> = { 'claude-code': '.claude/rules' };
const USER_AGENT_DIRS: Partial<Record<Agent, string>> = { 'claude-code': '.claude/agents', codex: '.codex/agents', cursor: '.cursor/agents', 'gemini-cli': '.gemini/agents' };
const USER_MCP_FILES: Partial<Record<Agent, string>> = { codex: '.codex/config.toml', cursor: '.cursor/mcp.json', 'gemini-cli': '.gemini/settings.json' };

const manual = (entry: FileEntry, agent: Agent, where: string): Omit<InstallTarget, 'overridden'> => ({
  target: null,
  manual: { kind: 'not-supported', path: entry.path, text: `${agent} has no user-level file for ${entry.role} files that loadout can write: ${where}` },
});

/**
 * The user-scope target of one file entry for one agent (relative to the home folder), or
 * null with a manual step. Pure; never throws.
 */
export function resolveUserTarget(entry: FileEntry, agent: Agent): InstallTarget {
  const overrides = entry.install_to as Partial<Record<Agent, string | null>> | undefined;
  if (overrides !== undefined && Object.hasOwn(overrides, agent) && overrides[agent] === null) return { target: null, overridden: true };
  return { ...userDefault(entry, agent), overridden: false };
}

function userDefault(entry: FileEntry, agent: Agent): Omit<InstallTarget, 'overridden'> {
  const context = USER_CONTEXT_DIRS[agent];
  switch (entry.role) {
    case 'instructions':
      return context === null ? manual(entry, agent, `paste ${entry.path} into the agent's user rules or instructions setting.`) : { target: `${context}/AGENTS.md` };
    case 'adapter': {
      const name = ADAPTER_TARGETS[agent];
      if (entry.agent !== agent || name === undefined) return { target: null };
      return context === null ? manual(entry, agent, `${entry.path} has no user-level place.`) : { target: `${context}/${name}` };
    }
    case 'skill':
    case 'reference': {
      const dir = USER_SKILL_DIRS[agent];
      return dir === null ? manual(entry, agent, `copy ${entry.path} into a project instead.`) : { target: `${dir}/${entry.skill ?? baseName(entry.path)}/${pathInsideSkill(entry)}` };
    }
    case 'rules': {
      const dir = USER_RULE_DIRS[agent];
      return dir === undefined ? manual(entry, agent, `add the body of ${entry.path} to the agent's user instructions.`) : { target: `${dir}/${baseName(entry.path)}.md` };
    }
    case 'mcp': {
      const file = USER_MCP_FILES[agent];
      return file === undefined ? manual(entry, agent, `add each server of ${entry.path} with the agent's own command or settings (for Claude Code: claude mcp add --scope user).`) : { target: file };
    }
    case 'subagent': {
      const dir = USER_AGENT_DIRS[agent];
      // Codex's custom agents are TOML (codex-agent.ts).
      return dir === undefined ? manual(entry, agent, `create the agent from ${entry.path} in the agent's own format.`) : { target: `${dir}/${baseName(entry.path)}${agent === 'codex' ? '.toml' : '.md'}` };
    }
  }
}

/** Every user-level folder and file of `agent` (relative to the home folder): `{folders, files}`. */
export function userLocations(agent: Agent): { folders: string[]; files: string[] } {
  const context = USER_CONTEXT_DIRS[agent];
  const adapter = ADAPTER_TARGETS[agent];
  const folders = [USER_SKILL_DIRS[agent], USER_RULE_DIRS[agent], USER_AGENT_DIRS[agent]].filter((d): d is string => d !== null && d !== undefined);
  const files = [context === null ? undefined : `${context}/AGENTS.md`, context === null || adapter === undefined ? undefined : `${context}/${adapter}`, USER_MCP_FILES[agent]].filter((f): f is string => f !== undefined);
  return { folders, files };
}

/**
 * True when `target` (relative to the home folder) is one of `agent`'s user-level places for
 * a file of `role`: never a settings or MCP file for a role other than `mcp`
 * (`protected-paths.ts`, which applies in the home folder as in a project).
 */
export function isUserLocation(role: Role, agent: Agent, target: string): boolean {
  if (describeSettingsProblem(role, target) !== undefined) return false;
  const { folders, files } = userLocations(agent);
  return files.includes(target) || folders.some((folder) => target.startsWith(`${folder}/`));
}
