/**
 * The bundles' pages in Chromium (issue 56, point 2; src/pages/bundle.ts, loadout-bundles.ts),
 * served from a catalogue built from a real git repository whose members have several versions
 * (test/helpers/bundle-catalogue.ts): the bundle page shows each loadout with its range and the
 * version it resolves to, the combined context cost and capability list, and copies its install
 * command; the list of bundles leads to it; a loadout's page lists its bundles; a bundle made of
 * markup shows as text and runs nothing; no axe-core violation, no sideways scrolling at 390 px.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { summarizeCapabilities } from '../../src/capabilities/describe.js';
import type { BundleRecord } from '../../src/tree-format/bundle.js';
import { bundleManifest, writeBundle } from '../helpers/bundle-catalogue.js';
import { startBundleServer, type BundleServer } from '../helpers/bundle-server.js';
import { commitAll } from '../helpers/temp.js';
import { HAS_CHROMIUM, launchBrowser, screenshot, watchErrors, axeViolations } from './harness.js';
import { describeWith, NEEDS_CHROMIUM } from '../run/requirements.js';

const HOSTILE_TITLE = '<img src=x onerror="window.__pwned=1">';

let server: BundleServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  server = await startBundleServer('loadout-bundle-pages-', (root) => {
    writeBundle(root, 'markup-stack', bundleManifest('markup-stack', HOSTILE_TITLE, '1.0.0', [['godot-gdscript', '*']], { description: '<script>window.__pwned = 2</script> and a [link](javascript:window.__pwned=3) in the description.' }));
    commitAll(root, 'markup-stack', '2026-05-01T10:00:00Z');
  });
  browser = await launchBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const record = (id: string): BundleRecord => JSON.parse(readFileSync(join(server.fixture.dist, 'api/bundles', `${id}.json`), 'utf8')) as BundleRecord;
const cells = (page: Page, table: string): Promise<string[][]> => page.locator(`${table} tbody tr`).evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('th, td')).map((c) => (c as HTMLElement).innerText.trim())));

describeWith(NEEDS_CHROMIUM)('the bundle pages', () => {
  it('show what a bundle brings: each loadout, its range and the version it resolves to, the combined context cost and capability list', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/bundles/web-team-stack/`);
    expect(await page.locator('h1').innerText()).toBe('Web Team Stack');
    const rows = await cells(page, '#bundle-loadouts');
    expect(rows.map((r) => [r[0]?.split('\n')[0], r[1], r[2], r[3]])).toEqual([
      ['Next.js App Router', '^1.1', '1.1.0', 'every agent'],
      ['Secure Code Review', '^1', '1.0.0 (latest 2.0.0 is outside the range)', 'every agent'],
      ['GitHub Actions CI', '~1.0.0', '1.0.0', 'every agent'],
    ]);
    const web = record('web-team-stack');
    const context = await cells(page, '#bundle-context');
    expect(context[0]).toEqual(['Claude Code', `~${web.context['claude-code'].always.tokens.toLocaleString('en')} tokens (${(web.context['claude-code'].always.bytes / 1024).toFixed(1)} KB)`, expect.stringContaining('tokens')]);
    expect(await page.locator('#bundle-runs').innerText()).toBe(`Its loadouts together: ${summarizeCapabilities(web.capabilities)}.`);
    // The install command, copied as shown.
    await page.click('button[data-copy="bundle-install"]');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('claude plugin install web-team-stack@loadout-catalogue');
    // The loadouts are links to their pages.
    await page.click('#bundle-loadouts a[href$="loadouts/secure-code-review/"]');
    await page.waitForURL(`${server.url}/loadouts/secure-code-review/`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('list the MCP server a member brings, with the loadout it comes from, and leave out a loadout for the agents it is not for', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/bundles/data-team-stack/`);
    const capabilities = await page.locator('#capabilities ~ ul li').allInnerTexts();
    expect(capabilities.some((line) => line.startsWith('"postgres": runs postgres-mcp from PyPI'))).toBe(true);
    const rows = await cells(page, '#bundle-loadouts');
    expect(rows[1]?.[3]).toBe('Codex, Cursor');
    expect(await page.locator('#install').locator('xpath=following-sibling::p[1]').innerText()).toContain('(dbt-analytics)');
    await page.close();
  });

  it('list every bundle on bundles/, each leading to its page', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/bundles/`);
    expect(await page.locator('#bundles > li h2').allInnerTexts()).toEqual(['Data Team Stack', HOSTILE_TITLE, 'Web Team Stack']);
    await page.click('#bundles a:text("Data Team Stack")');
    await page.waitForURL(`${server.url}/bundles/data-team-stack/`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('are listed on the page of each loadout they bring, with the range they take it at', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/loadouts/nextjs-app-router/`);
    expect(await page.locator('#loadout-bundles li').allInnerTexts()).toEqual(['Web Team Stack (web-team-stack, versions ^1.1)']);
    await page.click('#loadout-bundles a');
    await page.waitForURL(`${server.url}/bundles/web-team-stack/`);
    await page.goto(`${server.url}/loadouts/fastapi-service/`);
    expect(await page.locator('#loadout-bundles li').allInnerTexts()).toEqual(['Data Team Stack (data-team-stack, versions ^1)']);
    await page.goto(`${server.url}/loadouts/dbt-analytics/`);
    expect(await page.locator('#loadout-bundles').count()).toBe(1);
    await page.close();
  });

  it('show a bundle made of markup as text, running none of it', async () => {
    const page = await browser.context.newPage();
    for (const path of ['/bundles/markup-stack/', '/bundles/', '/loadouts/godot-gdscript/']) {
      await page.goto(`${server.url}${path}`);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), path).toBeUndefined();
      expect(await page.locator('main').innerText(), path).toContain(HOSTILE_TITLE);
    }
    await page.goto(`${server.url}/bundles/markup-stack/`);
    expect(await page.locator('main').innerText()).toContain('<script>window.__pwned = 2</script>');
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    await page.close();
  });

  for (const path of ['/bundles/web-team-stack/', '/bundles/']) {
    it(`${path}: no axe-core violations in light and dark, usable at 390 px`, async () => {
      const page = await browser.context.newPage();
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(`${server.url}${path}`);
        expect(await axeViolations(page), `${path} ${scheme}`).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await screenshot(page, path === '/bundles/' ? 'bundles' : 'bundle', 390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} scrolls sideways at 390 px`).toBeLessThanOrEqual(390);
      expect(await axeViolations(page), `${path} at 390 px`).toEqual([]);
      await page.close();
    });
  }
});
