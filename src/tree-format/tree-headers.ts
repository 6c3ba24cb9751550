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
import { INSTALLED_FOLDER } from './addresses.js';

/**
 * What an address is, which decides its cache policy and, for `loadout publish`, when it is
 * uploaded (content before the documents that point at it):
 * - `pinned-raw`: `raw/<id>/<version>/<path>` with a version other than `latest`; its bytes
 *   never change, so it is `immutable` and never deleted.
 * - `raw`: `raw/<id>/latest/<path>`, the files as installed `raw/<id>/installed/<version>/<agent>/<target>`
 *   (remade by each build's layout code, so not immutable; issue 57 point 11), anything else under `raw/`, and a loadout's plugin
 *   folder `plugins/<id>/…` (its files are loadout content, served as plain text; its dot
 *   files, the vendors' manifests, are not published: the folder marketplace is read from a
 *   git branch or a tree on disk, the URL marketplace from the plugin zips in `download/`).
 * - `download`: `download/<id>/<agent>.zip`, `download/<id>/source.zip`, `download/<id>/plugin-<version>.zip`.
 * - `asset`: `assets/…` (scripts and styles of the pages).
 * - `record`: `api/loadouts/<id>.json` and `api/loadouts/<id>/…` (`versions.json`).
 * - `well-known`: what Agent Skills discovery serves besides its indexes, below
 *   `.well-known/agent-skills/` and `.well-known/skills/` at the root and in
 *   `loadouts/<id>/` (build/skill-discovery.ts): skill archives, `SKILL.md` files and the
 *   legacy index's skill files. Loadout content, so it is served like raw files: plain text
 *   (archives as zips), never as HTML, SVG or script.
 * - `page`: `loadouts/<id>/…` (a loadout's page, and its discovery indexes
 *   `loadouts/<id>/.well-known/{agent-skills,skills}/index.json`, which point at its
 *   `well-known` content).
 * - `catalogue`: everything else: `api/loadouts.json`, `api/tags.json`, `api/agents.json`,
 *   `api/v1/…`, `api/search-index.json`, `api/schema.json`, `index.html`, `docs/…`,
 *   `plugins/claude-marketplace.json`, and the
 *   catalogue-wide discovery indexes `.well-known/{agent-skills,skills}/index.json`.
 */
export type AddressClass = 'pinned-raw' | 'raw' | 'download' | 'asset' | 'well-known' | 'record' | 'page' | 'catalogue';

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
  // The consumer CLI's npm package, cli/loadout-<version>.tgz (RFC 6713).
  '.tgz': 'application/gzip',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  // sitemap.xml (sitemaps.org) and the Atom feed, feed.atom (RFC 4287 section 7).
  '.xml': 'application/xml; charset=utf-8',
  '.atom': 'application/atom+xml; charset=utf-8',
};
const FALLBACK_TYPE = 'application/octet-stream';

/** The one dot folder the tree publishes (RFC 8615 well-known URIs). */
export const WELL_KNOWN = '.well-known';

/**
 * Where in `segments` (a tree path split at `/`) the published `.well-known` folder is: at
 * the root (`.well-known/…`) or in a loadout's folder (`loadouts/<id>/.well-known/…`, where
 * Agent Skills clients look first for a path-relative index); -1 when nowhere. Exact
 * spelling only. Pure.
 */
export function wellKnownIndexOf(segments: readonly string[]): number {
  if (segments[0] === WELL_KNOWN) return 0;
  if (segments[0] === 'loadouts' && segments[2] === WELL_KNOWN && segments[1] !== undefined && !segments[1].startsWith('.')) return 2;
  return -1;
}

/**
 * True when the tree path `path` is part of the published tree: no segment starts with `.`,
 * except the `.well-known` folder where {@link wellKnownIndexOf} finds it, and the install
 * targets of files as installed, `raw/<id>/installed/<version>/<agent>/<target>` (issue 57
 * point 11), whose folders are the agents' own dot folders. Other dot files
 * (the build cache `.loadout-build.jsonl`, the `.complete` marker, anything a build left) are
 * never served nor published. `loadout serve` and `loadout publish` both decide with this.
 * Pure.
 */
