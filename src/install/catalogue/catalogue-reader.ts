/**
 * The consumer's one tree reader: reading a published catalogue for `install`, `update` and
 * `outdated`, either a built tree on disk (`dist/`) or a catalogue served over HTTP(S) at its
 * base URL. Both expose the same static addresses (spec "Address shapes";
 * `api/loadouts/<id>/versions.json`, DESIGN.md section 8).
 *
 * The catalogue is not trusted:
 * - every id, version and file path is checked before it becomes part of a path or URL, and
 *   every read stays inside the catalogue: a file of a built tree must resolve inside its
 *   folder after symbolic links, and every URL fetched, redirects included, must lie below
 *   the catalogue's base URL;
 * - every read is capped: a raw file at the `bytes` its versions document declares, a
 *   document at {@link DOCUMENT_MAX_BYTES}; a body is streamed and dropped at the cap, so a
 *   catalogue that sends an endless body cannot exhaust memory;
 * - the versions document passes one seam, {@link trustVersions}, before any hash in it is
 *   used: the catalogue's signed snapshot is verified once (`signed-catalogue.ts`), the
 *   document's sha256 and size must be those the snapshot lists, then the checked parser of
 *   the tree format reads it.
 */
import { join } from 'node:path';
import { parseVersionsDocument, placeIn, linkRegionsOf, rawUrl, versionsUrl, type VersionsDocument } from '../../tree-format/index.js';
import { LoadoutError } from '../../catalogue/errors.js';
import { describePathProblem } from '../../catalogue/file-path.js';
import { SLUG_PATTERN, VERSION_PATTERN } from '../../catalogue/vocabulary.js';
import { ConsumerError } from '../errors.js';
import { checkCatalogueFolder, readFileCapped, realPathOf } from './catalogue-folder.js';
import { suggestIds } from '../../catalogue/suggest.js';
import { httpGet } from './http-get.js';
import { checkCatalogueSigning, checkVersionsDigest, type CatalogueTrust, type DocumentReader, type SigningPolicy, type SigningState } from './signed-catalogue.js';

/** A catalogue to install from. */
export interface CatalogueReader {
  /** Where it is, for messages: a folder or a base URL. */
  readonly location: string;
  /**
   * The checked versions document of loadout `id` (see `tree-format/versions-document.ts`).
   * @throws ConsumerError `UnknownLoadout` (with the catalogue's nearest ids in its hint),
   *   `InvalidCatalogue`, `ResponseTooLarge`, `CatalogueUnreachable`; LoadoutError `io`.
   */
  readVersions(id: string): Promise<VersionsDocument>;
  /**
   * The bytes of one raw file, at most `maxBytes` of them (the file entry's `bytes`).
   * @throws ConsumerError `UnknownLoadout`, `InvalidCatalogue` (a bad id, version or path, or
   *   a read that would leave the catalogue), `ResponseTooLarge`, `CatalogueUnreachable`;
   *   LoadoutError `not_found`, `io`.
   */
  readRaw(id: string, version: string, path: string, maxBytes?: number): Promise<Uint8Array>;
  /**
   * The catalogue's signing, checked once (`signed-catalogue.ts`), before any versions
   * document is used. @throws the refusals of `checkCatalogueSigning`
   */
  signing(): Promise<SigningState>;
  /**
   * The bytes of the catalogue document at tree path `path` (a normalised relative path), at
   * most `maxBytes`; not checked against the snapshot (see `cli-package.ts` for a check).
   * @throws ConsumerError `InvalidCatalogue` (a bad path, or a read that would leave the
   *   catalogue), `ResponseTooLarge`, `CatalogueUnreachable`; LoadoutError `not_found`, `io`.
   */
  readDocument(path: string, maxBytes: number): Promise<Uint8Array>;
}

/**
 * Checks the bytes of a versions document before any of its hashes is trusted; throws to
 * refuse it. The seam for signing: a verifier of the catalogue's signed snapshot (the
 * document's sha256 listed and signed) plugs in here.
 */
export type VersionsVerifier = (id: string, bytes: Uint8Array, where: string) => Promise<void>;

