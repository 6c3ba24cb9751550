/**
 * The commands with which each agent's own plugin manager installs a loadout from the
 * catalogue's marketplaces (DESIGN.md "Native plugins"), and the one-click MCP install links of
 * Cursor and VS Code. Pure: what the loadout page shows first in each agent's tab.
 *
 * The syntax of each, checked with the CLIs from npm (`--help`, 2026-11-26) or read in the
 * vendor's documentation:
 * - Claude Code 2.1.330: `claude plugin marketplace add <URL of a marketplace.json | path |
 *   owner/repo[@ref]>`, `claude plugin install <plugin>@<marketplace>`; in a session the same
 *   as `/plugin marketplace add …` and `/plugin install …` (code.claude.com/docs/en/discover-plugins).
 * - Codex 0.169.0: `codex plugin marketplace add <path | owner/repo[@ref] | git URL> [--ref REF]`,
 *   `codex plugin add <plugin>@<marketplace>`.
 * - Copilot CLI 1.0.102: `copilot plugin marketplace add <owner/repo | git URL | path>` (no ref:
 *   a git marketplace is read at its default branch), `copilot plugin install <plugin>@<marketplace>`;
 *   so the page clones the plugins branch shallow and adds the clone.
 * - Gemini CLI 0.61.0: `gemini extensions install <path | git URL> --consent`, the extension at
 *   the root of the folder: the page unpacks the loadout's plugin zip and installs that folder.
 * - Cursor: `cursor://anysphere.cursor-deeplink/mcp/install?name=<name>&config=<base64 of the
 *   server's JSON>` (cursor.com/docs/context/mcp, "Install links").
 * - VS Code: `vscode:mcp/install?<URL-encoded JSON of {name, …server}>`
 *   (code.visualstudio.com/docs/copilot/customization/mcp-servers, "URL handler").
 */
import type { Agent } from '../catalogue/vocabulary.js';
import type { McpServer } from './plugin-manifests.js';

/** Where the catalogue's marketplaces are (the API description document's `plugins`). */
export interface PluginRoute {
  /** The marketplace's name (`<id>@<name>`). */
  name: string;
  /** `{base_url}/plugins/claude-marketplace.json`. */
  marketplaceUrl: string;
  /** The branch `loadout publish --plugins-remote` pushes `plugins/` to, when there is one (`repository`: `owner/name` on GitHub, or a git URL). */
  git?: { repository: string; branch: string };
}

/** The commands for one agent, with a line that says what they need. */
export interface PluginCommands {
  commands: string[];
  note: string;
}

const GITHUB_SHORTHAND = /^[\w.-]+\/[\w.-]+$/u;
/** The clone URL of `repository` (`owner/name` means GitHub). */
const cloneUrl = (repository: string): string => (GITHUB_SHORTHAND.test(repository) ? `https://github.com/${repository}.git` : repository);

/**
 * The plugin manager's commands that install loadout `id` for `agent`, or undefined when its
 * plugin manager cannot reach this catalogue (Cursor adds marketplaces in its settings only;
 * Codex and Copilot CLI need the git branch; Antigravity's import is not documented yet).
 * `zipUrl` is the loadout's plugin zip (`download/<id>/plugin-<version>.zip`).
 */
export function pluginCommands(agent: Agent, id: string, zipUrl: string, route: PluginRoute): PluginCommands | undefined {
  const { name, git } = route;
  switch (agent) {
    case 'claude-code':
      return {
        commands: [`claude plugin marketplace add ${route.marketplaceUrl}`, `claude plugin install ${id}@${name}`],
        note: `In a session: /plugin marketplace add ${route.marketplaceUrl}, then /plugin install ${id}@${name}. Add --scope project to both to enable it for everyone who opens this project.`,
      };
    case 'codex':
      if (git === undefined) return undefined;
      return {
        commands: [GITHUB_SHORTHAND.test(git.repository) ? `codex plugin marketplace add ${git.repository}@${git.branch}` : `codex plugin marketplace add ${git.repository} --ref ${git.branch}`, `codex plugin add ${id}@${name}`],
        note: `From the ${git.branch} branch of the catalogue's repository.`,
      };
    case 'copilot':
      if (git === undefined) return undefined;
      return {
        commands: [`git clone --depth 1 --branch ${git.branch} ${cloneUrl(git.repository)} ${name}`, `copilot plugin marketplace add ./${name}`, `copilot plugin install ${id}@${name}`],
        note: `Copilot CLI reads a git marketplace at its default branch: these add a clone of the ${git.branch} branch.`,
      };
    case 'gemini-cli': {
      const zip = zipUrl.slice(zipUrl.lastIndexOf('/') + 1);
      return {
        commands: [`curl -fsSLO ${zipUrl}`, `unzip -q ${zip} -d ${id}`, `gemini extensions install ./${id} --consent`],
        note: 'The loadout as a Gemini CLI extension, from its plugin zip.',
      };
    }
    default:
      return undefined;
  }
}

/** Cursor's one-click install link of the MCP server `name`. */
export function cursorMcpInstallLink(name: string, server: McpServer): string {
  return `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(name)}&config=${encodeURIComponent(Buffer.from(JSON.stringify(server), 'utf8').toString('base64'))}`;
}

/** VS Code's one-click install link of the MCP server `name` (Copilot in VS Code). */
export function vscodeMcpInstallLink(name: string, server: McpServer): string {
  return `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name, ...server }))}`;
}
