/**
 * Reading a published catalogue for `loadout install`: either a built tree on disk (`dist/`)
 * or a catalogue served over HTTP(S) at its base URL. Both expose the same static addresses
 * (spec "Address shapes"; `api/loadouts/<id>/versions.json`, DESIGN.md section 8).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rawUrl, versionsUrl } from '../build/addresses.js';
import type { VersionsDocument } from '../build/loadout-output.js';
import { LoadoutError } from '../catalogue/errors.js';

/** A catalogue to install from. */
export interface CatalogueReader {
  /** Where it is, for messages: a folder or a base URL. */
  readonly location: string;
  /** @throws LoadoutError `not_found` when the catalogue has no such loadout, `io` when it cannot be read. */
  readVersions(id: string): Promise<VersionsDocument>;
  /** @throws LoadoutError `not_found` or `io`. */
  readRaw(id: string, version: string, path: string): Promise<Uint8Array>;
}

/** Opens `from`: an `http(s)://` base URL, or else a folder holding a built tree. */
export function openCatalogue(from: string): CatalogueReader {
  return /^https?:\/\//u.test(from) ? httpCatalogue(from.replace(/\/+$/u, '')) : folderCatalogue(from);
}

function folderCatalogue(dir: string): CatalogueReader {
  const read = async (path: string, what: string): Promise<Buffer> =>
    readFile(join(dir, path)).catch((cause: NodeJS.ErrnoException) => {
      throw cause.code === 'ENOENT'
        ? new LoadoutError('not_found', `${what} is not in the catalogue at ${dir}`, { cause, hint: 'Check the id, or build the catalogue first (`loadout build`), or pass --from URL.' })
        : new LoadoutError('io', `cannot read ${join(dir, path)}: ${cause.message}`, { cause });
    });
  return {
    location: dir,
    async readVersions(id) {
      return parseVersions(id, (await read(`api/loadouts/${id}/versions.json`, `loadout ${id}`)).toString('utf8'), join(dir, 'api/loadouts', id, 'versions.json'));
    },
    async readRaw(id, version, path) {
      return read(`raw/${id}/${version}/${path}`, `${id} ${version} ${path}`);
    },
  };
}

function httpCatalogue(base: string): CatalogueReader {
  const get = async (url: string, what: string): Promise<Response> => {
    let response: Response;
    try {
      response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(30_000) });
    } catch (cause) {
      throw new LoadoutError('io', `cannot reach ${url}: ${(cause as Error).message}`, { cause, hint: 'Check --from and your network.' });
    }
    if (response.status === 404) throw new LoadoutError('not_found', `${what} is not in the catalogue at ${base} (${url} answered 404)`, { hint: 'Check the id and the version.' });
    if (!response.ok) throw new LoadoutError('io', `${url} answered HTTP ${response.status} (expected 200)`);
    return response;
  };
  return {
    location: base,
    async readVersions(id) {
      const url = versionsUrl(base, id);
      return parseVersions(id, await (await get(url, `loadout ${id}`)).text(), url);
    },
    async readRaw(id, version, path) {
      return new Uint8Array(await (await get(rawUrl(base, id, version, path), `${id} ${version} ${path}`)).arrayBuffer());
    },
  };
}

function parseVersions(id: string, text: string, where: string): VersionsDocument {
  try {
    const doc = JSON.parse(text) as VersionsDocument;
    if (doc.id !== id || !Array.isArray(doc.versions)) throw new Error('not a versions document');
    return doc;
  } catch (cause) {
    throw new LoadoutError('invalid_content', `${where} is not a versions document of ${id} (${(cause as Error).message})`, { cause });
  }
}
