/**
 * The commands with which each agent's own plugin manager installs a loadout from the
 * catalogue's marketplaces (DESIGN.md "Native plugins"), and the one-click MCP install links of
 * Cursor and VS Code. Pure: what the loadout page shows first in each agent's tab, and what
 * MCP's `get_install_instructions` gives (issue 57, points 3 to 5 and 12).
 *
 * Each agent gets the first route that works as shown against the catalogue at hand, or none
 * with why and what to do instead:
 * - Claude Code: the marketplace added by URL when Claude Code takes its plugin zips
 *   (base-url-reach.ts: HTTPS, not loopback, link-local or cloud metadata); else the built
 *   tree's `plugins/` folder when the catalogue is served from this machine; else the plugins
 *   branch; else none.
 * - Codex and Copilot CLI (a folder or a git repository, never a web address): the folder on
 *   this machine, else the branch, else none.
 * - Gemini CLI: the loadout's plugin zip, fetched from the catalogue, unpacked and installed.
 * - Cursor and Antigravity: none (Cursor adds marketplaces in its settings only; Antigravity
 *   documents no command that adds a catalogue's plugins, and imports Gemini CLI's extensions).
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
 *   `--consent` answers the install warning only: a folder not yet trusted is asked about
 *   ("Do you want to trust this folder and continue with the installation? [y/N]") unless
 *   `GEMINI_CLI_TRUST_WORKSPACE=true`, which trusts it for that run without recording it
 *   (packages/cli/src/commands/extensions/install.ts and `checkPathTrust` in
 *   packages/cli/src/config/trustedFolders.ts, read in the 0.61.0 bundle; geminicli.com/docs,
 *   "Environment variables").
 * - Cursor: `cursor://anysphere.cursor-deeplink/mcp/install?name=<name>&config=<base64 of the
 *   server's JSON>` (cursor.com/docs/context/mcp, "Install links").
 * - VS Code: `vscode:mcp/install?<URL-encoded JSON of {name, …server}>`
 *   (code.visualstudio.com/docs/copilot/customization/mcp-servers, "URL handler").
 */
import type { Agent } from '../catalogue/vocabulary.js';
import { claudeTakesArchivesFrom, namesThisMachine } from './base-url-reach.js';
import type { McpServer } from './plugin-manifests.js';

/** Where the catalogue's marketplaces are (the API description document's `plugins`), and where the commands fetch from. */
export interface PluginRoute {
  /** The marketplace's name (`<id>@<name>`). */
  name: string;
  /** `{base_url}` the commands fetch from (the page's or the MCP server's), no trailing slash. */
  base: string;
  /** `{base_url}/plugins/claude-marketplace.json` of the build, whose zips are at the same base. */
  marketplaceUrl: string;
  /** The built tree's `plugins/` folder on disk (absolute), when known: a route only when `base` names this machine. */
  folder?: string;
  /** The branch `loadout publish --plugins-remote` pushes `plugins/` to, when there is one (`repository`: `owner/name` on GitHub, or a git URL). */
  git?: { repository: string; branch: string };
}

/** How a route reaches the catalogue: its marketplace by URL, the tree's folder, its git branch, or one plugin zip. */
export type PluginRouteKind = 'url' | 'folder' | 'git' | 'zip';

/** A route that works for this catalogue: its commands, in order, and a line that says what they need and trust. */
export interface PluginCommands {
  route: PluginRouteKind;
  commands: string[];
  note: string;
}

/** No route of the agent's plugin manager fits this catalogue: why (a sentence), and what to do instead (a sentence without its full stop). */
export interface NoPluginRoute {
  route: 'none';
  why: string;
  todo: string;
}

/** What an agent's tab (and MCP) offers of its plugin manager. */
export type PluginRouteChoice = PluginCommands | NoPluginRoute;

/** What each route is, for people. */
export const PLUGIN_ROUTE_LABELS: Readonly<Record<PluginRouteKind, string>> = {
  url: "the catalogue's marketplace, added by its address",
  folder: "the built tree's plugins folder on this machine",
  git: "the plugins branch of the catalogue's repository",
  zip: "the loadout's plugin zip",
};

const GITHUB_SHORTHAND = /^[\w.-]+\/[\w.-]+$/u;
/** The clone URL of `repository` (`owner/name` means GitHub). */
const cloneUrl = (repository: string): string => (GITHUB_SHORTHAND.test(repository) ? `https://github.com/${repository}.git` : repository);
/** What to tell a reader who has no plugin route: the `npx` command of the same tab. */
const USE_NPX = 'Install with the npx command below, which writes the same files into the project';
const PUSH_BRANCH = "the catalogue's maintainers can push its plugins to a branch of its repository (loadout publish --plugins-remote) for";

/** The folder of the tree on this machine, when the catalogue at `base` is served from this machine. */
const localFolder = (route: PluginRoute): string | undefined => (route.folder !== undefined && namesThisMachine(route.base) ? route.folder : undefined);

/**
 * The route of `agent`'s own plugin manager that installs loadout `id` from this catalogue, or
 * why none fits (see the module comment for the order). `zipUrl` is the loadout's plugin zip
 * (`download/<id>/plugin-<version>.zip` at `route.base`).
 */
