/**
 * The install routes a catalogue shows for one loadout and agent, first the one that works as
 * shown (issue 57, points 2 to 5 and 12): the loadout page's tabs and MCP's
 * `get_install_instructions` both ask this module, so that they never disagree.
 *
 * - The `npx` commands of the consumer CLI (DESIGN.md "Trust route of the CLI"; SECURITY.md,
 *   "The CLI's own route"): the CLI this catalogue serves (`cli/loadout-latest.tgz`), which
 *   trusts whoever serves the catalogue, and the npm registry's `loadout-cli@<version>` only when
 *   the build was told that the package is published at that version (`CliRoute.registry_version`,
 *   `loadout build --cli-published`): `npx -y loadout-cli@0.1.0` answers 404 while it is not.
 *   A signed catalogue leads with the registry's, whose code the catalogue cannot change.
 * - The agent's own plugin manager (plugin-commands.ts), when the build wrote plugins.
 * Pure.
 */
import type { Agent } from '../catalogue/vocabulary.js';
import { installCommand, pluginZipUrl, urlMarketplaceUrl, type CliRoute } from '../tree-format/addresses.js';
import { pluginCommands, type PluginRouteChoice } from './plugin-commands.js';

/** One `npx` command of the consumer CLI, with whom it trusts for the code that checks the catalogue. */
export interface CliCommand {
  /** `catalogue`: the tarball this catalogue serves; `registry`: the npm registry's package at an exact version. */
  route: 'catalogue' | 'registry';
  command: string;
  /** One sentence for people: what the command needs and whom it trusts. */
  trusts: string;
}

/** What the catalogue's own CLI trusts. */
export const CATALOGUE_CLI_TRUSTS = "Needs Node 20 or later. npx fetches this catalogue's own loadout CLI, which has no dependencies: it trusts whoever serves this address, even when the catalogue is signed.";
/** What the registry's CLI trusts. */
export const REGISTRY_CLI_TRUSTS = "Needs Node 20 or later. The CLI comes from the npm registry at an exact version, checked by npm against the registry's integrity: this catalogue cannot change the code that checks its signature.";

/**
 * The `npx` commands that install loadout `id` for `agent` from `base`, the one to lead with
 * first (see the module comment): the catalogue's own alone unless `route.registry_version` is
 * set. `version` pins the loadout's version in the command.
 */
export function cliCommands(base: string, id: string, agent: Agent, route: CliRoute | undefined, version?: string): [CliCommand, ...CliCommand[]] {
  const own: CliCommand = { route: 'catalogue', command: installCommand(base, id, agent, version), trusts: CATALOGUE_CLI_TRUSTS };
  if (route?.registry_version === undefined) return [own];
  const registry: CliCommand = { route: 'registry', command: installCommand(base, id, agent, version, route.registry_version), trusts: REGISTRY_CLI_TRUSTS };
  return route.signed ? [registry, own] : [own, registry];
}

/** What {@link chooseInstallRoutes} reads of the catalogue. */
export interface InstallRoutesInput {
  /** `{base_url}` the commands fetch from, no trailing slash. */
  base: string;
  id: string;
  /** The loadout's version: its plugin zip's, and pinned in the `npx` command when `pin` is set. */
  version: string;
  agent: Agent;
  /** How the catalogue runs the CLI and where its marketplaces are (undefined: the catalogue's own CLI, no plugins). */
  route: CliRoute | undefined;
  /** `{base_url}/plugins/claude-marketplace.json` of the build (default: at `base`). */
  marketplaceUrl?: string;
  /** Pin the loadout's version in the `npx` command. */
  pin?: boolean;
}

/** The routes of one loadout for one agent: its plugin manager's (undefined when the build wrote no plugins), and the `npx` commands. */
export interface InstallRoutes {
  plugin: PluginRouteChoice | undefined;
  /** Never empty: the first is the one to use. */
  cli: [CliCommand, ...CliCommand[]];
}

/** The install routes of `input.id` for `input.agent` (see the module comment). */
export function chooseInstallRoutes(input: InstallRoutesInput): InstallRoutes {
  const { base, id, version, agent, route } = input;
  const plugins = route?.plugins;
  const plugin =
    plugins === undefined
      ? undefined
      : pluginCommands(agent, id, pluginZipUrl(base, id, version), {
          name: plugins.name,
          base,
          marketplaceUrl: input.marketplaceUrl ?? urlMarketplaceUrl(base),
          ...(plugins.folder === undefined ? {} : { folder: plugins.folder }),
          ...(plugins.git === undefined ? {} : { git: plugins.git }),
        });
  return { plugin, cli: cliCommands(base, id, agent, route, input.pin === true ? version : undefined) };
}
