/**
 * Reading a published catalogue for `loadout install`: either a built tree on disk (`dist/`)
 * or a catalogue served over HTTP(S) at its base URL. Both expose the same static addresses
 * (spec "Address shapes"; `api/loadouts/<id>/versions.json`, DESIGN.md section 8).
 *
 * The catalogue is not trusted (hardening issue 9, defect 13): every id, version and file
 * path is checked before it becomes part of a path or URL, and every read stays inside the
 * catalogue: a file of a built tree must resolve inside its folder after symbolic links,
 * and every URL fetched, redirects included, must lie below the catalogue's base URL.
 */
import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { rawUrl, versionsUrl } from '../../tree-format/addresses.js';
import { linkRegionsOf, placeIn } from '../../tree/write/tree-region.js';
import type { VersionsDocument } from '../../tree/render/loadout-output.js';
import { LoadoutError } from '../../catalogue/errors.js';
import { describePathProblem } from '../../catalogue/file-path.js';
import { SLUG_PATTERN, VERSION_PATTERN } from '../../catalogue/vocabulary.js';
import { parseVersionsDocument } from './versions-document.js';

/** A catalogue to install from. */
export interface CatalogueReader {
  /** Where it is, for messages: a folder or a base URL. */
  readonly location: string;
  /**
   * The checked versions document of loadout `id` (see `versions-document.ts`).
   * @throws LoadoutError `not_found` when the catalogue has no such loadout, `invalid_content` when the document or an address is not acceptable, `io` when it cannot be read.
   */
  readVersions(id: string): Promise<VersionsDocument>;
  /** @throws LoadoutError `not_found`, `invalid_content` (a bad id, version or path, or a read that would leave the catalogue) or `io`. */
  readRaw(id: string, version: string, path: string): Promise<Uint8Array>;
}

/** At most this many redirects are followed for one address. */
const MAX_REDIRECTS = 5;

/** Opens `from`: an `http(s)://` base URL, or else a folder holding a built tree. */
export function openCatalogue(from: string): CatalogueReader {
  return /^https?:\/\//u.test(from) ? httpCatalogue(from.replace(/(?<!\/)\/+$/u, '')) : folderCatalogue(from);
}

/**
 * Refuses an id, version or file path that is not of its form, before it reaches an address.
 * @throws LoadoutError `invalid_content`
 */
function checkAddressParts(id: string, version: string | undefined, path: string | undefined): void {
  let problem: string | undefined;
  if (!SLUG_PATTERN.test(id)) problem = `loadout id ${JSON.stringify(id)} is not a lowercase slug`;
  else if (version !== undefined && version !== 'latest' && !VERSION_PATTERN.test(version)) problem = `version ${JSON.stringify(version)} is not MAJOR.MINOR.PATCH`;
  else if (path !== undefined) {
    const pathProblem = describePathProblem(path);
    if (pathProblem !== undefined) problem = `file path ${JSON.stringify(path)} ${pathProblem}`;
  }
  if (problem !== undefined) throw new LoadoutError('invalid_content', `${problem} (expected an address inside the catalogue)`);
}

function folderCatalogue(dir: string): CatalogueReader {
  // The catalogue's real path, and where its links may lead (itself, and a built tree's store).
  let root: Promise<{ real: string; regions: string[] }> | undefined;
  const read = async (path: string, what: string): Promise<Buffer> => {
    const notFound = (cause: unknown): LoadoutError => new LoadoutError('not_found', `${what} is not in the catalogue at ${dir}`, { cause, hint: 'Check the id, or build the catalogue first (`loadout build`), or pass --from URL.' });
    const failed = (cause: NodeJS.ErrnoException, file: string): LoadoutError => (cause.code === 'ENOENT' || cause.code === 'ENOTDIR' ? notFound(cause) : new LoadoutError('io', `cannot read ${file}: ${cause.message}`, { cause }));
    root ??= realpath(dir).then((real) => ({ real, regions: linkRegionsOf(real) }));
    const { real: realRoot, regions } = await root.catch((cause: NodeJS.ErrnoException) => {
      throw failed(cause, dir);
    });
    const file = join(realRoot, ...path.split('/'));
    const real = await realpath(file).catch((cause: NodeJS.ErrnoException) => {
      throw failed(cause, file);
    });
    if (placeIn(regions, real) === undefined) {
      throw new LoadoutError('invalid_content', `${what}: ${path} resolves to ${real}, outside the catalogue at ${dir} (expected a file inside it; a symbolic link points out)`, { hint: 'The catalogue is broken or was tampered with; nothing was installed.' });
    }
    return readFile(real).catch((cause: NodeJS.ErrnoException) => {
      throw failed(cause, real);
    });
  };
  return {
    location: dir,
    async readVersions(id) {
      checkAddressParts(id, undefined, undefined);
      return parseVersionsDocument(id, (await read(`api/loadouts/${id}/versions.json`, `loadout ${id}`)).toString('utf8'), join(dir, 'api/loadouts', id, 'versions.json'));
    },
    async readRaw(id, version, path) {
      checkAddressParts(id, version, path);
      return read(`raw/${id}/${version}/${path}`, `${id} ${version} ${path}`);
    },
  };
}

function httpCatalogue(base: string): CatalogueReader {
  const below = new URL(`${base}/`);
  const isInside = (url: URL): boolean => url.origin === below.origin && url.pathname.startsWith(below.pathname);
  const outside = (what: string, url: URL, how: string): LoadoutError =>
    new LoadoutError('invalid_content', `${what}: ${how} ${url.href}, outside the catalogue at ${base} (expected addresses below ${below.href})`, { hint: 'The catalogue is broken or was tampered with; nothing was installed.' });

  const get = async (address: string, what: string): Promise<Response> => {
    let url = new URL(address);
    if (!isInside(url)) throw outside(what, url, 'the address is');
    for (let redirects = 0; ; redirects++) {
      let response: Response;
      try {
        // Redirects are followed here, one by one, so that none leads out of the catalogue.
        response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(30_000) });
      } catch (cause) {
        throw new LoadoutError('io', `cannot reach ${url.href}: ${(cause as Error).message}`, { cause, hint: 'Check --from and your network.' });
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        await response.body?.cancel();
        const next = new URL(location, url);
        if (!isInside(next)) throw outside(what, next, `${url.href} redirects to`);
        if (redirects >= MAX_REDIRECTS) throw new LoadoutError('io', `${address} redirects more than ${MAX_REDIRECTS} times (expected a file)`);
        url = next;
        continue;
      }
      if (response.status === 404) throw new LoadoutError('not_found', `${what} is not in the catalogue at ${base} (${url.href} answered 404)`, { hint: 'Check the id and the version.' });
      if (!response.ok) throw new LoadoutError('io', `${url.href} answered HTTP ${response.status} (expected 200)`);
      return response;
    }
  };
  return {
    location: base,
    async readVersions(id) {
      checkAddressParts(id, undefined, undefined);
      const url = versionsUrl(base, id);
      return parseVersionsDocument(id, await (await get(url, `loadout ${id}`)).text(), url);
    },
    async readRaw(id, version, path) {
      checkAddressParts(id, version, path);
      return new Uint8Array(await (await get(rawUrl(base, id, version, path), `${id} ${version} ${path}`)).arrayBuffer());
    },
  };
}
