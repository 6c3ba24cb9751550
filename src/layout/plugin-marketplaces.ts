/**
 * The marketplace documents of the catalogue's plugins (DESIGN.md "Native plugins"): the
 * folder `plugins/` is a marketplace for each agent's plugin manager, and the catalogue also
 * publishes a Claude Code marketplace to add by URL. Pure: entries in, JSON values out.
 *
 * The documents and their sources (read 2026-11-26):
 * - Claude Code, `.claude-plugin/marketplace.json` (SchemaStore `claude-code-marketplace.json`;
 *   code.claude.com/docs/en/plugin-marketplaces): `name`, `owner{name,url}`, `plugins[]` with
 *   `name`, `source` (`"./<folder>"`, relative to the folder holding `.claude-plugin/`), and any
 *   plugin.json field plus `category` and `tags`. Copilot CLI and Codex read it too.
 * - The same added by URL: relative sources are refused there ("a relative entry in a
 *   url-catalog marketplace"), so each entry is `{source: "archive", url, sha256}`: a zip over
 *   HTTPS pinned by its sha256 (Claude Code 2.1.224 and later; checked with 2.1.328).
 * - Codex, `.agents/plugins/claude-marketplace.json` (openai/codex `codex-rs/core-plugins/src/marketplace.rs`):
 *   `name`, `interface{displayName}`, `plugins[]` of `{name, source: {source: "local", path:
 *   "./<folder>"}, policy{installation, authentication}, category}`, paths relative to the
 *   folder holding `.agents/`.
 * - Cursor, `.cursor-plugin/marketplace.json` (cursor/plugins `schemas/marketplace.schema.json`,
 *   closed): `name`, `owner{name,email}`, `metadata{description}`, `plugins[]` of `{name,
 *   source, description}` with `source` a folder relative to the marketplace root.
 */
import type { Manifest } from '../catalogue/manifest.js';

/** Where each marketplace document lies, relative to the marketplace folder (`plugins/`). */
export const MARKETPLACE_PATHS = {
  claude: '.claude-plugin/marketplace.json',
  codex: '.agents/plugins/claude-marketplace.json',
  cursor: '.cursor-plugin/marketplace.json',
} as const;

/**
 * The catalogue's marketplace: its `name` (what people type after `@` in
 * `/plugin install <id>@<name>`: lower-case letters, digits and hyphens) and its owner.
 */
export interface MarketplaceSettings {
  name: string;
  owner: { name: string; url?: string };
  /** One line about the catalogue. */
  description: string;
  /** The repository branch that `loadout publish` pushes `plugins/` to (`repository`: `owner/name` on GitHub, or a git URL), when there is one. */
  git?: { repository: string; branch: string };
}

/** The default marketplace settings of a catalogue that sets none (`LOADOUT_MARKETPLACE_NAME`, `LOADOUT_MARKETPLACE_OWNER`). */
export const DEFAULT_MARKETPLACE: MarketplaceSettings = { name: 'loadout-catalogue', owner: { name: 'Loadout Catalogue' }, description: 'Loadouts for coding agents: instructions, rules, skills, subagents and MCP servers.' };

/** The rule for a marketplace name: a slug of at most 64 characters (a plugin id in every CLI). */
export const MARKETPLACE_NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/u;

/** One loadout in the marketplaces: what its plugin's manifests say, where its zip is. */
export interface MarketplaceEntry {
  manifest: Pick<Manifest, 'id' | 'version' | 'summary' | 'license' | 'categories' | 'stacks'> & { author: { name: string; url?: string } };
  /** The loadout's page. */
  homepage: string;
  /** The zip of its plugin (the URL marketplace's `archive` source): its absolute URL and sha256 (hex). */
  zip: { url: string; sha256: string };
}

/**
 * A bundle in the marketplaces (issue 56, point 2): its plugin carries only `dependencies`
 * (bundle-plugin.ts); the formats that have none list its members in its description.
 */
export interface BundleMarketplaceEntry {
  id: string;
  version: string;
  /** The bundle's plugin description: its summary and its members with their ranges. */
  description: string;
  license: string;
  author: { name: string; url?: string };
  /** The bundle's page. */
  homepage: string;
  /** Its members' ids. */
  members: readonly string[];
  /** The zip of its plugin, for the URL marketplace. */
  zip: { url: string; sha256: string };
}

