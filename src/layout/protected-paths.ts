/**
 * What may be written where among the agents' own settings: the one table that the installer
 * (`prepare.ts`, `apply.ts`) and the `install-paths` check share, so that the installer is
 * never laxer than the checker (DESIGN.md section 8, "a catalogue is not trusted").
 *
 * Rule: an agent's settings and configuration files, and every file an agent reads hooks or
 * permissions from, are never written whole from a catalogue, whatever the role, the
 * `install_to` or `--force`. Only a file of role `mcp` may touch an MCP configuration, and only
 * one whose servers the installer merges (`MCP_FILE_FORMATS` of `mcp-formats.ts`: the JSON
 * files' `mcpServers` or VS Code's `servers` and `inputs`, Codex's `[mcp_servers.<name>]`
 * tables; `install/compose/mcp-servers.ts`): the loadout's server entries are added to it and
 * nothing else; in `.codex/config.toml` every other byte of the user's stays as it is.
 *
 * The files, per vendor (documentation checked 2026-11-25):
 * - Claude Code: `.claude/settings.json`, `.claude/settings.local.json` (any
 *   `.claude/settings*.json`: permissions, hooks, env; code.claude.com/docs/en/settings and
 *   /hooks), `.mcp.json` (project MCP servers, code.claude.com/docs/en/mcp), `~/.claude.json`
 *   (user MCP servers and state).
 * - Codex: `.codex/config.toml` (approval_policy, sandbox_mode, `[mcp_servers]`, inline
 *   `[hooks]`; developers.openai.com/codex/config-reference), `.codex/hooks.json`
 *   (developers.openai.com/codex/hooks), `.codex/rules/` (command-execution policy,
 *   developers.openai.com/codex/rules), `.codex/requirements.toml`.
 * - Gemini CLI: `.gemini/settings.json` (tools, hooks, `mcpServers`;
 *   geminicli.com/docs/cli/configuration, /docs/hooks), `.gemini/policies/` (policy engine
 *   rules, geminicli.com/docs/core/policy-engine).
 * - Cursor: `.cursor/mcp.json` (cursor.com/docs/context/mcp), `.cursor/hooks.json`
 *   (cursor.com/docs/agent/hooks), `.cursor/cli.json` (CLI permissions,
 *   cursor.com/docs/cli/reference/permissions), `.cursor/environment.json` (background agent
 *   install commands); Cursor also runs the hooks of `.claude/settings*.json`
 *   (cursor.com/docs/reference/third-party-hooks).
 * - GitHub Copilot: `.vscode/*` (VS Code workspace settings, including
 *   `chat.tools.autoApprove`, tasks that run on folder open, and `.vscode/mcp.json`;
 *   code.visualstudio.com/docs/copilot/customization/mcp-servers), `.github/hooks/`
 *   (hooks of Copilot cloud agent and CLI, docs.github.com "About hooks"), `.github/mcp.json`
 *   (Copilot CLI's project MCP servers, docs.github.com/en/copilot/how-tos/copilot-cli/
 *   customize-copilot/add-mcp-servers).
 * - Antigravity: `.agents/mcp_config.json` (workspace MCP servers).
 *
 * Paths are compared as file systems that ignore case, trailing dots and spaces, and the
 * characters HFS+ ignores would resolve them (`target-rules.ts`).
 */
import type { Role } from '../catalogue/vocabulary.js';
import { MCP_FILE_FORMATS } from './mcp-formats.js';

/** One protected place: a file (`path`) or every file below a folder (`path` ending in `/`), or a predicate. */
interface ProtectedPlace {
  /** Lower-case project-relative path; a trailing `/` protects the folder's contents. */
  path: string;
  /** What the file is, for messages: "Claude Code's settings (permissions, hooks)". */
  what: string;
}

