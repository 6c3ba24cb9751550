/**
 * What every page test file shares: the fixture built for the address the server really
 * listens on, a server assembled as `loadout serve` assembles it (search and MCP routes, and
 * the submissions API from `setUpSubmissions` with the configuration of `resolveConfig`, so
 * the embedded ALTCHA challenge with a generated key and a fresh SQLite database), and one
 * Chromium per file (`/usr/bin/chromium` through playwright-core's persistent context).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { freePort } from '../helpers/free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { resolveConfig } from '../../src/cli/config.js';
import { loadSearchAndMcpRoutes } from '../../src/mcp/mount.js';
import { createApp } from '../../src/server/app.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { setUpSubmissions, type SubmissionsSetup } from '../../src/submissions/setup.js';
import { buildPagesFixture, type PagesFixture } from './fixture.js';
import { CHROMIUM_PATH, NEEDS_CHROMIUM } from '../run/requirements.js';

export const CHROMIUM = CHROMIUM_PATH;
/** True when the browser tests can run here (test/run/requirements.ts; declare them with `describeWith(NEEDS_CHROMIUM)`). */
export const HAS_CHROMIUM = NEEDS_CHROMIUM.met;
/** Where screenshots go (git-ignored). */
export const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts');

/** A running catalogue: the fixture, its server and the submissions setup. */
export interface PagesServer {
  url: string;
  fixture: PagesFixture;
  submissions: SubmissionsSetup;
  close(): Promise<void>;
}

/** Builds the fixture and serves it as `loadout serve` does, with no challenge variables set. */
export async function startPagesServer(): Promise<PagesServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const fixture = await buildPagesFixture(baseUrl);
  const dataDir = join(fixture.root, 'data');
  mkdirSync(dataDir, { recursive: true });
  const config = resolveConfig({ LOADOUT_BASE_URL: baseUrl, DATABASE_URL: `sqlite:${join(dataDir, 'catalogue.db')}`, RATE_LIMIT_PER_ADDRESS: '1000' });
  const routes = await loadSearchAndMcpRoutes(fixture.dist, baseUrl);
  const submissions = await setUpSubmissions(config, { distDir: fixture.dist, dataDir });
  routes.push(submissions.mount);
  let server: RunningServer;
  try {
    server = await listen(createApp({ routes, distDir: fixture.dist, baseUrl, submissionsOpen: submissions.submissionsOpen, config: submissions.report }), { port, host: '127.0.0.1' });
  } catch (error) {
    await submissions.close();
    fixture.remove();
    throw error;
  }
  return {
    url: baseUrl,
    fixture,
    submissions,
    async close() {
      await server.close();
      await submissions.close();
      fixture.remove();
    },
  };
}

/** One Chromium with its own profile; `close` removes the profile. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'loadout-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Collects what goes wrong on `page`: script errors and failed responses (the browser's own favicon request aside). */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().includes('favicon')) errors.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) errors.push(`${r.status()} ${r.url()}`);
  });
  return errors;
}

/** Saves a full-page screenshot of `page` at `width` px as `test/artifacts/<name>-<width>.png`. */
export async function screenshot(page: Page, name: string, width: number): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.setViewportSize({ width, height: 900 });
  await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
}

/** axe-core's script, injected into a page by {@link axeViolations}. */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One violation as axe-core reports it (the fields the message shows). */
interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's violations on `page` as it is now (WCAG 2.x A and AA, and best practices), one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
