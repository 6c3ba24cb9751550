/**
 * What the MCP server reads from the built tree (DESIGN.md section 1: "Search and MCP read the
 * built tree"). The small documents (agents, tags, skills) are read once at start; records,
 * version lists and raw files are read on demand, with the most recent records kept in a small
 * cache, so memory does not grow with the catalogue's file contents (DESIGN.md section 7).
 * Every id, version and path is checked before it becomes a file path.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { VersionsDocument } from '../tree-format/versions.js';
import type { PublishedRecord } from '../tree-format/index.js';
import { DESCRIPTION_TREE_PATH, PLUGINS_FOLDER, type CliRoute } from '../tree-format/addresses.js';
import { bundleRecordTreePath, type BundleRecord } from '../tree-format/bundle.js';
import { LoadoutError } from '../catalogue/errors.js';
import { SLUG_PATTERN } from '../catalogue/vocabulary.js';
import { SKILLS_PATH, type SkillEntry, type SkillsFile } from '../search/index-file.js';

/** `api/agents.json`, one entry. */
export interface AgentEntry {
  id: string;
  authoring: boolean;
  adapter: string | null;
  skills_dir: string;
  loadouts: number;
}

/** `api/tags.json`. */
export interface TagsDocument {
  stacks: { tag: string; count: number }[];
  categories: { tag: string; count: number }[];
}

/**
 * How the tree's pages run the CLI and where its marketplaces are, read from its API description
 * document (`api/v1/index.json`: `cli.registry`, `signing`, `plugins`), with the tree's own
 * `plugins/` folder: what layout/install-routes.ts needs to give the routes the pages give.
 */
export interface InstallRouteSettings {
  route: CliRoute;
  /** `plugins.marketplace`: the build's `{base_url}/plugins/claude-marketplace.json`, when the build wrote plugins. */
  marketplaceUrl?: string;
}

/** The parts of the description document {@link readInstallRouteSettings} reads. */
interface DescriptionParts {
  cli?: { registry?: { version?: unknown } };
  signing?: unknown;
  plugins?: { name?: unknown; marketplace?: unknown; git?: { repository?: unknown; branch?: unknown } };
}

/** The install route settings of the tree at `distDir` from its description document `doc` (undefined: none, an older tree). */
function installRouteSettings(distDir: string, doc: DescriptionParts | undefined): InstallRouteSettings {
  const registry = doc?.cli?.registry?.version;
  const plugins = doc?.plugins;
  const git = plugins?.git;
  const named = typeof plugins?.name === 'string' ? plugins.name : undefined;
  return {
    route: {
      ...(typeof registry === 'string' ? { registry_version: registry } : {}),
      signed: doc?.signing !== undefined,
      ...(named === undefined
        ? {}
        : { plugins: { name: named, folder: join(resolve(distDir), PLUGINS_FOLDER), ...(typeof git?.repository === 'string' && typeof git.branch === 'string' ? { git: { repository: git.repository, branch: git.branch } } : {}) } }),
    },
    ...(typeof plugins?.marketplace === 'string' ? { marketplaceUrl: plugins.marketplace } : {}),
  };
}

/** Read access to a built tree. Lookups of unknown things resolve to undefined. */
export interface CatalogueReader {
  /** How its pages install a loadout (the same routes for MCP's get_install_instructions). */
  readonly install: InstallRouteSettings;
  readonly agents: readonly AgentEntry[];
  readonly tags: TagsDocument;
  readonly skills: readonly SkillEntry[];
  /** The published record, or undefined when there is no loadout `id`. */
  record(id: string): Promise<PublishedRecord | undefined>;
  /** The version list, or undefined when there is no loadout `id`. */
  versions(id: string): Promise<VersionsDocument | undefined>;
  /** A bundle's published record (`api/bundles/<id>.json`, issue 56), or undefined when there is no bundle `id`. */
  bundle(id: string): Promise<BundleRecord | undefined>;
  /** A raw file's text; the caller has checked that `path` belongs to `version` of `id`. */
  rawFile(id: string, version: string, path: string): Promise<string | undefined>;
  /** A raw file's bytes (for digests over exactly what is served); same rules as {@link CatalogueReader.rawFile}. */
  rawBytes(id: string, version: string, path: string): Promise<Buffer | undefined>;
}

const VERSION_PATTERN = /^(?:\d+\.\d+\.\d+|latest)$/u;

/**
 * Opens the tree at `distDir`.
 * @throws LoadoutError `not_found` when `api/agents.json`, `api/tags.json` or `api/skills.json` is missing.
 */
export async function openCatalogue(distDir: string, cacheSize = 64): Promise<CatalogueReader> {
  const agents = (await readJson<{ agents: AgentEntry[] }>(distDir, 'api/agents.json')).agents;
  const tags = await readJson<TagsDocument>(distDir, 'api/tags.json');
  const skills = (await readJson<SkillsFile>(distDir, SKILLS_PATH)).skills;
  const records = new Map<string, PublishedRecord>();

  const optional = async <T>(path: string): Promise<T | undefined> => {
    const text = await readFile(join(distDir, path), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
      throw error;
    });
    return text === undefined ? undefined : (JSON.parse(text) as T);
  };

  const rawBytes = async (id: string, version: string, path: string): Promise<Buffer | undefined> => {
    if (!SLUG_PATTERN.test(id) || !VERSION_PATTERN.test(version) || path.split('/').some((s) => s === '' || s === '.' || s === '..')) return undefined;
    return readFile(join(distDir, 'raw', id, version, ...path.split('/'))).catch(() => undefined);
  };

  const install = installRouteSettings(distDir, await optional<DescriptionParts>(DESCRIPTION_TREE_PATH));

  return {
    install,
    agents,
    tags,
    skills,
    async record(id) {
      if (!SLUG_PATTERN.test(id)) return undefined;
      const hit = records.get(id);
      if (hit !== undefined) {
        // Re-insert: a Map iterates in insertion order, so the first key is the least recent.
        records.delete(id);
        records.set(id, hit);
        return hit;
      }
      const record = await optional<PublishedRecord>(`api/loadouts/${id}.json`);
      if (record === undefined) return undefined;
      records.set(id, record);
      if (records.size > cacheSize) records.delete(records.keys().next().value as string);
      return record;
    },
    async versions(id) {
      return SLUG_PATTERN.test(id) ? optional<VersionsDocument>(`api/loadouts/${id}/versions.json`) : undefined;
    },
    async bundle(id) {
      return SLUG_PATTERN.test(id) ? optional<BundleRecord>(bundleRecordTreePath(id)) : undefined;
    },
    async rawFile(id, version, path) {
      return (await rawBytes(id, version, path))?.toString('utf8');
    },
    rawBytes,
  };
}

async function readJson<T>(distDir: string, path: string): Promise<T> {
  const file = join(distDir, path);
  const text = await readFile(file, 'utf8').catch((cause: unknown) => {
    throw new LoadoutError('not_found', `${file} is missing`, { cause, hint: 'Run `loadout build` first.' });
  });
  return JSON.parse(text) as T;
}
