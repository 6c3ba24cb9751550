/**
 * Where each agent discovers each kind of file: the knowledge behind the `install-paths`
 * check ("installs that the agent really reads", DESIGN.md section 8). A target outside these
 * places is silently ignored by the agent. Sources as in `layout.ts`; skills also from
 * cursor.com/docs/skills, geminicli.com "Managing Agent Skills" and GitHub's "About agent
 * skills", which list the compatible skill folders each agent scans.
 */
import type { Agent, Role } from '../catalogue/vocabulary.js';

type Matcher = (target: string) => boolean;

const under = (dirs: string[], suffix = ''): Matcher => (t) => dirs.some((d) => t.startsWith(`${d}/`) && t.length > d.length + 1 && t.endsWith(suffix));
const exact = (paths: string[]): Matcher => (t) => paths.includes(t);
const named = (name: string): Matcher => (t) => t === name || t.endsWith(`/${name}`);
const nowhere: Matcher = () => false;

const SKILL_FOLDERS: Record<Agent, string[]> = {
  'claude-code': ['.claude/skills'],
  codex: ['.agents/skills', '.codex/skills'],
  cursor: ['.agents/skills', '.cursor/skills', '.claude/skills'],
  'gemini-cli': ['.agents/skills', '.gemini/skills'],
  copilot: ['.agents/skills', '.github/skills', '.claude/skills'],
  'antigravity-cli': ['.agents/skills'],
};

const DISCOVERY: Record<Role, Record<Agent, Matcher>> = {
  instructions: {
    'claude-code': named('AGENTS.md'),
    codex: named('AGENTS.md'),
    cursor: named('AGENTS.md'),
    'gemini-cli': named('AGENTS.md'),
    copilot: named('AGENTS.md'),
    'antigravity-cli': named('AGENTS.md'),
  },
  adapter: {
    'claude-code': named('CLAUDE.md'),
    codex: nowhere,
    cursor: nowhere,
    'gemini-cli': named('GEMINI.md'),
    copilot: nowhere,
    'antigravity-cli': named('GEMINI.md'),
  },
  skill: mapAgents((agent) => under(SKILL_FOLDERS[agent])),
  reference: mapAgents((agent) => under(SKILL_FOLDERS[agent])),
  rules: {
    'claude-code': under(['.claude/rules'], '.md'),
    codex: nowhere,
    cursor: under(['.cursor/rules'], '.mdc'),
    // Read because the loadout's GEMINI.md block imports it (layout.ts; geminicli.com/docs/reference/memport).
    'gemini-cli': under(['.gemini/rules'], '.md'),
    copilot: under(['.github/instructions'], '.instructions.md'),
    'antigravity-cli': under(['.agents/rules'], '.md'),
  },
  mcp: {
    'claude-code': exact(['.mcp.json']),
    codex: exact(['.codex/config.toml']),
    cursor: exact(['.cursor/mcp.json']),
    'gemini-cli': exact(['.gemini/settings.json']),
    // VS Code's file, and Copilot CLI's (layout.ts `MCP_ALSO_TARGETS`).
    copilot: exact(['.vscode/mcp.json', '.github/mcp.json']),
    'antigravity-cli': exact(['.agents/mcp_config.json']),
  },
  subagent: {
    'claude-code': under(['.claude/agents'], '.md'),
    codex: under(['.codex/agents'], '.toml'),
    cursor: under(['.cursor/agents'], '.md'),
    'gemini-cli': under(['.gemini/agents'], '.md'),
    copilot: under(['.github/agents'], '.agent.md'),
    'antigravity-cli': nowhere,
  },
};

function mapAgents(make: (agent: Agent) => Matcher): Record<Agent, Matcher> {
  return {
    'claude-code': make('claude-code'),
    codex: make('codex'),
    cursor: make('cursor'),
    'gemini-cli': make('gemini-cli'),
    copilot: make('copilot'),
    'antigravity-cli': make('antigravity-cli'),
  };
}

/** True when `agent` reads a file of `role` at the project-relative `target`. */
export function isDiscoverable(role: Role, agent: Agent, target: string): boolean {
  return DISCOVERY[role][agent](target);
}

/** The skill folders `agent` scans, e.g. `['.agents/skills', '.codex/skills']`. */
export function skillFolders(agent: Agent): readonly string[] {
  return SKILL_FOLDERS[agent];
}
