/**
 * Agent Skills discovery in the static tree (DESIGN.md section 8; docs/http-api.md, "Agent Skills
 * discovery"), so that `npx skills add <base_url>/loadouts/<id>` installs a loadout's skills and
 * `npx skills add <base_url>` finds the catalogue's.
 *
 * The format is the one the `skills` CLI (npm `skills` 1.7.4, `WellKnownProvider` in
 * `dist/cli.mjs`) reads:
 * - discovery 0.2.0: `.well-known/agent-skills/index.json` =
 *   `{$schema: "https://schemas.agentskills.io/discovery/0.2.0/schema.json", skills: [{name,
 *   description, type: "skill-md" | "archive", url, digest: "sha256:<hex>"}]}`; the client
 *   resolves `url` against the index's own address, checks `digest` over the bytes it
 *   fetched, and unpacks an archive whose root is the skill folder. `name` must be 1 to 64 of
 *   `a-z0-9-` without leading, trailing or doubled hyphens, `description` 1 to 1,024
 *   characters: the client skips other entries.
 * - discovery 0.1 (legacy, read when the 0.2 index is missing): `.well-known/skills/index.json`
 *   = `{skills: [{name, description, files}]}` with each file at
 *   `.well-known/skills/<name>/<file>`. One bad entry makes the client drop the whole index.
 *
 * What the build writes:
 * - per loadout, in `loadouts/<id>/.well-known/` (the client tries the index beside the
 *   address it is given first, and never falls back from a path to the root index):
 *   both indexes; a one-file skill as `agent-skills/<skill>/SKILL.md` (`skill-md`), any other
 *   as `agent-skills/<skill>.zip` (`archive`, deterministic, zip.ts); the legacy files.
 * - for the catalogue, in `.well-known/`: both indexes, each skill name once, from the
 *   featured loadout first, then the most recently updated, then by id; the 0.2 entries point
 *   at the loadouts' artifacts with relative URLs (`../../loadouts/<id>/.well-known/…`), so the
 *   tree works below any base address; the legacy files are copied.
 *
 * URLs are relative to the index, which keeps a mirrored or prefixed tree working. Only the
 * latest version is indexed; pinned versions stay at `raw/<id>/<version>/`. A skill's links out
 * of its folder point at the pinned raw addresses (the client installs the folder alone).
 */
import { createHash } from 'node:crypto';
import { describePathProblem } from '../../catalogue/file-path.js';
import { readFrontMatter } from '../../catalogue/front-matter.js';
import { pathInsideSkill } from '../../layout/layout.js';
import { skillFileInstalledAlone } from '../../layout/skill-alone.js';
import { rawTreePath } from '../../tree-format/addresses.js';
import type { OutputTree } from '../write/tree-files.js';
import type { LoadoutDiscovery } from './catalogue-entry.js';
import type { PublishedRecord } from '../../tree-format/index.js';
import { repeatsRawFolder } from './raw-folders.js';
import { writeZip, ZipContents } from './zip.js';

/** `$schema` of a 0.2.0 index (the value the `skills` CLI compares with). */
export const DISCOVERY_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
/** The 0.2 folder, relative to the folder the index serves. */
export const AGENT_SKILLS_DIR = '.well-known/agent-skills';
/** The 0.1 (legacy) folder. */
export const LEGACY_SKILLS_DIR = '.well-known/skills';
/** Name of both indexes. */
export const INDEX_FILE = 'index.json';
/**
 * The folder that holds both, at the tree's root and in each loadout's folder, and nothing
 * else: {@link writeCatalogueDiscovery} writes all of the tree's root one.
 */
export const DISCOVERY_FOLDER = '.well-known';

/** One entry of a 0.2.0 index. */
export interface DiscoveryEntry {
  name: string;
  description: string;
  type: 'skill-md' | 'archive';
  /** Relative to the index. */
  url: string;
  /** `sha256:<64 hex>` of the bytes at `url`. */
  digest: string;
}

/** A 0.2.0 index. */
export interface DiscoveryIndex {
  $schema: typeof DISCOVERY_SCHEMA;
  skills: DiscoveryEntry[];
}

/** One entry of a 0.1 index: the files are at `<name>/<file>` beside the index, `SKILL.md` first. */
export interface LegacyEntry {
  name: string;
  description: string;
  files: string[];
}

/** A 0.1 index. */
export interface LegacyIndex {
  skills: LegacyEntry[];
}

