import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/tree/build.js';
import { CACHE_REVALIDATE } from '../../src/tree-format/tree-headers.js';
import { createApp } from '../../src/server/app.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { baseFiles, writeLoadout, type TestFile } from '../helpers/loadouts.js';
import { commitAll, initRepo } from '../helpers/temp.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { tmpdir } from 'node:os';
import { describeWith, NEEDS_CHROMIUM } from '../run/requirements.js';

const CHROMIUM = '/usr/bin/chromium';
let server: RunningServer;
let root: string;

/** Files a loadout may hold (a skill's template, icon and script) that would run if served as what their extension says. */
const EVIL_FILES: TestFile[] = [
  { path: 'skills/demo/SKILL.md', role: 'skill', skill: 'demo', content: '---\nname: demo\ndescription: Shows a page template, an icon and a helper script.\n---\n\n# Demo\n\nSee [the page](assets/page.html), [the icon](assets/icon.svg) and [the helper](assets/helper.js).\n' },
  { path: 'skills/demo/assets/page.html', role: 'reference', skill: 'demo', content: '<!doctype html><title>page</title><h1>Template</h1><script>document.title = "ran"; window.ran = true;</script>\n' },
  { path: 'skills/demo/assets/icon.svg', role: 'reference', skill: 'demo', content: '<svg xmlns="http://www.w3.org/2000/svg" onload="document.title = \'ran\'"><script>document.title = "ran"</script></svg>\n' },
  { path: 'skills/demo/assets/helper.js', role: 'reference', skill: 'demo', content: 'document.title = "ran";\n' },
];
const EVIL = ['page.html', 'icon.svg', 'helper.js'].map((f) => `evil/1.0.0/skills/demo/assets/${f}`);

