/**
 * `loadout dev` in Chromium: an open loadout page reloads itself when its loadout is saved and
 * shows the change, and its panel shows the loadout's context cost per agent; a broken
 * manifest shows its failing check on the page without a reload. Waits on the page's own
 * events (navigation, the panel's text) with bounded timeouts, never a sleep.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { expect, it, onTestFinished } from 'vitest';
import { startDevSession } from '../../src/dev/session.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { commitAll, initRepo, makeTempDir } from '../helpers/temp.js';
import { CHROMIUM } from '../pages/harness.js';
import { describeWith, NEEDS_CHROMIUM } from '../run/requirements.js';

const WAIT_MS = 60_000;

describeWith(NEEDS_CHROMIUM)('loadout dev in a browser', () => {
  it('reloads an open page when its loadout is saved, and shows a broken manifest in the panel', async () => {
    const root = makeTempDir();
    initRepo(root);
    writeLoadout(root, { id: 'alpha' });
    commitAll(root, 'one loadout');
    const session = await startDevSession({ root, out: join(root, 'dist'), baseUrl: 'http://127.0.0.1:8787', host: '127.0.0.1', port: 0 });
    onTestFinished(() => session.close());
    const profile = mkdtempSync(join(tmpdir(), 'loadout-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    onTestFinished(async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    });
    const page = await browser.newPage();
    // The stream is registered before its response starts (app.ts): once the page has the
    // response, every later event reaches it.
    const streaming = page.waitForResponse((r) => r.url().endsWith('/__loadout/events'), { timeout: WAIT_MS });
    await page.goto(`${session.url}/loadouts/alpha/`);
    await streaming;

    const agents = join(root, 'loadouts', 'alpha', 'AGENTS.md');
    const reloaded = page.waitForEvent('load', { timeout: WAIT_MS });
    writeFileSync(agents, `${readFileSync(agents, 'utf8')}\nMarker two: seen after the reload.\n`);
    await reloaded;
    const panel = page.locator('[data-loadout-dev]');
    await panel.getByText(/alpha: built/u).waitFor({ timeout: WAIT_MS });
    expect(await panel.textContent()).toMatch(/context \(tokens at start \+ on demand\): claude-code \d+ \+ \d+/u);
    expect(await page.content()).toContain('Marker two');

    // A new summary: the loadout's page reloads once (the build), the home page also when the
    // catalogue documents the build deferred are written (the documents event), and then lists it.
    const home = await browser.newPage();
    const homeStreaming = home.waitForResponse((r) => r.url().endsWith('/__loadout/events'), { timeout: WAIT_MS });
    await home.goto(`${session.url}/`);
    await homeStreaming;
    let loads = 0;
    page.on('load', () => loads++);
    const manifest = join(root, 'loadouts', 'alpha', 'loadout.yaml');
    const summary = 'Alpha, summarised again while loadout dev ran; the home page lists it once the documents are written.';
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace(/^summary: .*$/mu, `summary: ${summary}`));
    // The page's text, or '' while it is between two documents (a reload under way: its load event follows).
    const homeText = (): Promise<string> => home.content().catch((error: unknown) => (/navigating/u.test(String(error)) ? '' : Promise.reject(error as Error)));
    for (let load = 0; !(await homeText()).includes(summary); load++) {
      expect(load, 'the home page reloaded without the new summary').toBeLessThan(3);
      await home.waitForEvent('load', { timeout: WAIT_MS });
    }
    await page.getByText(summary).first().waitFor({ timeout: WAIT_MS });
    // The documents event came before the home page's last load: by now a wrong reload of the loadout's page would have started.
    await home.waitForTimeout(300);
    expect(loads).toBe(1);

    writeFileSync(manifest, 'id: [unclosed\n');
    await panel.getByText(/alpha: refused/u).waitFor({ timeout: WAIT_MS });
    expect(await panel.textContent()).toMatch(/FAIL \S+: /u);
    expect(await page.content()).toContain('Marker two');
  }, 240_000);
});
