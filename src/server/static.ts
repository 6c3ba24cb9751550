/**
 * Serving the built tree (DESIGN.md section 5 "Static addresses"): GET and HEAD, strong
 * ETags from content hashes (the same on every instance, since builds are deterministic) with
 * 304 answers (RFC 9110 section 13.1.2), raw files as `text/plain` with `nosniff` and a
 * sandboxing CSP whatever their extension, `immutable` for pinned raw files, and no way out
 * of the tree (encoded or not).
 *
 * A file's headers follow from where the file really is in the tree (its real path, after
 * links and whatever spelling the file system accepts), not from how the request spelled it:
 * no spelling reaches a raw file without the raw headers (DESIGN.md section 5: submitted
 * content must never run in a browser).
 */
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { addressClassOf, cacheControlFor, contentTypeFor, isPublishedPath } from '../tree-format/tree-headers.js';
import { linkRegionsOf, placeIn } from '../tree-format/index.js';
import { problem } from './problem.js';

/** CSP for raw files: nothing may load or run, and the document is sandboxed. */
export const RAW_CSP = "default-src 'none'; sandbox";
const HTML_TYPE = contentTypeFor('index.html');
/**
 * CSP for the pages: scripts, styles, workers, fetches and images from this origin only
 * (`worker-src` and `connect-src` fall back to `default-src`), inline style attributes (the
 * challenge widget sets some), `data:` images, and never in a frame. Nothing is loosened for
 * the embedded challenge: its widget, stylesheet and proof-of-work worker are served from this
 * origin (src/pages/scripts/submit-challenge.ts). A hosted challenge vendor widens the docs
 * page's policy with {@link pageCspWith} (src/submissions/page-routes.ts).
 */
export const PAGE_CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

/**
 * {@link PAGE_CSP} with `origins` added to the directives a vendor's widget needs: its script,
 * its frame, its styles and its API calls (Cloudflare Turnstile and hCaptcha document these
 * under "Content Security Policy"). Pure.
 */
export function pageCspWith(origins: readonly string[]): string {
  const extra = origins.join(' ');
  return `default-src 'self'; style-src 'self' 'unsafe-inline' ${extra}; script-src 'self' ${extra}; frame-src ${extra}; connect-src 'self' ${extra}; img-src 'self' data:; frame-ancestors 'none'`;
}

/**
 * Splits and decodes a URL path (as sent, still percent-encoded) into its segments, or
 * undefined when the path is not in canonical form: it must start with `/`, have no empty
 * segment (`//`) except a final one (the trailing slash of a folder), and no segment that is
 * `.` or `..` or hides a separator, a backslash or NUL once decoded. The trailing slash
 * gives a final empty segment. Every routing decision is made on paths that pass this.
 */
export function decodePathSegments(pathname: string): string[] | undefined {
  const parts = pathname.split('/');
  if (parts[0] !== '') return undefined;
  const segments: string[] = [];
  for (let i = 1; i < parts.length; i++) {
    const raw = parts[i] ?? '';
    if (raw === '' && i < parts.length - 1) return undefined;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (segment === '.' || segment === '..' || /[/\\\u0000]/u.test(segment)) return undefined;
    segments.push(segment);
  }
  return segments;
}

/** Why `pathname` is refused by {@link decodePathSegments}, for a 400's `detail`. */
export const BAD_PATH_DETAIL = 'is not a canonical path (expected no empty segments such as "//", no "." or ".." segments and no encoded separators or NUL)';

/** The canonical path of `segments` (percent-encoded again), with a trailing slash when `folder`. */
export function canonicalPath(segments: readonly string[], folder: boolean): string {
  const path = `/${segments.filter((s) => s !== '').map(encodeURIComponent).join('/')}`;
  return folder && path !== '/' ? `${path}/` : path;
}

interface CachedFile {
  ino: number;
  mtimeMs: number;
  size: number;
  etag: string;
  body: Buffer;
}

/** A static file server over the folder `root`. */
export interface StaticServer {
  /** Answers a GET or HEAD request for `pathname` (as sent, still percent-encoded). */
  serve(request: Request, pathname: string): Promise<Response>;
}

/**
 * Creates a static server for `root`. Files up to `cacheBytes` in total are kept in memory
 * and revalidated against their size and modification time on every request.
 */
