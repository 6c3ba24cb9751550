import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadSearchAndMcpRoutes } from '../../src/mcp/mount.js';
import { createApp } from '../../src/server/app.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { buildFixtureCatalogue, FIXTURE_IDS, type FixtureCatalogue } from './fixture.js';
import { describeWith, NEEDS_CHROMIUM } from '../run/requirements.js';

const CHROMIUM = '/usr/bin/chromium';

let fixture: FixtureCatalogue;
let server: RunningServer;
let browser: BrowserContext;
let profile: string;

beforeAll(async () => {
  fixture = await buildFixtureCatalogue();
  const routes = await loadSearchAndMcpRoutes(fixture.dist, fixture.baseUrl);
  server = await listen(createApp({ routes, distDir: fixture.dist, baseUrl: fixture.baseUrl, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port: 0, host: '127.0.0.1' });
  profile = mkdtempSync(join(tmpdir(), 'loadout-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  fixture?.remove();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
});

describeWith(NEEDS_CHROMIUM)('client-side search on the home page', () => {
  /** The ids of the cards shown, in order. */
  const shown = (page: Page): Promise<(string | undefined)[]> => page.locator('#loadouts > li:not([hidden])').evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset['id']));

  it('ranks as the user types with the downloaded index, exactly as the server does', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // Console errors name no address, so failed responses are collected instead.
    page.on('response', (r) => {
      if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${server.url}/`);
    const all = await shown(page);
    expect(all).toHaveLength(FIXTURE_IDS.length);

    for (const q of ['tail', 'nexjs', 'fastapi', 'python', 'pyhton', 'title:foo^10~', 'svelte']) {
      await page.fill('#q', q);
      const server_ = (await (await fetch(`${server.url}/api/v1/search?limit=50&q=${encodeURIComponent(q)}`)).json()) as { total: number; results: { id: string }[] };
      await page.waitForFunction((n) => document.querySelector('#results-status')?.textContent === `${n} ${n === 1 ? 'loadout' : 'loadouts'} found`, server_.total);
      expect(await shown(page), q).toEqual(server_.results.map((r) => r.id));
    }
    expect(await page.locator('#loadouts > li:not([hidden])').first().textContent()).toContain('SvelteKit App');

    // An empty query shows every loadout again, in the server's listing order.
    await page.fill('#q', '');
    await page.waitForFunction((n) => document.querySelector('#results-status')?.textContent === `${n} loadouts`, FIXTURE_IDS.length);
    expect(await shown(page)).toEqual(all);
    expect(errors).toEqual([]);
  });

  it('offers the server\'s suggestions as "Did you mean" when nothing matches, and searches one when clicked', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    expect(await page.locator('#suggestions').isHidden()).toBe(true);
    await page.fill('#q', 'fstapy');
    const expected = ((await (await fetch(`${server.url}/api/v1/search?q=fstapy`)).json()) as { suggestions: { kind: string; value: string }[] }).suggestions;
    expect(expected.length).toBeGreaterThan(0);
    await page.waitForSelector('#suggestions:not([hidden])');
    expect(await page.locator('#suggestions').textContent()).toBe(`Did you mean ${expected.map((s) => s.value).join(', ')}?`);
    expect(await page.locator('#suggestion-list button').evaluateAll((buttons) => buttons.map((b) => ({ kind: (b as HTMLElement).dataset['kind'], value: b.textContent })))).toEqual(expected);
    await page.locator('#suggestion-list button').first().click();
    expect(await page.inputValue('#q')).toBe(expected[0]?.value);
    await page.waitForFunction(() => (document.querySelector('#results-status')?.textContent ?? '').endsWith('found') && document.querySelector('#suggestions')?.hasAttribute('hidden'));
    expect((await shown(page)).length).toBeGreaterThan(0);
  });

  it('keeps the typed query as text, never as HTML', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.fill('#q', '<img src=x onerror=alert(1)>');
    await page.waitForFunction(() => (document.querySelector('#results-status')?.textContent ?? '').endsWith('found'));
    expect(await page.locator('#loadouts img').count()).toBe(0);
  });
});
