/**
 * The install layout: where each file of a loadout lands in a project, per agent.
 *
 * Source: DESIGN.md section 3, corrected against the vendors' documentation (checked
 * 2026-11-22; see the README's "Install layout" section for the sources):
 * - Codex reads no Markdown rules folder (`.codex/rules` holds command-execution policy,
 *   developers.openai.com/codex/rules) but reads every `AGENTS.md` from the project root down
 *   (developers.openai.com/codex/guides/agents-md): a rule becomes a section of the loadout's
 *   `AGENTS.md` block, headed by its name and saying its scope in its first line
 *   (`installed-files.ts`).
 * - Gemini CLI has no rules folder, but its Memory Import Processor expands `@./path` lines in
 *   `GEMINI.md`, relative or absolute, nested up to five levels
 *   (geminicli.com/docs/reference/memport): a rule is written as `.gemini/rules/<name>.md` and
 *   imported by an `@` line in the loadout's `GEMINI.md` block, so it applies to every file.
 * - Without the file a rule is composed into (no `AGENTS.md`, or no Gemini CLI adapter, for the
 *   agent), a manual step says how to fold the rule in by hand.
 * - Antigravity reads workspace MCP servers from `.agents/mcp_config.json`, Codex from
 *   `.codex/config.toml` (`[mcp_servers.<name>]`, trusted projects only), Copilot in VS Code
 *   from `.vscode/mcp.json` (key `servers`) and Copilot CLI from `.github/mcp.json`
 *   (`mcpServers`; {@link MCP_ALSO_TARGETS}): the installer merges the servers into each in the
 *   agent's shape (`mcp-formats.ts`, checked 2026-11-26); only what no file can do (a variable
 *   to set) is a manual step.
 * - Codex custom agents are TOML files in `.codex/agents/` (written translated, codex-agent.ts);
 *   Antigravity documents no subagent folder.
 */
import type { FileEntry } from '../catalogue/manifest.js';
import type { Agent, Role } from '../catalogue/vocabulary.js';
import type { ManualStep } from '../tree-format/record.js';
import { COPILOT_CLI_MCP_FILE } from './mcp-formats.js';

// A manual step's shape is the published record's (tree-format/record.ts); the layout makes them.
export type { ManualStep } from '../tree-format/record.js';

/** Where one file goes for one agent: a project-relative target, or null plus why. */
export interface InstallTarget {
  target: string | null;
  /** Set when `target` is null because the agent cannot read this kind of file there. */
  manual?: Omit<ManualStep, 'source'>;
  /** True when the target comes from the entry's `install_to`. */
  overridden: boolean;
  /**
   * Set when the file is composed into another file the install writes for the same agent:
   * `section` (no file of its own: its text becomes a section of the file of role `into`) or
   * `import` (a file of its own, imported by an `@` line in the file of role `into`). `manual`
   * is then the step for when the loadout has no such file for the agent.
   */
  composed?: { into: Role; as: 'section' | 'import' };
  /**
   * Further targets the file is written to for the same agent, each in its own file's shape
   * ({@link MCP_ALSO_TARGETS}: Copilot CLI's `.github/mcp.json` beside VS Code's
   * `.vscode/mcp.json`). Only the default layout sets them: an `install_to` override names the
   * one target.
   */
  also?: readonly string[];
}

/** The root-level adapter file for each agent that uses one (spec: "root-level file named for that agent"). */
export const ADAPTER_TARGETS: Partial<Record<Agent, string>> = {
  'claude-code': 'CLAUDE.md',
  'gemini-cli': 'GEMINI.md',
};

/**
 * Where each agent reads a project's MCP servers (`mcp-formats.ts` has each file's shape and
 * source): Claude Code `.mcp.json`, Cursor `.cursor/mcp.json`, Gemini CLI
 * `.gemini/settings.json`, Codex `.codex/config.toml` (trusted projects only), VS Code's
 * Copilot `.vscode/mcp.json`, Antigravity `.agents/mcp_config.json`.
 */
export const MCP_TARGETS: Record<Agent, string> = {
  'claude-code': '.mcp.json',
  codex: '.codex/config.toml',
  cursor: '.cursor/mcp.json',
  'gemini-cli': '.gemini/settings.json',
  copilot: '.vscode/mcp.json',
  'antigravity-cli': '.agents/mcp_config.json',
};

/**
 * The MCP files an agent's install writes the same servers to besides {@link MCP_TARGETS}, each
 * in its reader's shape (`mcp-formats.ts`): for `copilot`, Copilot CLI's `.github/mcp.json`,
 * since the CLI reads project MCP servers from `.mcp.json` and `.github/mcp.json` and not from
 * VS Code's `.vscode/mcp.json` (docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/
 * add-mcp-servers, "Adding per-repository MCP servers"; github/copilot-cli#3019), and
 * `.mcp.json` is Claude Code's.
 */
export const MCP_ALSO_TARGETS: Readonly<Partial<Record<Agent, readonly string[]>>> = { copilot: [COPILOT_CLI_MCP_FILE] };

