/**
 * The published form of a bundle (issue 56; DESIGN.md "Bundles"): a named set of the
 * catalogue's loadouts, each with a semver range, authored as `bundles/<id>/bundle.yaml`
 * (`schema/bundle.schema.json`) and published as `api/bundles/<id>.json` (its record), in the
 * list `api/bundles.json`, as the page `bundles/<id>/` and as a Claude Code plugin that carries
 * only `dependencies`. What the build writes and what the installer, search, MCP and the pages
 * read: types and addresses only.
 */
import type { Agent } from '../catalogue/vocabulary.js';
import type { Capabilities } from './capabilities.js';
import type { ContextCost } from './record.js';

/** A member as one version of a bundle names it: the loadout, the range it accepts, the agents it is for (null: every agent the install asks for). */
export interface BundleMemberRange {
  id: string;
  range: string;
  agents: Agent[] | null;
}

/**
 * A member of the bundle's latest version, resolved against the catalogue as built: the newest
 * published version its range allows (`catalogue/version-ranges.ts` `chooseVersion`), and what
 * that version brings.
 */
export interface BundleMember extends BundleMemberRange {
  /** The newest published version of the loadout that `range` allows. */
  resolved: string;
  /** The loadout's latest version (what the marketplaces and `latest` hold); may lie outside `range`. */
  latest: string;
  /** Every published version that `range` allows, oldest first (the resolved one last). */
  satisfying: string[];
  title: string;
  summary: string;
  /** The loadout's page, record and versions document. */
  url: string;
  api_url: string;
  versions_url: string;
  /** Context cost of the resolved version, per agent (zero for an agent the member is not for). */
  context: Record<Agent, ContextCost>;
  /** `runs` and `digest` of the resolved version's capability list. */
  capabilities: Pick<Capabilities, 'runs' | 'digest'>;
}

/** One version of a bundle, as its `bundle.yaml` said at the last commit that held it. */
export interface BundleVersion {
  version: string;
  /** `YYYY-MM-DD` the version was first committed; null for one not committed yet. */
  date: string | null;
  /** The last commit whose `bundle.yaml` held this version; null outside git. */
  commit: string | null;
  latest: boolean;
  loadouts: BundleMemberRange[];
}

/** The bundle's Claude Code plugin (DESIGN.md "Bundles"), when the build writes plugins. */
export interface BundlePlugin {
  /** The plugin's name (the bundle id) and the marketplace it is in: `claude plugin install <name>@<marketplace>`. */
  name: string;
  marketplace: string;
  /** The command that installs the bundle's plugin and, through its `dependencies`, its members' plugins. */
  install: string;
  /** The `dependencies` of its `.claude-plugin/plugin.json`. */
  dependencies: { name: string; version: string }[];
  /** Its zip for the URL marketplace: address and sha256 (hex). */
  zip_url: string;
  sha256: string;
}

/** `api/bundles/<id>.json`: the published record of a bundle. */
export interface BundleRecord {
  id: string;
  type: 'bundle';
  title: string;
  summary: string;
  description: string;
  version: string;
  license: string;
  author: { name: string; url?: string; github?: string };
  /** `YYYY-MM-DD` of the first and the last commit that changed the bundle's folder; null when not committed. */
  published: string | null;
  updated: string | null;
  url: string;
  api_url: string;
  /** The members of this version, resolved. */
  loadouts: BundleMember[];
  /** The members' context costs added up per agent (each member counted for the agents it is for). */
  context: Record<Agent, ContextCost>;
  /** The union of the members' capability lists at their resolved versions, each item's files under `<loadout id>/` (`bundles/capabilities.ts`). */
  capabilities: Capabilities;
  plugin: BundlePlugin | null;
  /** Every published version of the bundle, oldest first; the last is this one. */
  versions: BundleVersion[];
}

/** One line of `api/bundles.json`: what search, MCP and the marketplaces read of a bundle. */
export interface BundleListEntry {
  id: string;
  title: string;
  summary: string;
  description: string;
  version: string;
  license: string;
  author: { name: string; url?: string };
  updated: string | null;
  url: string;
  api_url: string;
  loadouts: { id: string; range: string; agents: Agent[] | null; resolved: string; title: string }[];
}

/** `api/bundles.json`. */
export interface BundleList {
  total: number;
  bundles: BundleListEntry[];
}

/** Where the list of bundles lies in the tree. */
export const BUNDLES_LIST_TREE_PATH = 'api/bundles.json';
/** Where the bundle schema lies in the tree, beside the authoring schema `api/schema.json`. */
export const BUNDLE_SCHEMA_TREE_PATH = 'api/bundle.schema.json';
/** The tree folder of the bundles' pages, `bundles/` (its `index.html` lists them). */
export const BUNDLES_PAGE_FOLDER = 'bundles';
/** `api/bundles/<id>.json` in the tree. */
export const bundleRecordTreePath = (id: string): string => `api/bundles/${id}.json`;
/** `bundles/<id>/index.html` in the tree. */
export const bundlePageTreePath = (id: string): string => `${BUNDLES_PAGE_FOLDER}/${id}/index.html`;
/** `bundles/<id>/plugin-<version>.zip`: the zip of the bundle's plugin, the URL marketplace's `archive` source. */
export const bundlePluginZipTreePath = (id: string, version: string): string => `${BUNDLES_PAGE_FOLDER}/${id}/plugin-${version}.zip`;
/** `{base_url}/bundles/<id>/` */
export const bundlePageUrl = (base: string, id: string): string => `${base}/${BUNDLES_PAGE_FOLDER}/${id}/`;
/** `{base_url}/api/bundles/<id>.json` */
export const bundleRecordUrl = (base: string, id: string): string => `${base}/${bundleRecordTreePath(id)}`;
/** `{base_url}/bundles/<id>/plugin-<version>.zip` */
export const bundlePluginZipUrl = (base: string, id: string, version: string): string => `${base}/${bundlePluginZipTreePath(id, version)}`;

/**
 * A bundle that names a loadout, as the loadout's page lists it (`pages/loadout-bundles.ts`):
 * its id and title and the range it accepts.
 */
export interface BundleMention {
  id: string;
  title: string;
  range: string;
}
