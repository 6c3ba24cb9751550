/**
 * The headers an address of the built tree is served with, decided from its path alone
 * (DESIGN.md section 5 "Static addresses"; README "The HTTP API"): the content type, and the
 * cache class. One table for every place that serves the tree: `loadout publish` sets these
 * on each object, and `loadout serve` sends the same.
 *
 * Paths are the tree's relative paths with forward slashes (`raw/<id>/<version>/AGENTS.md`,
 * `api/loadouts/<id>.json`, `loadouts/<id>/index.html`), never URLs: no leading `/`, no
 * percent-encoding.
 */

/**
 * What an address is, which decides its cache policy and, for `loadout publish`, when it is
 * uploaded (content before the documents that point at it):
 * - `pinned-raw`: `raw/<id>/<version>/<path>` with a version other than `latest`; its bytes
 *   never change, so it is `immutable` and never deleted.
 * - `raw`: `raw/<id>/latest/<path>` (and anything else under `raw/`).
 * - `download`: `download/<id>/<agent>.zip`, `download/<id>/source.zip`.
 * - `asset`: `assets/…` (scripts and styles of the pages).
 * - `record`: `api/loadouts/<id>.json` and `api/loadouts/<id>/…` (`versions.json`).
 * - `page`: `loadouts/<id>/…` (a loadout's page).
 * - `catalogue`: everything else: `api/loadouts.json`, `api/tags.json`, `api/agents.json`,
 *   `api/v1/…`, `api/search-index.json`, `api/schema.json`, `index.html`, `docs/…`.
 */
export type AddressClass = 'pinned-raw' | 'raw' | 'download' | 'asset' | 'record' | 'page' | 'catalogue';

/** `Cache-Control` of pinned raw files: a year, and never revalidated (RFC 8246 `immutable`). */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * `Cache-Control` of every other address: caches keep it a minute, then must ask again
 * (RFC 9111 section 5.2.2.2), so a publish is visible everywhere within about a minute.
 */
export const CACHE_REVALIDATE = 'public, max-age=60, must-revalidate';

/** Raw files are plain text whatever their extension: submitted content never runs in a browser. */
export const RAW_CONTENT_TYPE = 'text/plain; charset=utf-8';

/** Content types by lower-case extension, as `loadout serve` sends them. */
const TYPES: Readonly<Record<string, string>> = {
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.zip': 'application/zip',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};
const FALLBACK_TYPE = 'application/octet-stream';

/** The class of the tree path `path` (see {@link AddressClass}). Pure. */
export function addressClassOf(path: string): AddressClass {
  const segments = path.split('/');
  const [second] = segments.slice(1);
  // Lower case: on a file system that ignores case, `RAW/…` is the raw folder.
  const top = segments[0]?.toLowerCase();
  if (top === 'raw') return segments.length >= 4 && segments[2] !== 'latest' ? 'pinned-raw' : 'raw';
  if (top === 'download') return 'download';
  if (top === 'assets') return 'asset';
  if (top === 'loadouts' && segments.length >= 3) return 'page';
  if (top === 'api' && second === 'loadouts' && segments.length >= 3) return 'record';
  return 'catalogue';
}

/**
 * The `Content-Type` of the tree path `path`: `text/plain; charset=utf-8` under `raw/`,
 * otherwise by extension (`.json`, `.html`, `.zip`, `.css`, `.js`, `.txt`, `.svg`, `.png`),
 * and `application/octet-stream` for anything else. A path ending in `/` (a folder address)
 * is its `index.html`. Pure.
 */
export function contentTypeFor(path: string): string {
  const cls = addressClassOf(path);
  if (cls === 'raw' || cls === 'pinned-raw') return RAW_CONTENT_TYPE;
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (last === '') return TYPES['.html'] as string;
  const dot = last.lastIndexOf('.');
  return dot <= 0 ? FALLBACK_TYPE : (TYPES[last.slice(dot).toLowerCase()] ?? FALLBACK_TYPE);
}

/** The `Cache-Control` of the tree path `path`: {@link CACHE_IMMUTABLE} for pinned raw files, {@link CACHE_REVALIDATE} otherwise. Pure. */
export function cacheControlFor(path: string): string {
  return addressClassOf(path) === 'pinned-raw' ? CACHE_IMMUTABLE : CACHE_REVALIDATE;
}
