/**
 * Serving the built tree (DESIGN.md section 5 "Static addresses"): GET and HEAD, strong
 * ETags from content hashes (the same on every instance, since builds are deterministic) with
 * 304 answers (RFC 9110 section 13.1.2), raw files as `text/plain` with `nosniff` and a
 * sandboxing CSP whatever their extension, `immutable` for pinned raw files, and no way out
 * of the tree (encoded or not).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { problem } from './problem.js';

const TYPES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.zip': 'application/zip',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** CSP for raw files: nothing may load or run, and the document is sandboxed. */
export const RAW_CSP = "default-src 'none'; sandbox";
const PAGE_CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

/** Splits and decodes a URL path safely: undefined when a segment is `.`/`..` or hides a separator or NUL. */
export function decodePathSegments(pathname: string): string[] | undefined {
  const segments: string[] = [];
  for (const raw of pathname.split('/').slice(1)) {
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

interface CachedFile {
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
    if (hit !== undefined && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit;
    const body = await readFile(file);
    const entry = { mtimeMs: info.mtimeMs, size: info.size, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`, body };
    if (cached + body.byteLength <= cacheBytes) {
      cache.set(file, entry);
      cached += body.byteLength;
    }
    return entry;
  }

  return {
    async serve(request, pathname) {
      const segments = decodePathSegments(pathname);
      if (segments === undefined) return problem(400, 'bad_path', `path ${JSON.stringify(pathname)} is not allowed (expected no "." or ".." segments and no encoded separators)`);
      // Dot files of the tree (the build cache) are not part of the published API.
      if (segments.some((s) => s.startsWith('.'))) return problem(404, 'not_found', `nothing at ${pathname}`);
      const wantsDirectory = pathname.endsWith('/');
      const file = join(base, ...segments);
      if (file !== base && !file.startsWith(base + sep)) return problem(400, 'bad_path', 'path leaves the served folder');
      let found = await load(file);
      if (found === 'directory') {
        if (!wantsDirectory) return new Response(null, { status: 301, headers: { location: `${pathname}/` } });
        found = await load(join(file, 'index.html'));
      } else if (wantsDirectory && found !== undefined) {
        found = undefined;
      }
      if (found === undefined || found === 'directory') return problem(404, 'not_found', `nothing at ${pathname}`);
      const headers = headersFor(segments, found.etag);
      if (matchesEtag(request.headers.get('if-none-match'), found.etag)) return new Response(null, { status: 304, headers });
      headers.set('content-length', String(found.body.byteLength));
      return new Response(request.method === 'HEAD' ? null : new Uint8Array(found.body), { status: 200, headers });
    },
  };
}

function headersFor(segments: string[], etag: string): Headers {
  const headers = new Headers({ etag, 'x-content-type-options': 'nosniff' });
  const [top, , version] = segments;
  if (top === 'raw') {
    headers.set('content-type', 'text/plain; charset=utf-8');
    headers.set('content-security-policy', RAW_CSP);
    headers.set('cache-control', version !== undefined && version !== 'latest' ? 'public, max-age=31536000, immutable' : 'public, no-cache');
  } else {
    const last = segments[segments.length - 1] ?? '';
    const type = last === '' ? TYPES['.html'] : TYPES[extname(last).toLowerCase()];
    headers.set('content-type', type ?? 'application/octet-stream');
    if (type === TYPES['.html']) headers.set('content-security-policy', PAGE_CSP);
    headers.set('cache-control', 'public, no-cache');
  }
  return headers;
}

/** RFC 9110 section 13.1.2: `*` or a list of entity tags, compared weakly. */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//u, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//u, '') === bare);
}