export function pluginCommands(agent: Agent, id: string, zipUrl: string, route: PluginRoute): PluginRouteChoice {
  const { name, git } = route;
  const folder = localFolder(route);
  switch (agent) {
    case 'claude-code': {
      // The URL marketplace's entries are zips at the build's base, as is the marketplace itself.
      if (claudeTakesArchivesFrom(route.marketplaceUrl))
        return {
          route: 'url',
          commands: [`claude plugin marketplace add ${route.marketplaceUrl}`, `claude plugin install ${id}@${name}`],
          note: `In a session: /plugin marketplace add ${route.marketplaceUrl}, then /plugin install ${id}@${name}. Add --scope project to both to enable it for everyone who opens this project. Claude Code checks each plugin zip against the sha256 the marketplace lists.`,
        };
      const refused = `Claude Code takes a marketplace's plugin zips only over HTTPS from a host that is not loopback, link-local or a cloud-metadata address, which ${route.base} is not`;
      if (folder !== undefined) return { route: 'folder', commands: [`claude plugin marketplace add ${folder}`, `claude plugin install ${id}@${name}`], note: `${refused}: this catalogue is served from this machine, so the marketplace is the built tree's folder.` };
      if (git !== undefined)
        return GITHUB_SHORTHAND.test(git.repository)
          ? { route: 'git', commands: [`claude plugin marketplace add ${git.repository}@${git.branch}`, `claude plugin install ${id}@${name}`], note: `${refused}: the marketplace is the ${git.branch} branch of the catalogue's repository.` }
          : { route: 'git', commands: [`git clone --depth 1 --branch ${git.branch} ${cloneUrl(git.repository)} ${name}`, `claude plugin marketplace add ./${name}`, `claude plugin install ${id}@${name}`], note: `${refused}: the marketplace is a clone of the ${git.branch} branch of the catalogue's repository.` };
      return { route: 'none', why: `${refused}, and the catalogue has no plugins branch.`, todo: `${USE_NPX}; ${PUSH_BRANCH} Claude Code, or serve the catalogue over HTTPS` };
    }
    case 'codex':
      if (folder !== undefined) return { route: 'folder', commands: [`codex plugin marketplace add ${folder}`, `codex plugin add ${id}@${name}`], note: "This catalogue is served from this machine: the marketplace is the built tree's folder. Codex records the folder its link leads to, which the next build replaces: add it again after a build." };
      if (git !== undefined)
        return {
          route: 'git',
          commands: [GITHUB_SHORTHAND.test(git.repository) ? `codex plugin marketplace add ${git.repository}@${git.branch}` : `codex plugin marketplace add ${git.repository} --ref ${git.branch}`, `codex plugin add ${id}@${name}`],
          note: `From the ${git.branch} branch of the catalogue's repository.`,
        };
      return { route: 'none', why: 'Codex adds a marketplace from a folder or a git repository, not from a web address, and this catalogue has no plugins branch.', todo: `${USE_NPX}; ${PUSH_BRANCH} Codex` };
    case 'copilot':
      if (folder !== undefined) return { route: 'folder', commands: [`copilot plugin marketplace add ${folder}`, `copilot plugin install ${id}@${name}`], note: "This catalogue is served from this machine: the marketplace is the built tree's folder, from which Copilot CLI loads the plugin where it lies." };
      if (git !== undefined)
        return {
          route: 'git',
          commands: [`git clone --depth 1 --branch ${git.branch} ${cloneUrl(git.repository)} ${name}`, `copilot plugin marketplace add ./${name}`, `copilot plugin install ${id}@${name}`],
          note: `Copilot CLI reads a git marketplace at its default branch: these add a clone of the ${git.branch} branch.`,
        };
      return { route: 'none', why: 'Copilot CLI adds a marketplace from a folder or a git repository, not from a web address, and this catalogue has no plugins branch.', todo: `${USE_NPX}; ${PUSH_BRANCH} Copilot CLI` };
    case 'gemini-cli': {
      const zip = zipUrl.slice(zipUrl.lastIndexOf('/') + 1);
      return {
        route: 'zip',
        commands: [`curl -fsSLO ${zipUrl}`, `unzip -q -o ${zip} -d ${id}`, `GEMINI_CLI_TRUST_WORKSPACE=true gemini extensions install ./${id} --consent`],
        note: 'The loadout as a Gemini CLI extension, from its plugin zip. --consent accepts the install warning, and GEMINI_CLI_TRUST_WORKSPACE=true trusts the unpacked folder for this command only (nothing is recorded); without it Gemini CLI asks whether to trust the folder and waits for an answer.',
      };
    }
    case 'cursor':
      return { route: 'none', why: 'Cursor adds plugin marketplaces in its own settings, not with a command.', todo: `${USE_NPX} for Cursor` };
    case 'antigravity-cli':
      return {
        route: 'none',
        why: "Antigravity CLI documents no command that adds a catalogue's plugins; it imports the extensions Gemini CLI has installed (agy plugin import gemini), which this catalogue has not checked.",
        todo: `${USE_NPX} for Antigravity, or install the loadout's Gemini CLI extension (the Gemini CLI tab) and import it`,
      };
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
