/**
 * A loadout's native plugin folder (DESIGN.md "Native plugins"): one folder that every plugin
 * manager reads, with a manifest per format (plugin-manifests.ts), the loadout's skills byte
 * for byte, its subagents where a format takes them, its rules translated for Cursor, its
 * instructions as Gemini CLI's context file, its MCP servers in each format's syntax, and a
 * README that says what each format cannot carry and which command installs the rest.
 *
 * The folder's layout (the vendors' conventions, plugin-manifests.ts names the sources):
 *
 * | path | read by |
 * |---|---|
 * | `plugin.json`, `mcp.json` | Agent Plugins 1.0: Codex, Copilot CLI, VS Code, Cursor |
 * | `.claude-plugin/plugin.json`, `.mcp.json` | Claude Code |
 * | `gemini-extension.json`, `AGENTS.md` (its `contextFileName`) | Gemini CLI (and Antigravity, which imports Gemini extensions) |
 * | `.cursor-plugin/plugin.json`, `.cursor-plugin/mcp.json`, `rules/<name>.mdc` | Cursor |
 * | `skills/<skill>/…` | every format |
 * | `agents/<name>.md` | Claude Code, Gemini CLI, Cursor |
 *
 * Pure: the loadout's files in, the folder's files out.
 */
import type { FileEntry } from '../catalogue/manifest.js';
import type { Agent } from '../catalogue/vocabulary.js';
import { baseName, pathInsideSkill } from './layout.js';
import { agentPluginsManifest, agentPluginsMcp, claudePluginManifest, cursorPluginManifest, geminiExtensionManifest, PLUGIN_PATHS, type McpServer, type PluginMetadata } from './plugin-manifests.js';
import { listUncarried, type UncarriedPart } from './plugin-formats.js';
import { pluginReadme } from './plugin-readme.js';
import { translateRule } from './rule-translation.js';
import { convertMcpServers, type McpServerConfig } from './mcp-formats.js';

/** The loadout in, as {@link composePluginFolder} takes it. */
export interface PluginInput extends PluginMetadata {
  /** The manifest's files with their text as published (the record's `content`). */
  files: readonly { entry: FileEntry; content: string }[];
  /** Its MCP servers, from every `mcp` file (`{mcpServers}` shape), by name. */
  servers: Readonly<Record<string, McpServer>>;
  /** The command that installs the loadout for `agent` without a plugin manager (the README's "the rest"). */
  installCommand: (agent: Agent) => string;
}

/** One file of the folder: its path in the folder, its text, and the loadout file it repeats byte for byte (if it does). */
export interface PluginFile {
  path: string;
  data: string;
  source?: string;
}

/** The plugin folder of a loadout. */
export interface PluginFolder {
  /** Every file, sorted by path. */
  files: PluginFile[];
  /** What each format leaves to the install command. */
  uncarried: UncarriedPart[];
}

/**
 * The plugin folder of `input` (see the module comment for its layout). The first
 * `instructions` file becomes `AGENTS.md`; others are left to the install command.
 */
export function composePluginFolder(input: PluginInput): PluginFolder {
  const files: PluginFile[] = [];
  const uncarried: UncarriedPart[] = [];
  let context: string | undefined;
  const has = { skills: false, rules: false, agents: false, mcp: Object.keys(input.servers).length > 0 };
  for (const { entry, content } of input.files) {
    if (entry.role === 'skill' || entry.role === 'reference') {
      files.push({ path: `skills/${entry.skill ?? baseName(entry.path)}/${pathInsideSkill(entry)}`, data: content, source: entry.path });
      has.skills = true;
    } else if (entry.role === 'subagent') {
      files.push({ path: `agents/${baseName(entry.path)}.md`, data: content, source: entry.path });
      has.agents = true;
    } else if (entry.role === 'rules') {
      // As `loadout install --agent cursor` writes it (rule-translation.ts).
      files.push({ path: `rules/${baseName(entry.path)}.mdc`, data: translateRule(content, 'cursor') });
      has.rules = true;
    } else if (entry.role === 'instructions' && context === undefined) {
      files.push({ path: 'AGENTS.md', data: content, source: entry.path });
      context = 'AGENTS.md';
    }
  }
  const mcp = agentPluginsMcp(input.servers);
  uncarried.push(...listUncarried(input.files.map((f) => f.entry), mcp.refused));
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  files.push({ path: PLUGIN_PATHS.agentPlugins, data: json(agentPluginsManifest(input)) });
  files.push({ path: PLUGIN_PATHS.claude, data: json(claudePluginManifest(input)) });
  // Each format's MCP servers in its agent's own shape and variable syntax (mcp-formats.ts).
  const serversFor = (agent: Agent): Record<string, McpServer> => convertMcpServers(input.servers as Record<string, McpServerConfig>, agent).servers;
  files.push({ path: PLUGIN_PATHS.gemini, data: json(geminiExtensionManifest(input, context, serversFor('gemini-cli'))) });
  files.push({ path: PLUGIN_PATHS.cursor, data: json(cursorPluginManifest(input, has)) });
  if (has.mcp) {
    if (Object.keys(mcp.document['mcpServers'] as object).length > 0) files.push({ path: PLUGIN_PATHS.agentPluginsMcp, data: json(mcp.document) });
    files.push({ path: PLUGIN_PATHS.claudeMcp, data: json({ mcpServers: serversFor('claude-code') }) });
    files.push({ path: PLUGIN_PATHS.cursorMcp, data: json({ mcpServers: serversFor('cursor') }) });
  }
  files.push({ path: PLUGIN_PATHS.readme, data: pluginReadme(input, uncarried) });
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, uncarried };
}
