/**
 * The commands of a loadout page work (docs/installing.md "Getting the CLI"): in Chromium, the
 * command each agent tab's copy button puts on the clipboard, run in a shell with an empty npm
 * cache and HOME and no registry (a closed port), installs the loadout. The page is opened at
 * `localhost` while the tree was built for `127.0.0.1`, so the copied command must follow the
 * server the page came from. A loadout with skills also shows the `skills` command and what it
 * does not install.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PUBLISHED_AGENTS } from '../../src/catalogue/vocabulary.js';
import { HAS_CHROMIUM, launchBrowser, startPagesServer, watchErrors, type PagesServer } from './harness.js';
import { describeWith, NEEDS_CHROMIUM } from '../run/requirements.js';

let server: PagesServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let origin = '';
let home = '';

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  server = await startPagesServer();
  origin = server.url.replace('127.0.0.1', 'localhost');
  browser = await launchBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  home = mkdtempSync(join(tmpdir(), 'loadout-npx-home-'));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (home !== '') rmSync(home, { recursive: true, force: true });
});

describeWith(NEEDS_CHROMIUM)('the commands of a loadout page', () => {
  it('each tab copies an npx command that installs the loadout from the server the page came from', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    for (const agent of PUBLISHED_AGENTS) {
      await page.goto(`${origin}/loadouts/nextjs-app-router/#install-${agent}`);
      await page.click(`#panel-${agent} button.copy[data-copy="cmd-${agent}"]`);
      await page.waitForFunction((a) => document.querySelector(`#panel-${a} button.copy[data-copy="cmd-${a}"]`)?.textContent === 'Copied', agent);
      const command = await page.evaluate(() => navigator.clipboard.readText());
      expect(command).toBe(`npx -y ${origin}/cli/loadout-latest.tgz install nextjs-app-router --agent ${agent} --from ${origin}`);
      const project = mkdtempSync(join(tmpdir(), 'loadout-npx-project-'));
      try {
        // Run as a shell would: the command line as copied, in the project folder (asynchronously: the server is in this process).
        await promisify(execFile)('/bin/sh', ['-c', command], {
          cwd: project,
          env: { PATH: process.env['PATH'] ?? '', HOME: home, npm_config_cache: join(home, '.npm'), npm_config_registry: 'http://127.0.0.1:9/', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
          timeout: 60_000,
        });
        expect(existsSync(join(project, 'AGENTS.md'))).toBe(true);
        expect(existsSync(join(project, 'loadout.lock.json'))).toBe(true);
      } finally {
        rmSync(project, { recursive: true, force: true });
      }
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);

  it('shows the skills command and what it leaves out where the loadout has skills', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${origin}/loadouts/nextjs-app-router/#install-cursor`);
    expect(await page.locator('#skills-cursor').textContent()).toBe(`npx skills add ${origin}/loadouts/nextjs-app-router`);
    expect(await page.locator('#panel-cursor').textContent()).toContain('not the rules, MCP servers or AGENTS.md');
    expect(await page.locator('#panel-cursor a[download]').getAttribute('href')).toContain('download/nextjs-app-router/cursor.zip');
    await page.close();
  });
});
