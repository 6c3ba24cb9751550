/**
 * The Skills extension of MCP (SEP-2640, `io.modelcontextprotocol/skills`) over the catalogue's
 * `skill://` resources: `skills/list`, `skills/get` and `resources/directory/read`.
 *
 * - A skill entry (SEP-2640, "Enumeration via skills/list") is `{uri, frontmatter, resources}`:
 *   `uri` the skill's `SKILL.md`, `frontmatter` that file's YAML front matter as JSON (every
 *   field, parsed from the bytes served), `resources` every file of the skill with
 *   `digest: "sha256:<hex>"` of its bytes as served ("Integrity and verification"; skill-text.ts:
 *   links that leave the skill point at pinned raw addresses). Entries are built
 *   from the files on disk at each request, so a digest always matches what `resources/read`
 *   gives for the same tree.
 * - `skills/list` lists each loadout's latest version; pinned versions are served but not
 *   listed (SEP-2640 allows a partial listing: "A skill absent from a partial listing is still
 *   retrievable by URI"). Pages hold whole entries.
 * - `skills/get` and `resources/directory/read` answer -32602 (Invalid params) with
 *   `data: {uri}` for a URI that is not a skill's `SKILL.md`, or not a directory ("Retrieval
 *   via skills/get", "resources/directory/read"; the data shape of SEP-2164).
 */
import { createHash } from 'node:crypto';
import { ErrorCode, type McpError, type Resource } from '@modelcontextprotocol/sdk/types.js';
import { readFrontMatter } from '../catalogue/front-matter.js';
import { mapConcurrent } from '../concurrency.js';
import type { CatalogueReader } from './catalogue.js';
import { pageOf } from './cursor.js';
import { protocolError } from './protocol-error.js';
import { resourceOf } from './resources.js';
import { type SkillFolder, type SkillFolders } from './skill-folders.js';
import { readServedSkillFile } from './skill-text.js';
import { formatSkillUri, parseSkillUri, skillFileUri, type SkillAddress } from './skill-uri.js';

/** The extension's identifier (SEP-2640, header "Extension Identifier"). */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** The extension's settings in `capabilities.extensions` (SEP-2640, "Capability Declaration"). */
export const SKILLS_EXTENSION_SETTINGS = { directoryRead: true } as const;

/** Skill entries per `skills/list` page. */
export const SKILLS_PAGE_SIZE = 50;

/** Directory children per `resources/directory/read` page. */
export const DIRECTORY_PAGE_SIZE = 500;

/** `mimeType` of a directory resource (SEP-2640, "Directory resources"). */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** Files of one skill read at once while building its entry. */
const READ_CONCURRENCY = 8;

/** A skill entry (SEP-2640, "Result fields"). */
export interface SkillEntryResult {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: { uri: string; digest: string }[];
}

/** The extension's methods over the catalogue. */
export interface SkillsExtension {
  /**
   * `skills/list`: one page of entries, from `cursor` (a `nextCursor` this server gave out).
   * @throws McpError -32602 for any other cursor
   */
  list(cursor: string | undefined): Promise<{ skills: SkillEntryResult[]; nextCursor?: string }>;
  /**
   * `skills/get`: the entry of the skill whose `SKILL.md` is `uri`, latest or pinned.
   * @throws McpError -32602 with `data: {uri}` when `uri` is not the SKILL.md of a skill served here
   */
  get(uri: string): Promise<{ skill: SkillEntryResult }>;
  /**
   * `resources/directory/read`: the direct children of the directory `uri`, files as resources
   * and folders with `mimeType: "inode/directory"`, by name, paged like `resources/list`.
   * @throws McpError -32602 with `data: {uri}` when `uri` is not a directory served here, or
   *   for a cursor this server did not give out
   */
  readDirectory(uri: string, cursor: string | undefined): Promise<{ resources: Resource[]; nextCursor?: string }>;
}

/** Sizes of pages (tests use small ones). */
export interface SkillsPageSizes {
  skills?: number;
  directory?: number;
}

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** -32602 with the URI as data (SEP-2640 "skills/get"; SEP-2164 for the data shape). */
function notServed(uri: string, what: string): McpError {
  return protocolError(ErrorCode.InvalidParams, `Invalid params: ${JSON.stringify(uri)} ${what}`, { uri });
}