/** Options of {@link openCatalogue}. */
export interface OpenCatalogueOptions extends SigningPolicy {
  /** What the lock keeps for this catalogue (its `trust` entry), if anything. */
  pinned?: CatalogueTrust;
  /** Called on every versions document before it is parsed (see {@link VersionsVerifier}). */
  verifyVersions?: VersionsVerifier;
}

/** At most this many redirects are followed for one address. */
const MAX_REDIRECTS = 5;
/** The cap of a document of the catalogue (versions document, loadout list): a few MB, far above any real one. */
export const DOCUMENT_MAX_BYTES = 8 * 1024 * 1024;
/** The cap of a raw file whose entry declares no size (catalogues made by hand); the size check allows 32 KB. */
const RAW_FALLBACK_MAX_BYTES = 8 * 1024 * 1024;

/** `host:port` or `[v6]:port` with no scheme, which a user meant as a URL. */
const HOST_PORT = /^(?:\[[\da-f:.]+\]|[\w.-]+):\d{1,5}(?:\/|$)/iu;
const SCHEME = /^([a-z][a-z\d+.-]*):\/\//iu;

/**
 * What `--from` names, by one rule for every command and for the lock: the base URL of a
 * catalogue served over HTTP(S) (its scheme in lower case, without trailing slashes), or
 * undefined for a built tree's folder. A scheme is case-insensitive (RFC 3986 section 3.1):
 * `HTTP://host` is `http://host`, never a folder of that name.
 * @throws ConsumerError `BadSource` for a `host:port` without a scheme or a scheme other than http(s)
 */
export function catalogueBaseUrl(from: string): string | undefined {
  const scheme = SCHEME.exec(from)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') return `${scheme}${from.slice(scheme.length)}`.replace(/(?<!\/)\/+$/u, '');
  if (scheme !== undefined) throw new ConsumerError('BadSource', `--from is ${JSON.stringify(from)}: a ${scheme}: address (expected an http:// or https:// base URL, or a built tree's folder)`);
  if (HOST_PORT.test(from)) throw new ConsumerError('BadSource', `--from is ${JSON.stringify(from)}: a host and port without a scheme (expected a base URL such as http://${from.replace(/(?<!\/)\/+$/u, '')}, or a built tree's folder)`);
  return undefined;
}

/**
 * Opens `from`: an `http(s)://` base URL, or else a folder holding a built tree.
 * @throws ConsumerError `BadSource` (see {@link catalogueBaseUrl})
 */
export function openCatalogue(from: string, options: OpenCatalogueOptions = {}): CatalogueReader {
  const base = catalogueBaseUrl(from);
  return base === undefined ? folderCatalogue(from, options) : httpCatalogue(base, options);
}

/**
 * The one seam every versions document passes: the verifier (signing), then the tree format's
 * checked parser. Nothing in the document is used before this returns.
 */
async function trustVersions(id: string, bytes: Uint8Array, where: string, options: OpenCatalogueOptions, signing: () => Promise<SigningState>): Promise<VersionsDocument> {
  checkVersionsDigest((await signing()).snapshot, id, bytes, where);
  if (options.verifyVersions !== undefined) await options.verifyVersions(id, bytes, where);
  try {
    return parseVersionsDocument(id, Buffer.from(bytes).toString('utf8'), where);
  } catch (error) {
    if (error instanceof LoadoutError && !(error instanceof ConsumerError)) throw new ConsumerError('InvalidCatalogue', error.message, { cause: error });
    throw error;
  }
}

/** The signing check of a catalogue, run once on first use. */
function signingOnce(read: DocumentReader, location: string, options: OpenCatalogueOptions): () => Promise<SigningState> {
  let state: Promise<SigningState> | undefined;
  return () => (state ??= checkCatalogueSigning(read, location, options.pinned, options));
}

/** `read` answering undefined for a document the catalogue does not have. */
const orMissing =
  (read: (path: string) => Promise<Uint8Array>): DocumentReader =>
  (path) =>
    read(path).catch((error: unknown) => {
      if (error instanceof LoadoutError && error.code === 'not_found') return undefined;
      throw error;
    });

/**
 * Refuses an id, version or file path that is not of its form, before it reaches an address.
 * @throws ConsumerError `InvalidCatalogue`
 */
