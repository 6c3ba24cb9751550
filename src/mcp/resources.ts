/**
 * Skills as MCP resources (DESIGN.md section 8; SEP-2640, "Resource Mapping"): every file of
 * every skill is readable as `skill://<loadout>/<skill>/<path>` (the latest version) and as
 * `skill://<loadout>/<version>/<skill>/<path>` (a pinned version; see skill-uri.ts).
 * `resources/list` pages through the latest version's files; `resources/read` reads any of
 * them, as the skill folder installed alone holds it (skill-text.ts: links that leave the skill
 * point at the pinned raw addresses); an unknown URI is the MCP "resource not found" error (-32002, MCP specification
 * 2025-11-25, "Resources", error handling).
 */
import { type ListResourcesResult, type ReadResourceResult, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogueReader } from './catalogue.js';
import { pageOf } from './cursor.js';
import { protocolError } from './protocol-error.js';
import { type SkillFolder, type SkillFolderFile, type SkillFolders } from './skill-folders.js';
import { readServedSkillFile } from './skill-text.js';
import { formatSkillUri, parseSkillUri, skillFileUri } from './skill-uri.js';

/** MCP error code for an unknown resource (MCP specification, "Resources", error handling). */
export const RESOURCE_NOT_FOUND = -32002;

/** Resources per `resources/list` page. */
export const RESOURCES_PAGE_SIZE = 500;

/** The resource templates (`resources/templates/list`). */
export const SKILL_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'skill://{loadout}/{skill}/SKILL.md',
    name: 'skill',
    title: 'A skill of a loadout',
    description: 'The SKILL.md of a skill, from the latest version of the loadout. Follow its links to references with the same skill:// prefix.',
    mimeType: 'text/markdown',
  },
  {
    uriTemplate: 'skill://{loadout}/{skill}/{+path}',
    name: 'skill-file',
    title: 'A file of a skill',
    description: 'A reference or other file inside a skill folder, by its path inside the folder (e.g. references/file-conventions.md).',
    mimeType: 'text/markdown',
  },
  {
    uriTemplate: 'skill://{loadout}/{version}/{skill}/{+path}',
    name: 'pinned-skill-file',
    title: 'A file of a skill at a pinned version',
    description: 'A file of a skill as a published version of the loadout holds it (version MAJOR.MINOR.PATCH, e.g. skill://nextjs-app-router/1.0.0/add-route/SKILL.md). Its bytes never change.',
    mimeType: 'text/markdown',
  },
];

/** The skill resources: listing and reading. */
export interface SkillResources {
  /**
   * One page of `resources/list`: from the start, or from `cursor`, which must be a
   * `nextCursor` this index gave out.
   * @throws McpError -32602 for any other cursor (MCP specification, "Pagination")
   */
  list(cursor: string | undefined): ListResourcesResult;
  /**
   * `resources/read` of a skill file, latest or pinned.
   * @throws McpError -32002 for a URI that is not a file of a skill this server serves
   */
  read(uri: string): Promise<ReadResourceResult>;
}

/** The MIME type of a skill file by its name (SEP-2640, "Resource Metadata": SKILL.md SHOULD be text/markdown). */
export const mimeOf = (path: string): string => (/\.(md|mdc|markdown)$/iu.test(path) ? 'text/markdown' : path.endsWith('.json') ? 'application/json' : 'text/plain');

/** The resource metadata of one file of `folder` (the object `resources/list` and `resources/directory/read` give). */
export function resourceOf(folder: SkillFolder, file: SkillFolderFile): Resource {
  const where = folder.version === undefined ? folder.loadout : `${folder.loadout} ${folder.version}`;
  return {
    uri: skillFileUri(folder.loadout, folder.version, folder.skill, file.rel),
    name: `${folder.loadout}${folder.version === undefined ? '' : `@${folder.version}`}/${folder.skill}/${file.rel}`,
    title: file.rel === 'SKILL.md' ? `Skill ${folder.skill} (${where})` : `${file.rel} of skill ${folder.skill} (${where})`,
    ...(file.description === '' ? {} : { description: file.description }),
    mimeType: mimeOf(file.rel),
    size: file.bytes,
  };
}

/**
 * The file `uri` names, when it is a file of a skill this server serves: its folder and entry.
 * `uri` may be spelled with or without percent-encoding (skill-uri.ts).
 */
export async function findSkillFile(folders: SkillFolders, uri: string): Promise<{ folder: SkillFolder; file: SkillFolderFile } | undefined> {
  const address = parseSkillUri(uri);
  if (address?.skill === undefined || address.rel === '') return undefined;
  const folder = (await folders.folders(address.loadout, address.version))?.find((f) => f.skill === address.skill);
  const file = folder?.files.find((f) => f.rel === address.rel);
  return folder === undefined || file === undefined ? undefined : { folder, file };
}

/** Builds the resource index of `folders.latest`, `pageSize` resources to a `resources/list` page. */
export function createSkillResources(catalogue: CatalogueReader, folders: SkillFolders, pageSize = RESOURCES_PAGE_SIZE): SkillResources {
  const listed = folders.latest.flatMap((folder) => folder.files.map((file) => resourceOf(folder, file)));
  return {
    list(cursor) {
      const { page, nextCursor } = pageOf(listed, cursor, pageSize, 'resources/list');
      return { resources: page, ...(nextCursor === undefined ? {} : { nextCursor }) };
    },
    async read(uri) {
      const found = await findSkillFile(folders, uri);
      if (found === undefined) throw protocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (expected skill://<loadout>/<skill>/SKILL.md, skill://<loadout>/<version>/<skill>/SKILL.md or a file of that skill; see resources/list)`, { uri });
      const { folder, file } = found;
      // The skill folder as installed alone (skill-text.ts): links out of the skill go to pinned raw addresses.
      const bytes = await readServedSkillFile(catalogue, folder, file);
      const text = bytes?.toString('utf8');
      if (text === undefined) throw protocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (listed, but its file is missing from the catalogue)`, { uri });
      const canonical = formatSkillUri({ loadout: folder.loadout, version: folder.version, skill: folder.skill, rel: file.rel });
      return { contents: [{ uri: canonical, mimeType: mimeOf(file.rel), text }] };
    },
  };
}
