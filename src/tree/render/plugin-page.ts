/**
 * What a loadout page shows of its native plugin (DESIGN.md "Native plugins";
 * pages/loadout-install.ts renders it): per agent, the route of its plugin manager that works
 * for this catalogue, with the catalogue's real addresses, or why none does
 * (layout/install-routes.ts, which MCP's get_install_instructions asks too), what that agent's plugin format
 * cannot carry (layout/plugin-formats.ts), and, for a loadout with MCP servers, Cursor's and
 * VS Code's one-click install links. Pure.
 */
import type { Manifest } from '../../catalogue/manifest.js';
import { PUBLISHED_AGENTS } from '../../catalogue/vocabulary.js';
import { cursorMcpInstallLink, vscodeMcpInstallLink } from '../../layout/plugin-commands.js';
import { chooseInstallRoutes } from '../../layout/install-routes.js';
import { choosePluginContents } from '../../layout/plugin-contents.js';
import { PLUGIN_FORMAT_NAMES, PLUGIN_FORMAT_OF } from '../../layout/plugin-formats.js';
import { convertMcpServers, type McpServerConfig } from '../../layout/mcp-formats.js';
import type { PluginPageView } from '../../pages/loadout-install.js';
import type { CliRoute } from '../../tree-format/addresses.js';
import type { PluginVersion } from './plugins.js';

/** The page's plugin view of `manifest` (its `files` with their text), or undefined when the build writes no plugins. */
export function pluginPageView(base: string, manifest: Manifest, files: PluginVersion['files'], route: CliRoute | undefined): PluginPageView | undefined {
  if (route?.plugins === undefined) return undefined;
  // What the plugin carries, as the plugin folder has it (layout/plugin-contents.ts).
  const contents = choosePluginContents(files);
  const servers = contents.servers as Record<string, McpServerConfig>;
  const uncarried = contents.uncarried;
  const view: PluginPageView = {};
  for (const agent of PUBLISHED_AGENTS) {
    const format = PLUGIN_FORMAT_OF[agent];
    const chosen = chooseInstallRoutes({ base, id: manifest.id, version: manifest.version, agent, route }).plugin;
    if (chosen === undefined) continue;
    const links = Object.entries(agent === 'cursor' || agent === 'copilot' ? convertMcpServers(servers, agent).servers : {}).flatMap(([name, server]) => (agent === 'cursor' ? [{ name, href: cursorMcpInstallLink(name, server), label: `Add ${name} to Cursor` }] : agent === 'copilot' ? [{ name, href: vscodeMcpInstallLink(name, server), label: `Add ${name} to VS Code` }] : []));
    view[agent] = { format: PLUGIN_FORMAT_NAMES[format], route: chosen, uncarried: uncarried.filter((u) => u.format === format).map(({ part, why }) => ({ part, why })), mcpLinks: links };
  }
  return view;
}
