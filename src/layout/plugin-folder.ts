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
 * Which of the loadout's files and MCP servers the folder holds, and at which paths, is
 * decided in plugin-contents.ts `choosePluginContents` alone; this module adds the manifests
 * and the README around them. Pure: the loadout's files in, the folder's files out.
 */
import type { Agent } from '../catalogue/vocabulary.js';
import { convertMcpServers, type McpServerConfig } from './mcp-formats.js';
import { choosePluginContents, type LoadoutFile, type PluginFile } from './plugin-contents.js';
import type { UncarriedPart } from './plugin-formats.js';
import { agentPluginsManifest, agentPluginsMcp, claudePluginManifest, cursorPluginManifest, geminiExtensionManifest, PLUGIN_PATHS, type McpServer, type PluginMetadata } from './plugin-manifests.js';
import { pluginReadme } from './plugin-readme.js';
import { deriveCapabilities } from './capabilities.js';
import type { CapabilityLists } from '../capabilities/digest.js';

export type { PluginFile } from './plugin-contents.js';

/** The loadout in, as {@link composePluginFolder} takes it. */
export interface PluginInput extends PluginMetadata {
  /** The manifest's files with their text as published (the record's `content`), in the manifest's order; its MCP servers are read from its `mcp` files. */
  files: readonly LoadoutFile[];
  /** The command that installs the loadout for `agent` without a plugin manager (the README's "the rest"). */
  installCommand: (agent: Agent) => string;
  /** The version's capability list, which the README states; default the one derived from `files` (without the hosts of the checks' network scan). */
  capabilities?: CapabilityLists;
}

/** The plugin folder of a loadout. */
export interface PluginFolder {
  /** Every file, sorted by path. */
  files: PluginFile[];
  /** What each format leaves to the install command. */
  uncarried: UncarriedPart[];
}

/**
 * The plugin folder of `input` (see the module comment for its layout): the parts
 * plugin-contents.ts `choosePluginContents` chooses, each format's manifest, its MCP servers in
 * the format's syntax, and the README. Two parts at one path are both listed (plugin-contents.ts
 * `describePluginClashes` finds them; the `install-paths` check refuses such a loadout).
 */
export function composePluginFolder(input: PluginInput): PluginFolder {
  const contents = choosePluginContents(input.files);
  const { servers, contextFileName, components, uncarried } = contents;
  const files: PluginFile[] = [...contents.files];
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  files.push({ path: PLUGIN_PATHS.agentPlugins, data: json(agentPluginsManifest(input)) });
  files.push({ path: PLUGIN_PATHS.claude, data: json(claudePluginManifest(input)) });
  // Each format's MCP servers in its agent's own shape and variable syntax (mcp-formats.ts).
  const serversFor = (agent: Agent): Record<string, McpServer> => convertMcpServers(servers as Record<string, McpServerConfig>, agent).servers;
  files.push({ path: PLUGIN_PATHS.gemini, data: json(geminiExtensionManifest(input, contextFileName, serversFor('gemini-cli'))) });
  files.push({ path: PLUGIN_PATHS.cursor, data: json(cursorPluginManifest(input, components)) });
  if (components.mcp) {
    const mcp = agentPluginsMcp(servers);
    if (Object.keys(mcp.document['mcpServers'] as object).length > 0) files.push({ path: PLUGIN_PATHS.agentPluginsMcp, data: json(mcp.document) });
    files.push({ path: PLUGIN_PATHS.claudeMcp, data: json({ mcpServers: serversFor('claude-code') }) });
    files.push({ path: PLUGIN_PATHS.cursorMcp, data: json({ mcpServers: serversFor('cursor') }) });
  }
  const texts = new Map(input.files.map((f) => [f.entry.path, f.content]));
  const capabilities = input.capabilities ?? deriveCapabilities({ files: input.files.map((f) => f.entry), text: (path) => texts.get(path) });
  files.push({ path: PLUGIN_PATHS.readme, data: pluginReadme(input, uncarried, capabilities) });
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, uncarried };
}