/** Builds the extension over `catalogue` and its skill folders. */
export function createSkillsExtension(catalogue: CatalogueReader, folders: SkillFolders, sizes: SkillsPageSizes = {}): SkillsExtension {
  const skillsPageSize = sizes.skills ?? SKILLS_PAGE_SIZE;
  const directoryPageSize = sizes.directory ?? DIRECTORY_PAGE_SIZE;

  /** The entry of `folder`, from the bytes the raw tree holds now. */
  const entryOf = async (folder: SkillFolder): Promise<SkillEntryResult> => {
    const read = await mapConcurrent(folder.files, READ_CONCURRENCY, async (file) => {
      // As served by resources/read: the skill folder installed alone (skill-text.ts).
      const bytes = await readServedSkillFile(catalogue, folder, file);
      // The tree lists a file it does not hold: a broken build, not the client's fault.
      if (bytes === undefined) throw protocolError(ErrorCode.InternalError, `Internal error: ${folder.loadout}/${file.path} is listed but missing from the built tree (rebuild the catalogue)`);
      return { file, bytes };
    });
    const skillMd = read.find((r) => r.file.rel === 'SKILL.md');
    return {
      uri: skillFileUri(folder.loadout, folder.version, folder.skill, 'SKILL.md'),
      frontmatter: skillMd === undefined ? {} : readFrontMatter(skillMd.bytes.toString('utf8')).data,
      resources: read.map(({ file, bytes }) => ({ uri: skillFileUri(folder.loadout, folder.version, folder.skill, file.rel), digest: sha256(bytes) })),
    };
  };

  const folderOf = async (address: SkillAddress): Promise<SkillFolder | undefined> =>
    address.skill === undefined ? undefined : (await folders.folders(address.loadout, address.version))?.find((f) => f.skill === address.skill);

  /** The children of the directory `address`, or undefined when it is not a directory served here. */
  const childrenOf = async (address: SkillAddress): Promise<Resource[] | undefined> => {
    const inLoadout = await folders.folders(address.loadout, address.version);
    if (inLoadout === undefined) return undefined;
    const directory = (rest: Omit<SkillAddress, 'loadout'>, name: string): Resource => ({ uri: formatSkillUri({ loadout: address.loadout, ...rest }), name, mimeType: DIRECTORY_MIME_TYPE });
    if (address.skill === undefined) {
      // Above the skills: the loadout (its latest skills and its versions) or one version (its skills).
      if (inLoadout.length === 0 && address.version !== undefined) return undefined;
      const skills = inLoadout.map((f) => directory({ version: address.version, skill: f.skill, rel: '' }, f.skill));
      const versions = address.version === undefined ? (await folders.versionsWithSkills(address.loadout)).map((v) => directory({ version: v, skill: undefined, rel: '' }, v)) : [];
      return [...skills, ...versions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    }
    const folder = inLoadout.find((f) => f.skill === address.skill);
    if (folder === undefined) return undefined;
    const prefix = address.rel === '' ? '' : `${address.rel}/`;
    const files: Resource[] = [];
    const subfolders = new Set<string>();
    for (const file of folder.files) {
      if (!file.rel.startsWith(prefix)) continue;
      const [head, ...tail] = file.rel.slice(prefix.length).split('/');
      if (head === undefined) continue;
      if (tail.length === 0) files.push({ ...resourceOf(folder, file), name: head });
      else subfolders.add(head);
    }
    // A path that names no folder of the skill (a file, or nothing) is not a directory.
    if (address.rel !== '' && files.length === 0 && subfolders.size === 0) return undefined;
    const dirs = [...subfolders].map((name) => directory({ version: address.version, skill: address.skill, rel: `${prefix}${name}` }, name));
    return [...files, ...dirs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  };

  return {
    async list(cursor) {
      const { page, nextCursor } = pageOf(folders.latest, cursor, skillsPageSize, 'skills/list');
      const skills = await mapConcurrent(page, READ_CONCURRENCY, entryOf);
      return { skills, ...(nextCursor === undefined ? {} : { nextCursor }) };
    },
    async get(uri) {
      const address = parseSkillUri(uri);
      if (address === undefined) throw notServed(uri, 'is not a skill URI (expected skill://<loadout>/<skill>/SKILL.md or skill://<loadout>/<version>/<skill>/SKILL.md)');
      if (address.skill === undefined || address.rel !== 'SKILL.md') throw notServed(uri, `is not the SKILL.md of a skill (expected ${formatSkillUri({ ...address, skill: address.skill ?? '<skill>', rel: 'SKILL.md' })})`);
      const inLoadout = await folders.folders(address.loadout, address.version);
      if (inLoadout === undefined) throw notServed(uri, `names ${address.version === undefined ? `loadout "${address.loadout}"` : `version ${address.version} of loadout "${address.loadout}"`}, which this catalogue does not publish (see skills/list)`);
      const folder = await folderOf(address);
      if (folder === undefined) {
        const known = inLoadout.map((f) => f.skill);
        throw notServed(uri, `names skill "${address.skill}", which ${address.loadout}${address.version === undefined ? '' : ` ${address.version}`} does not have (expected one of: ${known.join(', ') || 'none'})`);
      }
      return { skill: await entryOf(folder) };
    },
    async readDirectory(uri, cursor) {
      const address = parseSkillUri(uri);
      const children = address === undefined ? undefined : await childrenOf(address);
      if (children === undefined) throw notServed(uri, 'is not a directory of this server (expected skill://<loadout>, skill://<loadout>/<skill> or a folder inside a skill, without a trailing slash)');
      const { page, nextCursor } = pageOf(children, cursor, directoryPageSize, 'resources/directory/read');
      return { resources: page, ...(nextCursor === undefined ? {} : { nextCursor }) };
    },
  };
}