/** A bundle's Claude Code entry, `source` last, in the shape of {@link claudeEntry}. */
function claudeBundleEntry(b: BundleMarketplaceEntry, source: unknown): Record<string, unknown> {
  return { name: b.id, version: b.version, description: b.description, author: { name: b.author.name, url: b.author.url }, homepage: b.homepage, license: b.license, keywords: ['bundle', ...b.members], source };
}

/**
 * A Claude Code entry with its `source` last. Each entry is one object literal of a fixed shape
 * (an absent `category` or author `url` is undefined, which JSON leaves out) rather than objects
 * spread into each other: the build serialises 10,000 entries per document on every rebuild.
 */
function claudeEntry({ manifest: m, homepage }: MarketplaceEntry, source: unknown): Record<string, unknown> {
  return {
    name: m.id,
    version: m.version,
    description: m.summary,
    author: { name: m.author.name, url: m.author.url },
    homepage,
    license: m.license,
    keywords: [...new Set([...m.stacks, ...m.categories])],
    category: m.categories[0],
    tags: m.stacks,
    source,
  };
}

const owner = (s: MarketplaceSettings): { name: string; url?: string } => (s.owner.url === undefined ? { name: s.owner.name } : { name: s.owner.name, url: s.owner.url });

/** `plugins/.claude-plugin/marketplace.json`: a folder marketplace of `./<id>` sources. */
export function claudeFolderMarketplace(settings: MarketplaceSettings, entries: readonly MarketplaceEntry[], bundles: readonly BundleMarketplaceEntry[] = []): Record<string, unknown> {
  return { name: settings.name, owner: owner(settings), metadata: { description: settings.description }, plugins: [...entries.map((e) => claudeEntry(e, `./${e.manifest.id}`)), ...bundles.map((b) => claudeBundleEntry(b, `./${b.id}`))] };
}

/** `plugins/claude-marketplace.json`: the same entries with `archive` sources, for `marketplace add <url>`. */
export function claudeUrlMarketplace(settings: MarketplaceSettings, entries: readonly MarketplaceEntry[], bundles: readonly BundleMarketplaceEntry[] = []): Record<string, unknown> {
  const archive = (zip: { url: string; sha256: string }): Record<string, string> => ({ source: 'archive', url: zip.url, sha256: zip.sha256 });
  return { name: settings.name, owner: owner(settings), metadata: { description: settings.description }, plugins: [...entries.map((e) => claudeEntry(e, archive(e.zip))), ...bundles.map((b) => claudeBundleEntry(b, archive(b.zip)))] };
}

/** `plugins/.agents/plugins/claude-marketplace.json`: Codex's folder marketplace. */
export function codexMarketplace(settings: MarketplaceSettings, entries: readonly MarketplaceEntry[], bundles: readonly BundleMarketplaceEntry[] = []): Record<string, unknown> {
  const policy = { installation: 'AVAILABLE', authentication: 'ON_INSTALL' };
  return {
    name: settings.name,
    interface: { displayName: settings.owner.name },
    plugins: [
      ...entries.map(({ manifest: m }) => ({ name: m.id, source: { source: 'local', path: `./${m.id}` }, policy, category: m.categories[0] })),
      // Codex installs no dependencies: the bundle's folder names its members (plugin.json's description, README.md).
      ...bundles.map((b) => ({ name: b.id, source: { source: 'local', path: `./${b.id}` }, policy, category: 'bundle' })),
    ],
  };
}

/** `plugins/.cursor-plugin/marketplace.json`: Cursor's folder marketplace. */
export function cursorMarketplace(settings: MarketplaceSettings, entries: readonly MarketplaceEntry[], bundles: readonly BundleMarketplaceEntry[] = []): Record<string, unknown> {
  const plugins = [...entries.map(({ manifest: m }) => ({ name: m.id, source: m.id, description: m.summary })), ...bundles.map((b) => ({ name: b.id, source: b.id, description: b.description }))];
  return { name: settings.name, owner: { name: settings.owner.name }, metadata: { description: settings.description }, plugins };
}
