/**
 * The spec's address shapes ("Address shapes"), built from `{base_url}` with no trailing
 * slash. Path segments of file paths are percent-encoded one by one so that `/` stays a
 * separator.
 */

/** Removes trailing slashes: `https://x.dev/` → `https://x.dev`. */
export function normaliseBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/(?<!\/)\/+$/u, '');
}

const encodePath = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

/** `{base_url}/loadouts/<loadout_id>/` */
export const pageUrl = (base: string, id: string): string => `${base}/loadouts/${id}/`;
/** `{base_url}/api/loadouts/<loadout_id>.json` */
export const recordUrl = (base: string, id: string): string => `${base}/api/loadouts/${id}.json`;
/** `{base_url}/raw/<loadout_id>/<version>/<file_path>`; `version` may be `latest`. */
export const rawUrl = (base: string, id: string, version: string, path: string): string => `${base}/raw/${id}/${version}/${encodePath(path)}`;
/** `{base_url}/download/<loadout_id>/<agent>.zip` */
export const agentZipUrl = (base: string, id: string, agent: string): string => `${base}/download/${id}/${agent}.zip`;
/** `{base_url}/download/<loadout_id>/source.zip` */
export const sourceZipUrl = (base: string, id: string): string => `${base}/download/${id}/source.zip`;
/** `{base_url}/api/schema.json` */
export const schemaUrl = (base: string): string => `${base}/api/schema.json`;

/** `{base_url}/api/capabilities.schema.json`: the JSON Schema of a version's capability list (issue 54). */
export const capabilitiesSchemaUrl = (base: string): string => `${base}/api/capabilities.schema.json`;
/** `{base_url}/docs/` */
export const docsUrl = (base: string): string => `${base}/docs/`;
/** `{base_url}/api/loadouts/<loadout_id>/versions.json` (DESIGN.md section 8). */
export const versionsUrl = (base: string, id: string): string => `${base}/api/loadouts/${id}/versions.json`;
/** Where a raw file lies in the output tree, `raw/<loadout_id>/<version>/<file_path>` (not encoded: a tree path, for `OutputTree`). */
export const rawTreePath = (id: string, version: string, path: string): string => `${rawTreeFolder(id, version)}/${path}`;
/** The folder of a version's raw files in the output tree, `raw/<loadout_id>/<version>`. */
export const rawTreeFolder = (id: string, version: string): string => `raw/${id}/${version}`;
/**
 * The folder name below `raw/<loadout_id>/` that holds the files as installed, per version and
 * agent (issue 57 point 11). Never a version: a version folder is `MAJOR.MINOR.PATCH` (digits
 * only) or `latest` (spec "Versioning"), so no author's file path can land here, whatever it is.
 */
export const INSTALLED_FOLDER = 'installed';
/**
 * The folder of one version's files as installed for one agent in the output tree,
 * `raw/<loadout_id>/installed/<version>/<agent>`; `version` may be `latest`.
 */
export const installedTreeFolder = (id: string, version: string, agent?: string): string => `raw/${id}/${INSTALLED_FOLDER}/${version}${agent === undefined ? '' : `/${agent}`}`;
/**
 * Where the bytes installed for `agent` at install target `target` lie in the output tree,
 * `raw/<loadout_id>/installed/<version>/<agent>/<target>` (not encoded). Keyed by the target:
 * an agent's targets are distinct (the `install-paths` check), while one loadout file may be
 * installed at two targets in two shapes (Copilot's MCP servers, layout.ts `MCP_ALSO_TARGETS`).
 * A target's dot folders (`.claude/skills/…`) are published below this folder alone
 * (tree-headers.ts `isPublishedPath`).
 */
export const installedTreePath = (id: string, version: string, agent: string, target: string): string => `${installedTreeFolder(id, version, agent)}/${target}`;
/**
 * `{base_url}/raw/<loadout_id>/installed/<version>/<agent>/<target>`: the bytes `loadout install`
 * writes for `agent` at install target `target` (links rewritten, rules translated or composed,
 * MCP files in the agent's shape; layout/installed-files.ts), whose sha256 the record's
 * `install[<agent>].files[]` gives; `version` may be `latest`. Issue 57 point 11.
 */
export const installedUrl = (base: string, id: string, version: string, agent: string, target: string): string => `${base}/${installedTreeFolder(id, version, agent)}/${encodePath(target)}`;

/** Where the consumer CLI's package of `version` lies in the tree, `cli/loadout-<version>.tgz` (DESIGN.md section 2, distribution). */
export const cliTarballTreePath = (version: string): string => `cli/loadout-${version}.tgz`;
/** Where the newest consumer CLI package lies in the tree, `cli/loadout-latest.tgz`. */
export const CLI_LATEST_TREE_PATH = 'cli/loadout-latest.tgz';
/** `{base_url}/cli/loadout-<version>.tgz`, the pinned consumer CLI package (what `npx -y <url>` runs). */
export const cliTarballUrl = (base: string, version: string): string => `${base}/${cliTarballTreePath(version)}`;