/** A skill of a record, ready to publish: its files by path inside the skill folder, `SKILL.md` first. */
export interface DiscoverableSkill {
  name: string;
  description: string;
  /**
   * `rel`: the path inside the skill folder; `path`: the file's path in the loadout
   * (`files[].path`); `content` as a client installs it: links to the skill's own files as they
   * are, links to the loadout's other files rewritten to their pinned raw addresses
   * (`layout/link-rewrite.ts`: `npx skills add` installs the skill folder alone); `rewritten`
   * when that changed the text.
   */
  files: { rel: string; path: string; content: string; rewritten: boolean }[];
}

/** The Agent Skills naming rule (agentskills.io specification, "name" field), as the client checks it. */
const SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(?:-[a-z0-9]+)*$/u;
/** The client's limit on `description`. */
const MAX_DESCRIPTION = 1024;

/** The folder of a loadout's indexes, relative to the tree. */
export const loadoutDiscoveryFolder = (id: string): string => `loadouts/${id}`;

const digestOf = (data: string | Uint8Array): string => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/**
 * The skills of `record` (files with role `skill` or `reference` and a `skill`) that a client
 * can install: a `SKILL.md` whose front matter has `name` equal to the folder and a
 * `description` of 1 to 1,024 characters, and a valid name. Others are left out (the
 * `parse` check already fails a loadout whose SKILL.md lacks them). Pure.
 */
export function discoverableSkills(record: Pick<PublishedRecord, 'files'>): DiscoverableSkill[] {
  // A skill's own files keep their places inside its folder; links out of it point at the catalogue.
  const bySkill = new Map<string, DiscoverableSkill['files']>();
  for (const f of record.files) {
    if ((f.role !== 'skill' && f.role !== 'reference') || f.skill === null) continue;
    const rel = pathInsideSkill({ path: f.path, role: f.role, description: f.description, skill: f.skill });
    const content = skillFileInstalledAlone(record.files, f.skill, f.path, rel, f.content);
    bySkill.set(f.skill, [...(bySkill.get(f.skill) ?? []), { rel, path: f.path, content, rewritten: content !== f.content }]);
  }
  const skills: DiscoverableSkill[] = [];
  for (const [name, files] of [...bySkill].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const skillMd = files.find((f) => f.rel === 'SKILL.md');
    if (skillMd === undefined || !SKILL_NAME.test(name)) continue;
    const fm = readFrontMatter(skillMd.content).data;
    const description = fm['description'];
    if (fm['name'] !== name || typeof description !== 'string' || description.trim() === '' || description.length > MAX_DESCRIPTION) continue;
    const sorted = [...files].sort((a, b) => (a.rel === 'SKILL.md' ? -1 : b.rel === 'SKILL.md' ? 1 : a.rel < b.rel ? -1 : 1));
    skills.push({ name, description, files: sorted });
  }
  return skills;
}

/** The client refuses a legacy index with any file path holding `..` (even inside a name) or starting with `/` or `\`. */
const isSafeLegacyPath = (rel: string): boolean => !rel.includes('..') && !rel.startsWith('/') && !rel.startsWith('\\') && !rel.includes('\u0000');

/**
 * Writes the discovery files of one loadout below `loadouts/<id>/.well-known/` (see the
 * module comment) and returns the entries of its two indexes. `contents`: what the loadout's other
 * zips compressed (a skill's files are among them). Every write goes through `tree`, which refuses
 * paths that leave it; skill names are slugs and file paths passed the `files[].path` rule.
 * @throws LoadoutError `internal` from `tree` for a path that would leave it (a bug).
 */