function checkAddressParts(id: string, version: string | undefined, path: string | undefined): void {
  let problem: string | undefined;
  if (!SLUG_PATTERN.test(id)) problem = `loadout id ${JSON.stringify(id)} is not a lowercase slug`;
  else if (version !== undefined && version !== 'latest' && !VERSION_PATTERN.test(version)) problem = `version ${JSON.stringify(version)} is not MAJOR.MINOR.PATCH`;
  else if (path !== undefined) {
    const pathProblem = describePathProblem(path);
    if (pathProblem !== undefined) problem = `file path ${JSON.stringify(path)} ${pathProblem}`;
  }
  if (problem !== undefined) throw new ConsumerError('InvalidCatalogue', `${problem} (expected an address inside the catalogue)`);
}

/** Refuses a document path that is not a normalised relative path. @throws ConsumerError `InvalidCatalogue` */
function checkDocumentPath(path: string): void {
  const problem = describePathProblem(path);
  if (problem !== undefined) throw new ConsumerError('InvalidCatalogue', `document path ${JSON.stringify(path)} ${problem} (expected an address inside the catalogue)`);
}

/** The ids of the catalogue's list `api/loadouts.json` (`{loadouts: [{id}]}`) that are loadout ids (slugs: nothing else is suggested), or [] when it cannot be read. */
function idsOf(text: string): string[] {
  try {
    const list = JSON.parse(text) as { loadouts?: unknown };
    return Array.isArray(list.loadouts) ? list.loadouts.map((l: { id?: unknown } | null) => l?.id).filter((id): id is string => typeof id === 'string' && SLUG_PATTERN.test(id)) : [];
  } catch {
    return [];
  }
}

/** The `UnknownLoadout` error for `id`, with the catalogue's nearest ids. */
function unknownLoadout(id: string, where: string, ids: readonly string[], cause?: unknown): ConsumerError {
  const near = suggestIds(id, ids);
  const hint = near.length > 0 ? `Did you mean ${near.join(', ')}?` : undefined;
  return new ConsumerError('UnknownLoadout', `loadout ${id} is not in the catalogue at ${where}`, { ...(hint === undefined ? {} : { hint }), ...(cause === undefined ? {} : { cause }) });
}

function folderCatalogue(dir: string, options: OpenCatalogueOptions): CatalogueReader {
  // The catalogue's real path, and where its links may lead (itself, and a built tree's store).
  let root: Promise<{ real: string; regions: string[] }> | undefined;
  const read = async (path: string, what: string, cap: number, raw = false): Promise<Buffer> => {
    const notFound = (cause: unknown): LoadoutError => new LoadoutError('not_found', `${what} is not in the catalogue at ${dir}`, { cause, hint: 'Check the id, or build the catalogue first (`loadout build`), or pass --from URL.' });
    const failed = (cause: NodeJS.ErrnoException, file: string): LoadoutError => (cause.code === 'ENOENT' || cause.code === 'ENOTDIR' ? notFound(cause) : new LoadoutError('io', `cannot read ${file}: ${cause.message}`, { cause }));
    root ??= realPathOf(dir).then((real) => ({ real, regions: linkRegionsOf(real) }));
    const { real: realRoot, regions } = await root.catch((cause: NodeJS.ErrnoException) => {
      throw failed(cause, dir);
    });
    const file = join(realRoot, ...path.split('/'));
    const real = await realPathOf(file).catch((cause: NodeJS.ErrnoException) => {
      throw failed(cause, file);
    });
    if (placeIn(regions, real) === undefined) {
      throw new ConsumerError('InvalidCatalogue', `${what}: ${path} resolves to ${real}, outside the catalogue at ${dir} (expected a file inside it; a symbolic link points out)`);
    }
    return readFileCapped(real, cap, what, raw).catch((cause: NodeJS.ErrnoException) => {
      throw cause instanceof LoadoutError ? cause : failed(cause, real);
    });
  };
  const signing = signingOnce(
    orMissing((path) => read(path, path, DOCUMENT_MAX_BYTES)),
    dir,
    options,
  );
  return {
    location: dir,
    signing,
    async readVersions(id) {
      checkAddressParts(id, undefined, undefined);
      const where = join(dir, 'api/loadouts', id, 'versions.json');
      let bytes: Buffer;
      try {
        bytes = await read(`api/loadouts/${id}/versions.json`, `loadout ${id}`, DOCUMENT_MAX_BYTES);
      } catch (error) {
        if (!(error instanceof LoadoutError && error.code === 'not_found')) throw error;
        await checkCatalogueFolder(dir);
        const list = await read('api/loadouts.json', 'the loadout list', DOCUMENT_MAX_BYTES).then((b) => b.toString('utf8'), () => '');
        throw unknownLoadout(id, dir, idsOf(list), error);
      }
      return trustVersions(id, bytes, where, options, signing);
    },
    async readRaw(id, version, path, maxBytes) {
      checkAddressParts(id, version, path);
      return read(`raw/${id}/${version}/${path}`, `${id} ${version} ${path}`, maxBytes ?? RAW_FALLBACK_MAX_BYTES, maxBytes !== undefined);
    },
    async readDocument(path, maxBytes) {
      checkDocumentPath(path);
      return read(path, path, maxBytes);
    },
  };
}

