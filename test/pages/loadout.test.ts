/**
 * The loadout page in Chromium (docs/http-api.md "The pages"): install tabs that follow the
 * WAI-ARIA tabs pattern and remember the agent, copy buttons that put the install command and
 * a file's content on the clipboard, files inline, versions, verification; and a loadout made
 * of markup (`<script>`, `onerror=`, `javascript:` links, in every field and file) that shows
 * as text on its page, the home page, the sitemap and the feed, and runs nothing.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AGENT_STORAGE_KEY } from '../../src/pages/scripts/loadout.js';
import { HOSTILE_ID, HOSTILE_SCRIPT, HOSTILE_TITLE } from './fixture.js';
import { HAS_CHROMIUM, launchBrowser, startPagesServer, watchErrors, type PagesServer } from './harness.js';
import { describeWith, NEEDS_CHROMIUM } from '../run/requirements.js';

let server: PagesServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  server = await startPagesServer();
  browser = await launchBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const selectedAgent = (page: Page): Promise<string | null> => page.locator('[role=tab][aria-selected=true]').getAttribute('data-agent');
const visiblePanels = (page: Page): Promise<string[]> => page.locator('[role=tabpanel]:not([hidden])').evaluateAll((panels) => panels.map((p) => (p as HTMLElement).dataset['agent'] ?? ''));
const clipboard = (page: Page): Promise<string> => page.evaluate(() => navigator.clipboard.readText());

describeWith(NEEDS_CHROMIUM)('the loadout page', () => {
  it('switches install tabs with the keyboard and the mouse, one panel at a time, and remembers the agent', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/loadouts/nextjs-app-router/`);
    await page.evaluate((key) => localStorage.removeItem(key), AGENT_STORAGE_KEY);
    await page.reload();
    expect(await page.locator('[role=tablist]').isVisible()).toBe(true);
    expect(await selectedAgent(page)).toBe('claude-code');
    expect(await visiblePanels(page)).toEqual(['claude-code']);
    // Only the selected tab is in the tab order.
    expect(await page.locator('[role=tab][tabindex="0"]').count()).toBe(1);

    await page.focus('#tab-claude-code');
    await page.keyboard.press('ArrowRight');
    expect(await selectedAgent(page)).toBe('codex');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tab-codex');
    expect(await visiblePanels(page)).toEqual(['codex']);
    await page.keyboard.press('End');
    expect(await selectedAgent(page)).toBe('antigravity-cli');
    await page.keyboard.press('ArrowRight');
    expect(await selectedAgent(page)).toBe('claude-code');
    await page.keyboard.press('ArrowLeft');
    expect(await selectedAgent(page)).toBe('antigravity-cli');
    await page.keyboard.press('Home');
    expect(await selectedAgent(page)).toBe('claude-code');
    // Tab leaves the tab list for the panel.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('panel-claude-code');

    await page.click('#tab-cursor');
    expect(await visiblePanels(page)).toEqual(['cursor']);
    expect(await page.locator('#panel-cursor').getAttribute('aria-labelledby')).toBe('tab-cursor');
    // The next loadout page opens on the agent chosen here.
    await page.goto(`${server.url}/loadouts/fastapi-service/`);
    expect(await selectedAgent(page)).toBe('cursor');
    expect(await visiblePanels(page)).toEqual(['cursor']);
    // An address naming an agent wins.
    await page.goto(`${server.url}/loadouts/fastapi-service/#install-gemini-cli`);
    expect(await selectedAgent(page)).toBe('gemini-cli');
    // The agent's own news, with its source (layout/agent-notes.ts).
    expect(await page.locator('#panel-gemini-cli p.small').first().textContent()).toMatch(/^Gemini CLI's individual tier .* stopped serving on 2026-06-18/u);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('copies the install command of the agent shown, and a file with its exact content', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/loadouts/dbt-analytics/#install-codex`);
    // The npx command's button (the tab leads with Codex's own plugin manager, install-tabs.test.ts).
    await page.click('#panel-codex button.copy[data-copy="cmd-codex"]');
    await page.waitForFunction(() => document.querySelector('#panel-codex button.copy[data-copy="cmd-codex"]')?.textContent === 'Copied');
    expect(await clipboard(page)).toBe(`npx -y ${server.url}/cli/loadout-latest.tgz install dbt-analytics --agent codex --from ${server.url}`);
    expect(await page.locator('#copy-status').textContent()).toBe('Copied to the clipboard.');
    // The install writes Codex's TOML itself: the one manual step left is the variable Codex cannot rename.
    expect(await page.locator('#panel-codex .steps p').allTextContents()).toContainEqual(expect.stringMatching(/^set-env \.codex\/config\.toml: Set DATABASE_URI in your environment to the value of POSTGRES_URL/u));
    expect(await page.locator('#panel-codex li code', { hasText: '.codex/config.toml' }).count()).toBeGreaterThan(0);

    const record = (await (await fetch(`${server.url}/api/loadouts/dbt-analytics.json`)).json()) as { files: { path: string; content: string }[] };
    const index = record.files.findIndex((f) => f.path === 'mcp/servers.json');
    await page.click(`#file-${index} summary`);
    expect(await page.locator(`#content-${index}`).textContent()).toBe(record.files[index]?.content);
    await page.click(`#file-${index} button.copy`);
    await page.waitForFunction((i) => document.querySelector(`#file-${i} button.copy`)?.textContent === 'Copied', index);
    expect(await clipboard(page)).toBe(record.files[index]?.content);
    await page.close();
  });

  it('lists the versions from versions.json and the ten checks', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/loadouts/nextjs-app-router/`);
    const versions = await page.locator('#versions + .table-wrap tbody th').allTextContents();
    expect(versions.map((v) => v.trim())).toEqual(['1.1.0 latest', '1.0.0']);
    expect(await page.locator('#verification ~ .table-wrap tbody tr').count()).toBe(10);
    expect(await page.locator('.marks .badge.ok').textContent()).toBe('✓ Verified');
    await page.close();
  });

  it('shows a loadout made of markup as text everywhere, and runs none of it', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const pwned = (): Promise<unknown> => page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
    await page.goto(`${server.url}/loadouts/${HOSTILE_ID}/`);
    for (const summary of await page.locator('details.file summary').all()) await summary.click();
    expect(await page.locator('h1').textContent()).toBe(HOSTILE_TITLE);
    expect(await page.locator('details.file pre').first().textContent()).toContain(HOSTILE_SCRIPT);
    expect(await page.locator('.lead').textContent()).toContain('<script>window.__pwned=6</script>');
    expect(await page.locator('main').evaluate((main) => main.querySelectorAll('img, iframe, svg, script, b, em, [onerror], [onload], [onmouseover]').length)).toBe(0);
    // The author's javascript: address is no link; the name is text.
    expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
    expect(await page.locator('.meta').textContent()).toContain('by <em>Mallory</em>');
    // The only scripts are the page's own.
    expect(await page.locator('script').evaluateAll((s) => s.map((e) => new URL((e as HTMLScriptElement).src).pathname))).toEqual(['/assets/loadout.js']);

    await page.goto(`${server.url}/`);
    const card = page.locator(`#loadouts > li[data-id="${HOSTILE_ID}"]`);
    expect(await card.locator('h2').textContent()).toBe(HOSTILE_TITLE);
    expect(await card.evaluate((c) => c.querySelectorAll('img, script, b').length)).toBe(0);

    // The feed and the sitemap stay well-formed XML with the markup as text.
    const feed = await (await fetch(`${server.url}/feed.atom`)).text();
    const titles = await page.evaluate((xml) => {
      const doc = new DOMParser().parseFromString(xml, 'application/xml');
      if (doc.querySelector('parsererror') !== null) return null;
      return Array.from(doc.getElementsByTagName('title'), (t) => t.textContent);
    }, feed);
    expect(titles).toContain(`${HOSTILE_TITLE} 1.0.0`);
    expect(await pwned()).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
