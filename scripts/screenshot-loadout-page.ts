// Regenerates docs/images/loadout-page.png, the README's picture of a loadout page, from the
// current code and loadouts (issue 57, point 14): builds this repository's catalogue into a
// temporary folder for https://catalogue.example, serves it as `loadout serve` does on
// 127.0.0.1, and opens the page in Chromium (/usr/bin/chromium, through playwright-core) at
// https://catalogue.example/loadouts/<id>/, every request of that address answered by the local
// server, so that the commands in the picture name the catalogue's public address (a catalogue
// built for an address of this machine would show this machine's folders). Then it screenshots
// the top of the page with `<agent>`'s install tab selected.
//
//   npm run screenshot:loadout-page [-- <loadout id> [<agent>]]   (default: nextjs-app-router claude-code)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { createApp } from '../src/server/app.js';
import { listen } from '../src/server/listen.js';
import { buildCatalogue } from '../src/tree/build.js';

const ROOT = join(import.meta.dirname, '..');
const PUBLIC = 'https://catalogue.example';
const OUT = join(ROOT, 'docs', 'images', 'loadout-page.png');
const [id = 'nextjs-app-router', agent = 'claude-code'] = process.argv.slice(2);

const scratch = mkdtempSync(join(tmpdir(), 'loadout-screenshot-'));
try {
  const dist = join(scratch, 'dist');
  const built = await buildCatalogue({ root: ROOT, out: dist, baseUrl: PUBLIC, clean: true });
  if (!built.written) throw new Error(`the build refused ${built.refused.join(', ')}: run loadout verify`);
  const server = await listen(createApp({ distDir: dist, baseUrl: PUBLIC, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port: 0, host: '127.0.0.1' });
  const local = server.url.replace(/\/+$/u, '');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1200, height: 1200 }, deviceScaleFactor: 1 });
    // The public address, answered by the local server (nothing leaves this machine).
    await context.route(`${PUBLIC}/**`, async (route) => {
      const url = new URL(route.request().url());
      const response = await fetch(`${local}${url.pathname}${url.search}`);
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      await route.fulfill({ status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) });
    });
    const page = await context.newPage();
    await page.goto(`${PUBLIC}/loadouts/${id}/#install-${agent}`);
    await page.locator(`#tab-${agent}[aria-selected="true"]`).waitFor();
    await page.screenshot({ path: OUT, clip: { x: 0, y: 0, width: 1200, height: 1200 } });
    console.error(`wrote ${OUT} (${PUBLIC}/loadouts/${id}/, the ${agent} tab)`);
  } finally {
    await browser.close();
    await server.close();
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