/** The consumer CLI's package name on the npm registry (packages/cli/package.json). */
export const CLI_PACKAGE_NAME = 'loadout-cli';
/**
 * The `package.json` key that a catalogue's own CLI tarball sets to `"catalogue"`
 * (tree/cli-package/pack.ts); the npm registry's package has none (cli/self-origin.ts).
 */
export const CLI_SERVED_MARK = 'loadoutDistribution';
/**
 * How a catalogue's pages tell users to run the consumer CLI (DESIGN.md "Trust route of the
 * CLI"; layout/install-routes.ts decides): `registry_version` the version of `loadout-cli` on
 * the npm registry to pin, set only when the build was told the package is published at that
 * version (`loadout build --cli-published`; issue 57, point 2), and `signed` whether the
 * catalogue is signed, in which case that route comes first.
 */
export interface CliRoute {
  registry_version?: string;
  signed: boolean;
  /**
   * The catalogue's plugin marketplaces, when the build writes native plugins (DESIGN.md
   * "Native plugins"): the marketplace's `name`, the repository branch `loadout publish
   * --plugins-remote` pushes `plugins/` to, when one is configured, and, for a catalogue built
   * for an address of this machine, the absolute path of the tree's `plugins/` folder. The
   * pages show each agent's own plugin commands first.
   */
  plugins?: { name: string; folder?: string; git?: { repository: string; branch: string } };
}

/** Where the API description document's static copy lies in the tree (DESIGN.md section 5). */
export const DESCRIPTION_TREE_PATH = 'api/v1/index.json';

/**
 * The command that installs loadout `id` for `agent` from the catalogue at `base`, pinned to
 * `version` when given, run by `npx` with no clone. Two routes (DESIGN.md "Trust route of the
 * CLI"; SECURITY.md):
 * - with `cliVersion`, the consumer CLI from the npm registry at that exact version
 *   (`npx -y loadout-cli@<cliVersion>`): npm checks the package against the registry's
 *   integrity, so the catalogue it then reads cannot change the code that checks it;
 * - without, the CLI the catalogue itself serves (`cli/loadout-latest.tgz`), which trusts
 *   whoever serves `base`, signed or not.
 * Pure.
 */
export function installCommand(base: string, id: string, agent: string, version?: string, cliVersion?: string): string {
  const cli = cliVersion === undefined ? `${base}/${CLI_LATEST_TREE_PATH}` : `${CLI_PACKAGE_NAME}@${cliVersion}`;
  return `npx -y ${cli} install ${id} --agent ${agent}${version === undefined ? '' : ` --version ${version}`} --from ${base}`;
}

/**
 * The native plugins of the tree (DESIGN.md "Native plugins"): `plugins/` is a folder
 * marketplace (one plugin folder per loadout, `plugins/<id>/`, the latest version, beside the
 * vendors' marketplace files), and `plugins/claude-marketplace.json` a Claude Code marketplace to add
 * by URL whose entries are zips of each loadout's plugin, pinned by sha256.
 */
export const PLUGINS_FOLDER = 'plugins';
/** Where loadout `id`'s plugin folder lies in the tree, `plugins/<id>` (its latest version). */
export const pluginTreeFolder = (id: string): string => `${PLUGINS_FOLDER}/${id}`;
/** Where the zip of loadout `id`'s plugin at `version` lies in the tree, `download/<id>/plugin-<version>.zip` (kept for every version, as raw files are). */
export const pluginZipTreePath = (id: string, version: string): string => `download/${id}/plugin-${version}.zip`;
/** `{base_url}/download/<id>/plugin-<version>.zip`, the `archive` source of the URL marketplace. */
export const pluginZipUrl = (base: string, id: string, version: string): string => `${base}/${pluginZipTreePath(id, version)}`;
/**
 * The Claude Code marketplace to add by URL, in the tree: `plugins/claude-marketplace.json` (a
 * catalogue document). Not `plugins/marketplace.json`: Copilot CLI looks for a folder
 * marketplace's manifest at `marketplace.json` before `.claude-plugin/marketplace.json`, and
 * refuses this one's `archive` sources (checked with Copilot CLI 1.0.102).
 */
export const URL_MARKETPLACE_TREE_PATH = `${PLUGINS_FOLDER}/claude-marketplace.json`;
/** `{base_url}/plugins/claude-marketplace.json`: what `claude plugin marketplace add <url>` takes. */
export const urlMarketplaceUrl = (base: string): string => `${base}/${URL_MARKETPLACE_TREE_PATH}`;
