/**
 * Skills as MCP resources (DESIGN.md section 8): every skill of every loadout is readable as
 * `skill://<loadout>/<skill>/SKILL.md`, and its references as `skill://<loadout>/<skill>/<path>`
 * (the path inside the skill folder), from the latest version. `resources/list` pages through
 * them; an unknown URI is the MCP "resource not found" error (-32002).
 */
import { McpError, type ListResourcesResult, type ReadResourceResult, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { SkillEntry } from '../search/index-file.js';
import type { CatalogueReader } from './catalogue.js';
import { invalidParams, showValue } from './params.js';

/** MCP error code for an unknown resource (MCP specification, "Resources", error handling). */
export const RESOURCE_NOT_FOUND = -32002;

/** Resources per `resources/list` page. */
export const RESOURCES_PAGE_SIZE = 500;

/** `skill://<loadout>/<skill>/<rel>` */
export const skillUri = (loadout: string, skill: string, rel: string): string => `skill://${loadout}/${skill}/${rel.split('/').map(encodeURIComponent).join('/')}`;

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
];

/** An index of the skill files, built once at start. */
export interface SkillResources {
  /**
   * One page of `resources/list`: from the start, or from `cursor`, which must be a
   * `nextCursor` this index gave out.
   * @throws McpError -32602 for any other cursor (MCP specification, "Pagination")
   */
  list(cursor: string | undefined): ListResourcesResult;
  read(uri: string): Promise<ReadResourceResult>;
}

const mimeOf = (path: string): string => (/\.(md|mdc|markdown)$/iu.test(path) ? 'text/markdown' : path.endsWith('.json') ? 'application/json' : 'text/plain');

/** Builds the resource index of `catalogue.skills`, `pageSize` resources to a `resources/list` page. */
export function createSkillResources(catalogue: CatalogueReader, pageSize = RESOURCES_PAGE_SIZE): SkillResources {
  const entries = catalogue.skills.flatMap((skill: SkillEntry) =>
    [...skill.files]
      .sort((a, b) => (a.rel === 'SKILL.md' ? -1 : b.rel === 'SKILL.md' ? 1 : a.rel < b.rel ? -1 : 1))
      .map((f) => ({
        uri: skillUri(skill.loadout, skill.skill, f.rel),
        name: `${skill.loadout}/${skill.skill}/${f.rel}`,
        title: f.rel === 'SKILL.md' ? `Skill ${skill.skill} (${skill.loadout})` : `${f.rel} of skill ${skill.skill} (${skill.loadout})`,
        description: f.description,
        mimeType: mimeOf(f.rel),
        size: f.bytes,
        loadout: skill.loadout,
        path: f.path,
      })),
  );
  const byUri = new Map(entries.map((e) => [e.uri, e]));

  return {
    list(cursor) {
      const start = cursor === undefined ? 0 : offsetOf(cursor, pageSize, entries.length);
      const page = entries.slice(start, start + pageSize).map(({ loadout: _l, path: _p, ...resource }) => resource);
      const next = start + pageSize;
      return { resources: page, ...(next < entries.length ? { nextCursor: encodeCursor(next) } : {}) };
    },
    async read(uri) {
      const entry = byUri.get(normaliseUri(uri));
      if (entry === undefined) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (expected skill://<loadout>/<skill>/SKILL.md or a file of that skill; see resources/list)`, { uri });
      const text = await catalogue.rawFile(entry.loadout, 'latest', entry.path);
      if (text === undefined) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (listed, but its file is missing from the catalogue)`, { uri });
      return { contents: [{ uri: entry.uri, mimeType: entry.mimeType, text }] };
    },
  };
}

/** Re-encodes each path segment so that `skill://a/b/x%20y.md` and `skill://a/b/x y.md` are one resource. */
function normaliseUri(uri: string): string {
  const match = /^skill:\/\/([^/]+)\/([^/]+)\/(.+)$/u.exec(uri);
  if (match === null) return uri;
  try {
    const rel = (match[3] ?? '').split('/').map((s) => decodeURIComponent(s)).join('/');
    return skillUri(match[1] ?? '', match[2] ?? '', rel);
  } catch {
    return uri;
  }
}

/** A cursor: the offset of the next page in decimal, base64url without padding. */
const encodeCursor = (offset: number): string => Buffer.from(String(offset)).toString('base64url');

/**
 * The offset a cursor stands for, when it is one this index gives out: the canonical
 * encoding of a positive multiple of `pageSize` below `total`. Anything else (not base64url,
 * padding, another spelling of a number, zero, negative, out of range, off the page grid)
 * is refused instead of read as some page, so a client never gets the first page again
 * for a cursor it mangled.
 * @throws McpError -32602 naming `params.cursor`
 */
function offsetOf(cursor: string, pageSize: number, total: number): number {
  const text = Buffer.from(cursor, 'base64url').toString('latin1');
  const offset = /^[1-9]\d{0,15}$/u.test(text) ? Number(text) : Number.NaN;
  if (encodeCursor(offset) === cursor && offset % pageSize === 0 && offset < total) return offset;
  throw invalidParams(`Invalid params for resources/list: params.cursor is ${showValue(cursor)} (expected the nextCursor of the previous resources/list page, or no cursor)`);
}
