/**
 * What SECURITY.md says about `.` and `..` in request paths ("The request path is checked once"),
 * checked over a real socket with the path sent byte for byte: dot segments, literal or spelled
 * with `%2e`, are resolved as a browser resolves them and never climb above the root; encoded
 * separators, NUL, empty segments and backslashes are refused with 400.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { listen, type RunningServer } from '../../src/server/listen.js';

let server: RunningServer;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loadout-dots-'));
  const dist = join(root, 'dist');
  mkdirSync(join(dist, 'raw', 'a'), { recursive: true });
  writeFileSync(join(dist, 'raw', 'b'), 'the file b\n');
  writeFileSync(join(dist, 'raw', 'a', 'c'), 'the file a/c\n');
  writeFileSync(join(root, 'secret.txt'), 'outside the tree\n');
  server = await listen(createApp({ distDir: dist, baseUrl: 'http://localhost:8787', submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** GET with the path sent exactly as given (no client-side normalisation). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('dot segments in request paths (SECURITY.md)', () => {
  it('states what the server does', () => {
    const text = readFileSync(fileURLToPath(new URL('../../SECURITY.md', import.meta.url)), 'utf8').replace(/\s+/gu, ' ');
    expect(text).toContain('`/raw/a/../b` and `/raw/a/%2e%2e/b` are answered as `/raw/b`, and so is `/../raw/b`');
    expect(text).toContain('an encoded separator (`%2f`, `%5c`: `..%2f` too) or NUL, or a backslash is refused with 400');
  });

  it.each(['/raw/a/../b', '/raw/a/%2e%2e/b', '/raw/a/%2E%2E/b', '/raw/a/.%2e/b', '/raw/a/%2E./b', '/../raw/b', '/raw/a/../../../../raw/b', '/raw/a/./../b'])('resolves %s to /raw/b', async (path) => {
    expect(await rawGet(path)).toEqual({ status: 200, body: 'the file b\n' });
  });

  it.each(['/raw/a/./c', '/raw/a/%2e/c', '/raw/./a/c'])('resolves %s to /raw/a/c', async (path) => {
    expect(await rawGet(path)).toEqual({ status: 200, body: 'the file a/c\n' });
  });

  it.each(['/raw/a/..%2fb', '/raw/a/..%2Fb', '/raw/a/..%5cb', '/raw/a/%2e%2e%2fb', '/raw/a/%00c', '//raw/b', '/raw//b', '/raw/a\\..\\b', '/raw/a\\c'])('refuses %s with 400', async (path) => {
    expect((await rawGet(path)).status).toBe(400);
  });

  it('never climbs above the root of the tree', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/raw/../../secret.txt', '/raw/%2e%2e/%2e%2e/secret.txt']) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain('outside the tree');
    }
  });
});