export function isPublishedPath(path: string): boolean {
  const segments = path.split('/');
  const allowed = wellKnownIndexOf(segments);
  const installed = installedTargetIndexOf(segments);
  return segments.every((segment, i) => !segment.startsWith('.') || i === allowed || (installed >= 0 && i >= installed && segment !== '.' && segment !== '..'));
}

/**
 * Where in `segments` the install target of a file as installed begins
 * (`raw/<id>/installed/<version>/<agent>/<target>`, addresses.ts `installedTreePath`), or -1:
 * a target's dot folders (`.claude/skills/…`, `.github/mcp.json`) are published there, and only
 * there. The segments before it must not start with a dot. Pure.
 */
function installedTargetIndexOf(segments: readonly string[]): number {
  if (segments.length < 6 || segments[0] !== 'raw' || segments[2] !== INSTALLED_FOLDER) return -1;
  return segments.slice(0, 5).some((s) => s.startsWith('.')) ? -1 : 5;
}

/** True when `segments` after the `.well-known` folder name a discovery index (`agent-skills/index.json`, `skills/index.json`). */
const isDiscoveryIndex = (rest: readonly string[]): boolean => rest.length === 2 && (rest[0] === 'agent-skills' || rest[0] === 'skills') && rest[1] === 'index.json';

/** The class of the tree path `path` (see {@link AddressClass}). Pure. */
export function addressClassOf(path: string): AddressClass {
  const segments = path.split('/');
  const [second] = segments.slice(1);
  const wellKnown = wellKnownIndexOf(segments);
  if (wellKnown >= 0 && !isDiscoveryIndex(segments.slice(wellKnown + 1))) return 'well-known';
  // Lower case: on a file system that ignores case, `RAW/…` is the raw folder.
  const top = segments[0]?.toLowerCase();
  // Files as installed (`raw/<id>/installed/…`, addresses.ts) are made by the layout code from a
  // version's files: a build with newer code may change them, so they are never immutable.
  if (top === 'raw') return segments.length >= 4 && segments[2] !== 'latest' && segments[2] !== INSTALLED_FOLDER ? 'pinned-raw' : 'raw';
  if (top === 'plugins' && segments.length >= 3) return 'raw';
  if (top === 'download') return 'download';
  if (top === 'assets') return 'asset';
  if (top === 'loadouts' && segments.length >= 3) return 'page';
  if (top === 'api' && second === 'loadouts' && segments.length >= 3) return 'record';
  return 'catalogue';
}

/**
 * The `Content-Type` of the tree path `path`: `text/plain; charset=utf-8` under `raw/` and
 * for `well-known` content, except a skill archive (`.well-known/agent-skills/<name>.zip`,
 * `application/zip`); otherwise by extension (`.json`, `.html`, `.zip`, `.css`, `.js`,
 * `.txt`, `.svg`, `.png`, `.tgz`), and `application/octet-stream` for anything else. A path ending
 * in `/` (a folder address) is its `index.html`. Pure.
 */
export function contentTypeFor(path: string): string {
  const cls = addressClassOf(path);
  if (cls === 'raw' || cls === 'pinned-raw') return RAW_CONTENT_TYPE;
  if (cls === 'well-known') return isSkillArchive(path) ? (TYPES['.zip'] as string) : RAW_CONTENT_TYPE;
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (last === '') return TYPES['.html'] as string;
  const dot = last.lastIndexOf('.');
  return dot <= 0 ? FALLBACK_TYPE : (TYPES[last.slice(dot).toLowerCase()] ?? FALLBACK_TYPE);
}

/** True for `…/.well-known/agent-skills/<name>.zip`, a skill archive the build writes (build/skill-discovery.ts). */
function isSkillArchive(path: string): boolean {
  const segments = path.split('/');
  const rest = segments.slice(wellKnownIndexOf(segments) + 1);
  return rest.length === 2 && rest[0] === 'agent-skills' && /^[a-z0-9-]+\.zip$/u.test(rest[1] ?? '');
}

/** The `Cache-Control` of the tree path `path`: {@link CACHE_IMMUTABLE} for pinned raw files, {@link CACHE_REVALIDATE} otherwise. Pure. */
export function cacheControlFor(path: string): string {
  return addressClassOf(path) === 'pinned-raw' ? CACHE_IMMUTABLE : CACHE_REVALIDATE;
}