/** Spellings of a raw file's path that a browser, a proxy or a file system might treat as it. */
const spellingsOf = (rest: string): string[] => [
  `/raw/${rest}`,
  `//raw/${rest}`,
  `///raw/${rest}`,
  `/raw//${rest}`,
  `/raw/${rest.replace('/', '//')}`,
  `/./raw/${rest}`,
  `/%72aw/${rest}`,
  `/%52AW/${rest}`,
  `/RAW/${rest}`,
  `/raw/${rest.replace('1.0.0', 'latest')}`,
  `//raw/${rest.replace('1.0.0', 'latest')}`,
  `/raw/./${rest}`,
];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loadout-static-'));
  initRepo(root);
  writeLoadout(root, { id: 'alpha', version: '1.0.0' });
  commitAll(root, 'alpha 1.0.0');
  writeLoadout(root, { id: 'alpha', version: '1.1.0' });
  commitAll(root, 'alpha 1.1.0');
  writeLoadout(root, { id: 'evil', files: [...baseFiles('Test evil'), ...EVIL_FILES] });
  commitAll(root, 'evil 1.0.0');
  writeFileSync(join(root, 'secret.txt'), 'outside the tree\n');
  await buildCatalogue({ root, out: join(root, 'dist'), baseUrl: 'http://localhost:8787' });
  server = await listen(createApp({ distDir: join(root, 'dist'), baseUrl: 'http://localhost:8787', submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** A request whose path is sent exactly as given (no client-side normalisation). */
function rawGet(path: string, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('static tree over HTTP', () => {
  it('serves records as JSON with CORS and a revalidating cache', async () => {
    const res = await fetch(`${server.url}/api/loadouts/alpha.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe(CACHE_REVALIDATE);
    expect(((await res.json()) as { version: string }).version).toBe('1.1.0');
  });

  it('serves raw files as sandboxed text/plain, pinned versions immutable, latest revalidating', async () => {
    const pinned = await fetch(`${server.url}/raw/alpha/1.0.0/CLAUDE.md`);
    expect(pinned.status).toBe(200);
    expect(pinned.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(pinned.headers.get('x-content-type-options')).toBe('nosniff');
    expect(pinned.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(pinned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await pinned.text()).toContain('@AGENTS.md');
    const latest = await fetch(`${server.url}/raw/alpha/latest/CLAUDE.md`);
    expect(latest.headers.get('cache-control')).toBe(CACHE_REVALIDATE);
    expect(latest.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('answers If-None-Match with 304 and the same ETag', async () => {
    const first = await fetch(`${server.url}/download/alpha/codex.zip`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/u);
    expect(first.headers.get('content-type')).toBe('application/zip');
    const again = await fetch(`${server.url}/download/alpha/codex.zip`, { headers: { 'if-none-match': `W/${etag ?? ''}, "other"` } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    const changed = await fetch(`${server.url}/download/alpha/codex.zip`, { headers: { 'if-none-match': '"nope"' } });
    expect(changed.status).toBe(200);
  });

  it('answers HEAD with headers and no body', async () => {
    const res = await fetch(`${server.url}/api/loadouts/alpha.json`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(100);
    expect(await res.text()).toBe('');
  });

  it('answers a CORS preflight on the read APIs', async () => {
    const res = await fetch(`${server.url}/api/loadouts.json`, { method: 'OPTIONS', headers: { origin: 'https://example.org', 'access-control-request-method': 'GET' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('serves pages at the spec addresses and redirects a page address without its slash', async () => {
    const page = await fetch(`${server.url}/loadouts/alpha/`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<h1>Test alpha</h1>');
    const redirect = await fetch(`${server.url}/loadouts/alpha`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/loadouts/alpha/');
    expect((await fetch(`${server.url}/docs/`)).status).toBe(200);
  });

  it('answers unknown addresses with a problem-details 404', async () => {
    const res = await fetch(`${server.url}/api/loadouts/nope.json`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(await res.json()).toMatchObject({ status: 404, code: 'not_found', title: 'Not found', type: expect.any(String), detail: expect.stringContaining('/api/loadouts/nope.json') });
    expect((await fetch(`${server.url}/raw/alpha/9.9.9/AGENTS.md`)).status).toBe(404);
    expect((await fetch(`${server.url}/raw/alpha/latest/AGENTS.md/`)).status).toBe(404);
  });

  it('answers other methods with a problem-details 405 and Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await fetch(`${server.url}/api/loadouts/alpha.json`, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(await res.json()).toMatchObject({ status: 405, code: 'method_not_allowed' });
    }
  });

  it.each([
    '/raw/alpha/../../secret.txt',
    '/raw/alpha/%2e%2e/%2e%2e/%2e%2e/secret.txt',
    '/raw/alpha/1.0.0/..%2f..%2f..%2f..%2fsecret.txt',
    '/raw/alpha/1.0.0/..%5c..%5c..%5csecret.txt',
    '/%2e%2e/secret.txt',
    '/raw/alpha/1.0.0/%00AGENTS.md',
    '/..%2fsecret.txt',
    '/raw/alpha/1.0.0/%E0%A4%A',
  ])('never serves a file outside the tree: %s', async (path) => {
    const res = await rawGet(path);
    expect([400, 404]).toContain(res.status);
    expect(res.body).not.toContain('outside the tree');
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });

  it.each(EVIL.flatMap(spellingsOf))('serves %s only as sandboxed text, or not at all', async (path) => {
    const res = await rawGet(path);
    if (res.status === 200) {
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    } else {
      expect([400, 404]).toContain(res.status);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    }
    // A path with an empty segment is refused before any routing decision (the WHATWG URL
    // parser that builds the request has already resolved `.` segments).
    if (path.includes('//')) expect(res.status).toBe(400);
  });

  it.each(['//loadouts', '//loadouts/alpha', '///docs', '//example.org', '/loadouts//alpha', '/%2F%2Fexample.org', '//api/v1/search?q=x', '//mcp'])('never redirects %s off the origin', async (path) => {
    const res = await rawGet(path);
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  it('redirects a folder only to its canonical absolute path', async () => {
    for (const [path, location] of [['/loadouts/alpha', '/loadouts/alpha/'], ['/docs', '/docs/'], ['/loadouts/%61lpha', '/loadouts/alpha/']] as const) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(301);
      expect(res.headers.location, path).toBe(location);
    }
  });

  it('never serves latest immutable, however the path is spelled', async () => {
    for (const path of spellingsOf('alpha/latest/CLAUDE.md')) {
      const res = await rawGet(path);
      expect(res.headers['cache-control'] ?? '', path).not.toContain('immutable');
    }
    expect((await rawGet('/raw//alpha/latest/CLAUDE.md')).status).toBe(400);
  });

  it('serves zips as attachments', async () => {
    const res = await rawGet('/download/alpha/source.zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="source.zip"');
  });

  it('serves GET /api/v1 from the server configuration', async () => {
    const res = await fetch(`${server.url}/api/v1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'Loadout Catalogue', version: 1, submissions_open: false, config: { database: false, challenge_secret: false, challenge_site_key: false }, schema: 'http://localhost:8787/api/schema.json', docs: 'http://localhost:8787/docs/#submit' });
    expect(Object.keys(body['endpoints'] as object)).toEqual(expect.arrayContaining(['GET /api/v1/search', 'POST /mcp', 'GET /mcp/server-card', 'GET /api/v1/submissions/session', 'POST /api/v1/submissions', 'GET /api/v1/submissions/{submission_id}']));
  });
});

describeWith(NEEDS_CHROMIUM)('raw files in Chromium', () => {
  it('never runs a loadout\'s HTML, SVG or script on the origin, however the address is spelled', async () => {
    const profile = mkdtempSync(join(tmpdir(), 'loadout-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      for (const path of EVIL.flatMap(spellingsOf)) {
        const response = await page.goto(`${server.url}${path}`);
        const ran = await page.evaluate(() => document.title === 'ran' || (window as { ran?: boolean }).ran === true);
        expect(ran, path).toBe(false);
        if (response?.status() === 200) expect(await page.evaluate(() => document.contentType), path).toBe('text/plain');
      }
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
