/**
 * The quality bars of docs/http-api.md "The pages" over every page (home, a loadout page, docs
 * with the form, a submission's status page): no axe-core violations in the light and the dark
 * colour scheme, in the states people see (filters applied, the form's errors shown, the widget
 * mounted); no horizontal scrolling at 390 px; notices shown apart from other details; the
 * sitemap and the Atom feed well-formed and complete. Screenshots of each page at 1280 and
 * 390 px (and dark at 1280) go to `test/artifacts/`.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createStores } from '../../src/storage/stores.js';
import { createApiKey } from '../../src/submissions/api-key.js';
import { SPECS } from './fixture.js';
import { HAS_CHROMIUM, launchBrowser, screenshot, startPagesServer, watchErrors, type PagesServer, axeViolations } from './harness.js';
import { describeWith, NEEDS_CHROMIUM } from '../run/requirements.js';


let server: PagesServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let statusPath: string;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  server = await startPagesServer();
  browser = await launchBrowser();
  // A submission through the agent path whose checks partly fail (a broken link) and that
  // installs with the system package manager (a notice), for the status page.
  const database = server.submissions.database;
  if (database === undefined) throw new Error('the pages server has no database');
  const { key } = await createApiKey(createStores(database).keys, 'quality test', new Date());
  const response = await fetch(`${server.url}/api/v1/submissions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({
      name: 'Go Service <b>Kit</b>',
      summary: 'Conventions for Go HTTP services with chi, sqlc and table-driven tests.',
      category: 'web-app',
      stacks: ['go'],
      agents: ['codex', 'cursor'],
      files: [{ path: 'AGENTS.md', content: '# Go Service Kit\n\nSee [the guide](docs/guide.md).\n\n```sh\nsudo apt-get install golang\n```\n' }],
      licence: 'Apache-2.0',
      rights_confirmed: true,
    }),
  });
  const body = (await response.json()) as { id: string; status: string };
  if (response.status !== 202) throw new Error(`submission answered ${response.status}: ${JSON.stringify(body)}`);
  statusPath = `/submissions/${body.id}/`;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Puts the page in the state people see it in. */
const STATES: Record<string, (page: Page) => Promise<void>> = {
  home: async (page) => {
    await page.waitForFunction(() => document.getElementById('loadouts')?.dataset['state'] === 'ready');
  },
  loadout: async (page) => {
    await page.click('#file-0 summary');
  },
  docs: async () => undefined,
  submit: async (page) => {
    // Focus mounts the challenge widget; an empty submit shows every error.
    await page.focus('#f-name');
    await page.waitForSelector('altcha-widget');
    await page.click('#submit-button');
    await page.waitForSelector('#error-summary:not([hidden])');
  },
  status: async () => undefined,
  guide: async () => undefined,
};

const paths = (): Record<string, string> => ({ home: '/?category=web-app', loadout: '/loadouts/godot-gdscript/', docs: '/docs/', submit: '/submit/', status: statusPath, guide: '/docs/installing/' });