export async function writeLoadoutDiscovery(tree: OutputTree, record: Pick<PublishedRecord, 'id' | 'version' | 'files'>, contents = new ZipContents()): Promise<LoadoutDiscovery> {
  const folder = loadoutDiscoveryFolder(record.id);
  const skills = discoverableSkills(record);
  const entries: DiscoveryEntry[] = [];
  const legacy: LegacyEntry[] = [];
  const published = record.files.map((f) => f.path);
  for (const skill of skills) {
    const [only] = skill.files;
    if (skill.files.length === 1 && only !== undefined) {
      const at = `${folder}/${AGENT_SKILLS_DIR}/${skill.name}/SKILL.md`;
      await (only.rewritten ? tree.write(at, only.content) : tree.link(at, rawTreePath(record.id, 'latest', only.path)));
      entries.push({ name: skill.name, description: skill.description, type: 'skill-md', url: `${skill.name}/SKILL.md`, digest: digestOf(only.content) });
    } else {
      const zip = writeZip(skill.files.map((f) => ({ path: f.rel, data: f.content })), contents);
      await tree.write(`${folder}/${AGENT_SKILLS_DIR}/${skill.name}.zip`, zip);
      entries.push({ name: skill.name, description: skill.description, type: 'archive', url: `${skill.name}.zip`, digest: digestOf(zip) });
    }
    if (!skill.files.every((f) => isSafeLegacyPath(f.rel))) continue;
    // The same bytes as the loadout's raw files, written before this runs (unless a link was
    // rewritten): the raw skill folder itself when the skill's files are all of it (raw-folders.ts).
    const placed = new Map(skill.files.map((f) => [f.rel, f.rewritten ? undefined : f.path]));
    const skillFolder = `skills/${skill.name}`;
    if (repeatsRawFolder(skillFolder, placed, published)) {
      await tree.linkFolder(`${folder}/${LEGACY_SKILLS_DIR}/${skill.name}`, rawTreePath(record.id, record.version, skillFolder));
    } else {
      for (const f of skill.files) {
        const at = `${folder}/${LEGACY_SKILLS_DIR}/${skill.name}/${f.rel}`;
        await (f.rewritten ? tree.write(at, f.content) : tree.link(at, rawTreePath(record.id, 'latest', f.path)));
      }
    }
    legacy.push({ name: skill.name, description: skill.description, files: skill.files.map((f) => f.rel) });
  }
  await tree.writeJson(`${folder}/${AGENT_SKILLS_DIR}/${INDEX_FILE}`, { $schema: DISCOVERY_SCHEMA, skills: entries } satisfies DiscoveryIndex);
  await tree.writeJson(`${folder}/${LEGACY_SKILLS_DIR}/${INDEX_FILE}`, { skills: legacy } satisfies LegacyIndex);
  return { skills: entries, legacy };
}

/** Which loadout's skill wins a shared name: featured first, then the most recently updated, then by id. */
function compareOwners(a: Pick<PublishedRecord, 'id' | 'featured' | 'updated'>, b: Pick<PublishedRecord, 'id' | 'featured' | 'updated'>): number {
  if (a.featured !== b.featured) return a.featured ? -1 : 1;
  const au = a.updated ?? '';
  const bu = b.updated ?? '';
  if (au !== bu) return au > bu ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Writes the catalogue-wide indexes in `.well-known/` from the loadouts' own (`discovery`, as
 * {@link writeLoadoutDiscovery} returned them, in this build or, kept in the build cache, in an
 * earlier one), whose files must be in the tree already: each skill name once, from the
 * loadout that {@link compareOwners} puts first. The 0.2 entries point into the loadouts'
 * folders; the legacy files are linked.
 * @throws LoadoutError `internal` from `tree` (a bug); the file system's error when a legacy
 *   file is missing from the tree.
 */
export async function writeCatalogueDiscovery(tree: OutputTree, records: readonly (Pick<PublishedRecord, 'id' | 'featured' | 'updated'> & { discovery: LoadoutDiscovery })[]): Promise<DiscoveryIndex> {
  const taken = new Set<string>();
  const legacyTaken = new Set<string>();
  const entries: DiscoveryEntry[] = [];
  const legacy: LegacyEntry[] = [];
  for (const record of [...records].sort(compareOwners)) {
    const folder = loadoutDiscoveryFolder(record.id);
    for (const entry of record.discovery.skills) {
      if (taken.has(entry.name)) continue;
      taken.add(entry.name);
      entries.push({ ...entry, url: `../../${folder}/${AGENT_SKILLS_DIR}/${entry.url}` });
    }
    for (const entry of record.discovery.legacy) {
      // Maybe read back from the build cache: paths are checked again before any link.
      if (legacyTaken.has(entry.name) || !SKILL_NAME.test(entry.name) || !entry.files.every((rel) => describePathProblem(rel) === undefined && isSafeLegacyPath(rel))) continue;
      legacyTaken.add(entry.name);
      for (const rel of entry.files) {
        await tree.link(`${LEGACY_SKILLS_DIR}/${entry.name}/${rel}`, `${folder}/${LEGACY_SKILLS_DIR}/${entry.name}/${rel}`);
      }
      legacy.push(entry);
    }
  }
  const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const index: DiscoveryIndex = { $schema: DISCOVERY_SCHEMA, skills: entries.sort(byName) };
  await tree.writeJson(`${AGENT_SKILLS_DIR}/${INDEX_FILE}`, index);
  await tree.writeJson(`${LEGACY_SKILLS_DIR}/${INDEX_FILE}`, { skills: legacy.sort(byName) } satisfies LegacyIndex);
  return index;
}