function httpCatalogue(base: string, options: OpenCatalogueOptions): CatalogueReader {
  const below = new URL(`${base}/`);
  const isInside = (url: URL): boolean => url.origin === below.origin && url.pathname.startsWith(below.pathname);
  const outside = (what: string, url: URL, how: string): ConsumerError =>
    new ConsumerError('InvalidCatalogue', `${what}: ${how} ${url.href}, outside the catalogue at ${base} (expected addresses below ${below.href})`);

  /** GETs `address`, following redirects inside the catalogue; resolves to the 200 response's body, at most `cap` bytes. */
  const get = async (address: string, what: string, cap: number): Promise<Uint8Array> => {
    let url = new URL(address);
    if (!isInside(url)) throw outside(what, url, 'the address is');
    for (let redirects = 0; ; redirects++) {
      // Redirects are followed here, one by one, so that none leads out of the catalogue.
      const answer = await httpGet(url, { cap, timeoutMs: 30_000 });
      if (answer.status >= 300 && answer.status < 400 && answer.location !== undefined) {
        const next = new URL(answer.location, url);
        if (!isInside(next)) throw outside(what, next, `${url.href} redirects to`);
        if (redirects >= MAX_REDIRECTS) throw new ConsumerError('InvalidCatalogue', `${address} redirects more than ${MAX_REDIRECTS} times (expected a file)`);
        url = next;
        continue;
      }
      if (answer.status === 404) {
        throw new LoadoutError('not_found', `${what} is not in the catalogue at ${base} (${url.href} answered 404)`, { hint: 'Check the id and the version.' });
      }
      if (answer.status !== 200) throw new ConsumerError('CatalogueUnreachable', `${url.href} answered HTTP ${answer.status} (expected 200)`);
      return answer.body;
    }
  };
  const signing = signingOnce(
    orMissing((path) => get(`${base}/${path}`, path, DOCUMENT_MAX_BYTES)),
    base,
    options,
  );
  return {
    location: base,
    signing,
    async readVersions(id) {
      checkAddressParts(id, undefined, undefined);
      const url = versionsUrl(base, id);
      let bytes: Uint8Array;
      try {
        bytes = await get(url, `loadout ${id}`, DOCUMENT_MAX_BYTES);
      } catch (error) {
        if (!(error instanceof LoadoutError && error.code === 'not_found')) throw error;
        const list = await get(`${base}/api/loadouts.json`, 'the loadout list', DOCUMENT_MAX_BYTES).then((b) => Buffer.from(b).toString('utf8'), () => '');
        throw unknownLoadout(id, base, idsOf(list), error);
      }
      return trustVersions(id, bytes, url, options, signing);
    },
    async readRaw(id, version, path, maxBytes) {
      checkAddressParts(id, version, path);
      return get(rawUrl(base, id, version, path), `${id} ${version} ${path}`, maxBytes ?? RAW_FALLBACK_MAX_BYTES);
    },
    async readDocument(path, maxBytes) {
      checkDocumentPath(path);
      return get(`${base}/${path.split('/').map(encodeURIComponent).join('/')}`, path, maxBytes);
    },
  };
}