describeWith(NEEDS_CHROMIUM)('page quality', () => {
  for (const name of ['home', 'loadout', 'docs', 'submit', 'status', 'guide']) {
    it(`${name}: no axe-core violations in light and dark, usable at 390 px, screenshots saved`, async () => {
      const page = await browser.context.newPage();
      const errors = watchErrors(page);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(`${server.url}${paths()[name]}`);
        await STATES[name]?.(page);
        expect(await axeViolations(page), `${name} ${scheme}`).toEqual([]);
        await screenshot(page, scheme === 'light' ? name : `${name}-dark`, 1280);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await screenshot(page, name, 390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(390);
      expect(await axeViolations(page), `${name} at 390 px`).toEqual([]);
      // The docs page's empty submit is the form's own check: nothing reached the server.
      expect(errors).toEqual([]);
      await page.close();
    });
  }

  it('shows check notices apart from the other details, on the loadout page and the status page', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/loadouts/godot-gdscript/`);
    const notice = page.locator('li.notice').first();
    expect(await notice.locator('.badge').textContent()).toBe('Notice');
    expect(await notice.textContent()).toMatch(/AGENTS\.md:\d+:/);
    expect(await notice.textContent()).not.toContain('notice:');
    await page.goto(`${server.url}${statusPath}`);
    expect(await page.locator('#submission-status').textContent()).toBe('checks-failed');
    expect(await page.locator('h1').textContent()).toBe('Submission of go-service-b-kit-b');
    expect(await page.locator('td.check-fail').count()).toBeGreaterThan(0);
    expect(await page.locator('li.notice').count()).toBeGreaterThan(0);
    // What the submitted loadout can run, in the words of the loadout pages (issue 54, point 4).
    expect(await page.locator('#capabilities + .runs #capabilities-summary').textContent()).toMatch(/^Runs nothing It runs nothing \(no MCP server, hook, script or grant\)/u);
    await page.close();
  });

  it('publishes a sitemap of every page and an Atom feed of loadouts, newest update first', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/`);
    const sitemap = await fetch(`${server.url}/sitemap.xml`);
    expect(sitemap.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const feed = await fetch(`${server.url}/feed.atom`);
    expect(feed.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const parsed = await page.evaluate(
      ([sitemapXml, feedXml]) => {
        const parse = (xml: string): Document => new DOMParser().parseFromString(xml, 'application/xml');
        const s = parse(sitemapXml ?? '');
        const f = parse(feedXml ?? '');
        const atom = 'http://www.w3.org/2005/Atom';
        return {
          errors: s.getElementsByTagName('parsererror').length + f.getElementsByTagName('parsererror').length,
          locs: Array.from(s.getElementsByTagName('loc'), (l) => l.textContent),
          self: f.querySelector('link[rel=self]')?.getAttribute('href'),
          entries: Array.from(f.getElementsByTagNameNS(atom, 'entry'), (e) => ({ id: e.getElementsByTagNameNS(atom, 'id')[0]?.textContent, updated: e.getElementsByTagNameNS(atom, 'updated')[0]?.textContent })),
        };
      },
      [await sitemap.text(), await feed.text()],
    );
    expect(parsed.errors).toBe(0);
    expect(parsed.locs).toEqual(expect.arrayContaining([`${server.url}/`, `${server.url}/docs/`, `${server.url}/submit/`, ...SPECS.map((s) => `${server.url}/loadouts/${s.id}/`)]));
    expect(parsed.locs).toHaveLength(SPECS.length + 3);
    expect(parsed.self).toBe(`${server.url}/feed.atom`);
    expect(parsed.entries).toHaveLength(SPECS.length);
    expect(parsed.entries[0]).toEqual({ id: `${server.url}/loadouts/nextjs-app-router/`, updated: '2026-11-01T00:00:00Z' });
    const updated = parsed.entries.map((e) => e.updated ?? '');
    expect(updated).toEqual([...updated].sort().reverse());
    await page.close();
  });
});

describeWith(NEEDS_CHROMIUM)('guide pages', () => {
  it('render docs/*.md in the site layout under the pages CSP, with links between guides that resolve', async () => {
    const response = await fetch(`${server.url}/docs/installing/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/docs/`);
    // The guides come first; the submission form has its own page, which #submit links to.
    expect(await page.locator('main h2').first().textContent()).toBe('Guides');
    expect(await page.locator('#submit').count()).toBe(1);
    expect(await page.locator('#submit-form').count()).toBe(0);
    expect(await page.locator('#submit ~ p a[href="../submit/"]').count()).toBe(1);
    await page.click('ul.guides a[href="http-api/"]');
    expect(await page.locator('h1').textContent()).toBe('The HTTP API and MCP');
    expect(await page.locator('nav[aria-label="Guides"] a[aria-current="page"]').textContent()).toBe('The HTTP API and MCP');
    // Every link of the guide that stays on the site answers 200.
    const hrefs = await page.locator('article.guide a').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href).filter((h) => h.startsWith(location.origin)));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of new Set(hrefs.map((h) => h.split('#')[0] as string))) expect((await fetch(href)).status, href).toBe(200);
    expect(errors).toEqual([]);
    await page.close();
  });
});
