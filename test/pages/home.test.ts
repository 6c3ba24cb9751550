/**
 * The home page in Chromium (docs/http-api.md "The pages"): the full list without JavaScript;
 * filters and search as you type that agree with `GET /api/v1/search` and are kept in the URL
 * (a reload or a shared link shows the same view); and the transfer budget.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SPECS } from './fixture.js';
import { HAS_CHROMIUM, launchBrowser, startPagesServer, watchErrors, type PagesServer } from './harness.js';
import { describeWith, NEEDS_CHROMIUM } from '../run/requirements.js';

let server: PagesServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  server = await startPagesServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The ids of the cards shown, in order. */
const shownIds = (page: Page): Promise<string[]> => page.locator('#loadouts > li:not([hidden])').evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset['id'] ?? ''));

/** The ids the search API answers for `params` (its empty-query order, or its ranking). */
async function apiIds(params: Record<string, string>): Promise<string[]> {
  const query = new URLSearchParams({ ...params, limit: '50' });
  const body = (await (await fetch(`${server.url}/api/v1/search?${query}`)).json()) as { results: { id: string }[] };
  return body.results.map((r) => r.id);
}

/** Waits until the page has applied its filters and search (the status line says so). */
async function settled(page: Page, count: number): Promise<void> {
  await page.waitForFunction((n) => {
    const list = document.getElementById('loadouts');
    return list?.dataset['state'] === 'ready' && (document.getElementById('results-status')?.textContent ?? '').startsWith(`${n} `);
  }, count);
}

describeWith(NEEDS_CHROMIUM)('the home page', () => {
  it('shows every loadout without JavaScript, and no filters that could not work', async () => {
    const page = await browser.context.newPage();
    await page.route('**/*.js', (route) => route.abort());
    await page.goto(`${server.url}/?agent=cursor&q=python`);
    expect(await page.locator('#loadouts > li:visible').count()).toBe(SPECS.length);
    expect(await page.locator('#filters').isHidden()).toBe(true);
    // The server's empty-query order.
    expect(await shownIds(page)).toEqual(await apiIds({}));
    await page.close();
  });

  it('filters by agent, category, stack, verified and has, keeping them in the URL, as the search API does', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/`);
    await settled(page, SPECS.length);
    expect(await page.locator('#filters').isVisible()).toBe(true);

    await page.selectOption('#f-agent', 'cursor');
    let expected = await apiIds({ agent: 'cursor' });
    expect(expected).not.toContain('langchain-agents');
    await settled(page, expected.length);
    expect(await shownIds(page)).toEqual(expected);
    expect(new URL(page.url()).search).toBe('?agent=cursor');

    await page.selectOption('#f-tags', 'python');
    await page.selectOption('#f-has', 'rules');
    expected = await apiIds({ agent: 'cursor', tags: 'python', has: 'rules' });
    expect(expected).toEqual(['fastapi-service']);
    await settled(page, 1);
    expect(await shownIds(page)).toEqual(expected);
    expect(new URL(page.url()).search).toBe('?agent=cursor&tags=python&has=rules');

    // Clearing shows everything again, and the address has no filters left.
    await page.click('#clear');
    await settled(page, SPECS.length);
    expect(new URL(page.url()).search).toBe('');

    await page.selectOption('#f-category', 'web-app');
    await page.selectOption('#f-verified', 'true');
    expected = await apiIds({ category: 'web-app', verified: 'true' });
    await settled(page, expected.length);
    expect(await shownIds(page)).toEqual(expected);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('searches as you type, in the ranking of the search API, combined with the filters, and restores the view from the URL', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/`);
    await settled(page, SPECS.length);
    for (const q of ['pyth', 'nexjs', 'godot scenes', 'analytics']) {
      await page.fill('#q', q);
      const expected = await apiIds({ q });
      expect(expected.length, q).toBeGreaterThan(0);
      await settled(page, expected.length);
      expect(await shownIds(page), q).toEqual(expected);
      expect(new URL(page.url()).searchParams.get('q')).toBe(q);
    }
    await page.fill('#q', 'python');
    await page.selectOption('#f-agent', 'cursor');
    const expected = await apiIds({ q: 'python', agent: 'cursor' });
    expect(expected).toEqual(['fastapi-service']);
    await settled(page, 1);
    expect(await shownIds(page)).toEqual(expected);

    // A shared link opens on the same view.
    const shared = page.url();
    expect(new URL(shared).search).toBe('?q=python&agent=cursor');
    const second = await browser.context.newPage();
    await second.goto(shared);
    await settled(second, 1);
    expect(await shownIds(second)).toEqual(expected);
    expect(await second.inputValue('#q')).toBe('python');
    expect(await second.inputValue('#f-agent')).toBe('cursor');

    // A search with no match says so.
    await page.fill('#q', 'zzzzqqq');
    await settled(page, 0);
    expect(await page.locator('#no-results').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
    await second.close();
  });

  it('keeps a typed query as text, never as markup', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/?q=${encodeURIComponent('<img src=x onerror=window.__pwned=1>')}`);
    await page.waitForFunction(() => document.getElementById('loadouts')?.dataset['state'] === 'ready');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.inputValue('#q')).toBe('<img src=x onerror=window.__pwned=1>');
    await page.close();
  });

  it('transfers under 200 KB, the search index excepted, also once search has loaded', async () => {
    const page = await browser.context.newPage();
    const sizes: Promise<{ url: string; bytes: number }>[] = [];
    page.on('requestfinished', (request) => sizes.push(request.sizes().then((s) => ({ url: request.url(), bytes: s.responseBodySize + s.responseHeadersSize }))));
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    await page.fill('#q', 'python');
    await settled(page, (await apiIds({ q: 'python' })).length);
    await page.waitForLoadState('networkidle');
    const all = await Promise.all(sizes);
    const counted = all.filter((s) => !s.url.endsWith('/api/search-index.json'));
    const total = counted.reduce((n, s) => n + s.bytes, 0);
    expect(counted.map((s) => new URL(s.url).pathname)).toEqual(expect.arrayContaining(['/', '/assets/site.css', '/assets/home.js', '/assets/minisearch.js', '/assets/search.js']));
    expect(total, JSON.stringify(counted)).toBeLessThan(200 * 1024);
    await page.close();
  });
});