/** Every MCP file an agent's install writes by default: {@link MCP_TARGETS} and {@link MCP_ALSO_TARGETS}. */
export const agentMcpTargets = (agent: Agent): readonly string[] => [MCP_TARGETS[agent], ...(MCP_ALSO_TARGETS[agent] ?? [])];

/** Where each agent discovers skills: `<dir>/<skill>/SKILL.md`. */
export const SKILL_DIRS: Record<Agent, string> = {
  'claude-code': '.claude/skills',
  codex: '.agents/skills',
  cursor: '.agents/skills',
  'gemini-cli': '.agents/skills',
  copilot: '.agents/skills',
  'antigravity-cli': '.agents/skills',
};

/** The last path segment without its extension: `rules/api-style.md` → `api-style`. */
export function baseName(path: string): string {
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 ? last.slice(0, dot) : last;
}

/**
 * The path of a skill or reference file inside its skill folder: `skills/<skill>/<rest>` → `<rest>`.
 * A file outside `skills/<skill>/` keeps only its base name (the `install-paths` check fails it).
 */
export function pathInsideSkill(entry: FileEntry): string {
  const prefix = `skills/${entry.skill ?? ''}/`;
  return entry.path.startsWith(prefix) ? entry.path.slice(prefix.length) : entry.path.slice(entry.path.lastIndexOf('/') + 1);
}

type DefaultTarget = (entry: FileEntry, agent: Agent) => Omit<InstallTarget, 'overridden'>;

const DEFAULTS: Record<Role, DefaultTarget> = {
  instructions: () => ({ target: 'AGENTS.md' }),
  adapter: (entry, agent) => ({ target: entry.agent === agent ? (ADAPTER_TARGETS[agent] ?? null) : null }),
  skill: (entry, agent) => ({ target: `${SKILL_DIRS[agent]}/${entry.skill ?? baseName(entry.path)}/${pathInsideSkill(entry)}` }),
  reference: (entry, agent) => DEFAULTS.skill(entry, agent),
  rules: (entry, agent) => {
    const name = baseName(entry.path);
    switch (agent) {
      case 'claude-code':
        return { target: `.claude/rules/${name}.md` };
      case 'cursor':
        return { target: `.cursor/rules/${name}.mdc` };
      case 'copilot':
        return { target: `.github/instructions/${name}.instructions.md` };
      case 'antigravity-cli':
        return { target: `.agents/rules/${name}.md` };
      case 'codex':
        return {
          target: null,
          composed: { into: 'instructions', as: 'section' },
          manual: {
            kind: 'append-instructions',
            path: 'AGENTS.md',
            text: `Codex reads no rules folder (.codex/rules holds command policy, not instructions): append the body of ${entry.path} to AGENTS.md under a "## ${name}" heading.`,
          },
        };
      case 'gemini-cli':
        return {
          target: `.gemini/rules/${name}.md`,
          composed: { into: 'adapter', as: 'import' },
          manual: {
            kind: 'append-instructions',
            path: 'GEMINI.md',
            text: `Gemini CLI has no rules folder: add the line "@./.gemini/rules/${name}.md" to GEMINI.md (it then applies to every file).`,
          },
        };
    }
  },
  // Every agent's documented MCP file; the installer merges the servers in the agent's shape
  // (`mcp-formats.ts`: Codex TOML tables, VS Code `servers` and `inputs`, Antigravity `serverUrl`).
  mcp: (_entry, agent) => (MCP_ALSO_TARGETS[agent] === undefined ? { target: MCP_TARGETS[agent] } : { target: MCP_TARGETS[agent], also: MCP_ALSO_TARGETS[agent] }),
  subagent: (entry, agent) => {
    const name = baseName(entry.path);
    switch (agent) {
      case 'claude-code':
        return { target: `.claude/agents/${name}.md` };
      case 'cursor':
        return { target: `.cursor/agents/${name}.md` };
      case 'gemini-cli':
        return { target: `.gemini/agents/${name}.md` };
      case 'copilot':
        return { target: `.github/agents/${name}.agent.md` };
      case 'codex':
        // Written as Codex's custom-agent TOML (codex-agent.ts; developers.openai.com/codex/subagents).
        return { target: `.codex/agents/${name}.toml` };
      case 'antigravity-cli':
        return { target: null, manual: { kind: 'not-supported', path: entry.path, text: `Antigravity documents no project folder for subagents; paste the body of ${entry.path} into a prompt when you need this subagent.` } };
    }
  },
};

/**
 * Resolves the install target of one file entry for one agent: the entry's `install_to`
 * override when it names the agent (a string path, or null for "not installed"), else the
 * default layout above. Pure; never throws.
 */
export function resolveInstallTarget(entry: FileEntry, agent: Agent): InstallTarget {
  const overrides = entry.install_to as Partial<Record<Agent, string | null>> | undefined;
  if (overrides !== undefined && Object.hasOwn(overrides, agent)) {
    const target = overrides[agent] ?? null;
    // An author's null is a decision, not a gap in the agent: no manual step.
    return { target, overridden: true };
  }
  return { ...DEFAULTS[entry.role](entry, agent), overridden: false };
}