export function createStaticServer(root: string, cacheBytes = 64 * 1024 * 1024): StaticServer {
  const base = resolve(root);
  const cache = new Map<string, CachedFile>();
  let cached = 0;

  async function load(file: string): Promise<CachedFile | 'directory' | undefined> {
    const info = await stat(file).catch(() => undefined);
    if (info === undefined) return undefined;
    if (info.isDirectory()) return 'directory';
    if (!info.isFile()) return undefined;
    const hit = cache.get(file);
    // The inode too: a new build's tree holds new files (or hard links to the same ones) at the same path.
    if (hit !== undefined && hit.ino === info.ino && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit;
    const body = await readFile(file);
    const entry = { ino: info.ino, mtimeMs: info.mtimeMs, size: info.size, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`, body };
    if (cached + body.byteLength <= cacheBytes) {
      cache.set(file, entry);
      cached += body.byteLength;
    }
    return entry;
  }

  return {
    async serve(request, pathname) {
      const decoded = decodePathSegments(pathname);
      if (decoded === undefined) return problem(400, 'bad_path', `path ${JSON.stringify(pathname)} ${BAD_PATH_DETAIL}`);
      const wantsDirectory = decoded[decoded.length - 1] === '';
      const segments = decoded.filter((s) => s !== '');
      // Dot files of the tree (the build cache, the complete marker) are not part of the published API;
      // the `.well-known` folders of Agent Skills discovery are (exactly that name, where the build writes them).
      if (!isPublishedPath(segments.join('/'))) return problem(404, 'not_found', `nothing at ${pathname}`);
      let file = join(base, ...segments);
      if (file !== base && !file.startsWith(base + sep)) return problem(400, 'bad_path', 'path leaves the served folder');
      let found = await load(file);
      if (found === 'directory') {
        // Only ever a canonical, same-origin absolute path: never `//host/…` (an open redirect).
        if (!wantsDirectory) return new Response(null, { status: 301, headers: { location: canonicalPath(segments, true) } });
        file = join(file, 'index.html');
        found = await load(file);
      } else if (wantsDirectory && found !== undefined) {
        found = undefined;
      }
      if (found === undefined || found === 'directory') return problem(404, 'not_found', `nothing at ${pathname}`);
      const place = await placeInTree(base, file);
      if (place === undefined || !isPublishedPath(place.join('/'))) return problem(404, 'not_found', `nothing at ${pathname}`);
      // Headers follow the address asked for, as object storage's follow the key: a raw
      // `latest` file is the same file as its pinned twin (a link in the tree), not immutable.
      const headers = headersFor(relative(base, file).split(sep), found.etag);
      if (matchesEtag(request.headers.get('if-none-match'), found.etag)) return new Response(null, { status: 304, headers });
      headers.set('content-length', String(found.body.byteLength));
      return new Response(request.method === 'HEAD' ? null : new Uint8Array(found.body), { status: 200, headers });
    },
  };
}

/**
 * Where `file` really is: the segments of its real path below the real path of `base`, or
 * below the store its links lead into (build/tree-region.ts), or undefined when links lead it
 * out of both.
 */
async function placeInTree(base: string, file: string): Promise<string[] | undefined> {
  const [realBase, realFile] = await Promise.all([realpath(base), realpath(file)]).catch(() => [undefined, undefined]);
  if (realBase === undefined || realFile === undefined) return undefined;
  return placeIn(linkRegionsOf(realBase), realFile);
}

/**
 * Headers of the file at `place` (the segments of the address asked for): its address class decides
 * the type and cache policy (build/tree-headers.ts, the same table `loadout publish` uses);
 * raw files and `well-known` content also get the sandboxing CSP, pages theirs, and zips
 * under `download/` are attachments.
 */
function headersFor(place: string[], etag: string): Headers {
  const path = place.join('/');
  const type = contentTypeFor(path);
  const headers = new Headers({ etag, 'x-content-type-options': 'nosniff', 'content-type': type, 'cache-control': cacheControlFor(path) });
  const cls = addressClassOf(path);
  // Loadout content (raw files, and the skill files and archives of Agent Skills discovery) is sandboxed.
  if (cls === 'raw' || cls === 'pinned-raw' || cls === 'well-known') headers.set('content-security-policy', RAW_CSP);
  else if (type === HTML_TYPE) headers.set('content-security-policy', PAGE_CSP);
  if (cls === 'download') headers.set('content-disposition', `attachment; filename="${(place[place.length - 1] ?? '').replace(/[^\w.-]/gu, '_')}"`);
  return headers;
}

/** RFC 9110 section 13.1.2: `*` or a list of entity tags, compared weakly. */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//u, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//u, '') === bare);
}