/** Files and folders no install writes whole (see the module comment for the sources). */
export const PROTECTED_PLACES: readonly ProtectedPlace[] = [
  { path: '.claude/settings.json', what: "Claude Code's project settings (permissions, hooks, environment)" },
  { path: '.claude/settings.local.json', what: "Claude Code's local settings (permissions, hooks, environment)" },
  { path: '.mcp.json', what: "Claude Code's MCP configuration" },
  { path: '.claude.json', what: "Claude Code's user configuration (MCP servers, state)" },
  { path: '.codex/config.toml', what: "Codex's configuration (approval policy, sandbox, MCP servers, hooks)" },
  { path: '.codex/hooks.json', what: "Codex's hooks" },
  { path: '.codex/requirements.toml', what: "Codex's requirements" },
  { path: '.codex/rules/', what: "Codex's command-execution policy" },
  { path: '.gemini/settings.json', what: "Gemini CLI's settings (tools, hooks, MCP servers)" },
  { path: '.gemini/policies/', what: "Gemini CLI's policy rules" },
  { path: '.cursor/mcp.json', what: "Cursor's MCP configuration" },
  { path: '.cursor/hooks.json', what: "Cursor's hooks" },
  { path: '.cursor/cli.json', what: "Cursor CLI's permissions" },
  { path: '.cursor/cli-config.json', what: "Cursor CLI's configuration (permissions)" },
  { path: '.cursor/environment.json', what: "Cursor's background-agent environment (install commands)" },
  { path: '.vscode/', what: 'VS Code workspace configuration (settings, tasks, MCP servers read by Copilot)' },
  { path: '.github/hooks/', what: "GitHub Copilot's hooks" },
  { path: '.github/mcp.json', what: "Copilot CLI's MCP configuration" },
  { path: '.agents/mcp_config.json', what: "Antigravity's MCP configuration" },
];

/** MCP configuration files whose servers the installer merges (`mcp-formats.ts`, `install/compose/mcp-servers.ts`). */
export const MERGEABLE_MCP_FILES: readonly string[] = Object.keys(MCP_FILE_FORMATS);

/** Characters HFS+ ignores in names (as in `target-rules.ts`). */
const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

/** `target` as a case-insensitive file system with Windows name rules would resolve it. */
function canonical(target: string): string {
  return target
    .split('/')
    .map((segment) => segment.replace(HFS_IGNORABLE, '').replace(/(?<![. ])[. ]+$/u, '').toLowerCase())
    .join('/');
}

/** The settings file or folder `target` is, or undefined. A `target` of any case counts (see the module comment). */
export function findProtectedPlace(target: string): ProtectedPlace | undefined {
  const path = canonical(target);
  const listed = PROTECTED_PLACES.find((place) => (place.path.endsWith('/') ? path.startsWith(place.path) : path === place.path));
  if (listed !== undefined) return listed;
  // Any other `.claude/settings*.json` (Claude Code documents two; no other may be written either).
  return /^\.claude\/settings[^/]*\.json$/u.test(path) ? { path, what: "Claude Code's settings (permissions, hooks, environment)" } : undefined;
}

/** True when a file of `role` at `target` is merged into an MCP configuration rather than written: role `mcp` and a mergeable file. */
export function isMergeableMcpTarget(role: Role, target: string): boolean {
  return role === 'mcp' && MERGEABLE_MCP_FILES.includes(canonical(target));
}

/**
 * Why a file of `role` may never be installed at the well-formed `target`, or undefined: it is
 * an agent's settings, hooks, permissions or MCP configuration (the table above), and it is
 * not an MCP file of role `mcp` that is merged. Holds with `--force`. Pure.
 */
export function describeSettingsProblem(role: Role, target: string): string | undefined {
  const place = findProtectedPlace(target);
  if (place === undefined) return undefined;
  if (isMergeableMcpTarget(role, target)) return undefined;
  const why = role === 'mcp' ? 'whose servers the installer cannot merge, and which an install never writes whole' : 'which an install never writes whole';
  const expected = role === 'mcp' ? `expected ${MERGEABLE_MCP_FILES.filter((f) => f !== '.claude.json').join(', ')} for MCP servers, merged` : `expected the agent's skills, rules or agents folders; only role mcp may add servers to an MCP configuration`;
  return `is ${place.what}, ${why} (${expected})`;
}
