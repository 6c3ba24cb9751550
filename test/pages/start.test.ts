/**
 * `npm start`'s path with nothing configured (DESIGN.md section 2: it builds and serves): the
 * real CLI, from source, builds a catalogue and serves it from a folder with no `data/`, with
 * every variable the configuration reads removed from the environment. The description document
 * is truthful (a generated ALTCHA key, no site key), the session answers with the ALTCHA
 * provider, the keys land in `data/` with mode 0600, and a browser fills in the form, solves
 * the challenge, submits, and reaches the status page. The one deviation from `npm start`:
 * `--port 0`, so the test never collides with a server on 8787.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHALLENGE_SECRET_FILE, FORM_TOKEN_SECRET_FILE } from '../../src/submissions/setup.js';
import { writeLoadout } from '../helpers/loadouts.js';
import { HAS_CHROMIUM, launchBrowser } from './harness.js';
import { itWith, NEEDS_CHROMIUM } from '../run/requirements.js';

const ENTRY = fileURLToPath(new URL('../helpers/cli-entry.ts', import.meta.url));
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
/** Every variable `resolveConfig` reads (src/cli/config.ts), none of which `npm start` needs. */
const CONFIG_VARIABLES = /^(?:LOADOUT_BASE_URL|PORT|DATABASE_URL|SUBMISSIONS_OPEN|FORM_TOKEN_SECRET|CHALLENGE_[A-Z_]+|RATE_LIMIT_[A-Z_]+|TRUST_PROXY)$/u;

let root: string;
let child: ChildProcess;
let url: string;
let served = '';
let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loadout-start-'));
  writeLoadout(root, { id: 'first-loadout', title: 'First Loadout' });
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !CONFIG_VARIABLES.test(k))) as Record<string, string>;
  const build = spawn(process.execPath, ['--import', TSX, ENTRY, 'build'], { cwd: root, env: { ...env, CI: 'true' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let buildErrors = '';
  build.stderr?.on('data', (d: Buffer) => (buildErrors += d.toString()));
  const code = await new Promise((resolve) => build.on('exit', resolve));
  if (code !== 0) throw new Error(`build failed: ${buildErrors}`);
  child = spawn(process.execPath, ['--import', TSX, ENTRY, 'serve', '--port', '0'], { cwd: root, env: { ...env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
  url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (d: Buffer) => {
      output += d.toString();
      const found = /^serving \S+ at (http:\/\/\S+) /mu.exec(output)?.[1];
      if (found !== undefined) {
        served = output;
        resolve(found);
      }
    });
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
  if (HAS_CHROMIUM) browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

describe('npm start with no configuration', () => {
  it('serves the ALTCHA challenge from a key generated into data/, and says so truthfully', async () => {
    expect(served).toContain('bot challenge: altcha');
    const description = (await (await fetch(`${url}/api/v1`)).json()) as Record<string, unknown>;
    expect(description).toMatchObject({ submissions_open: true, config: { database: true, challenge_secret: true, challenge_site_key: false } });
    const session = await fetch(`${url}/api/v1/submissions/session`);
    expect(session.status).toBe(200);
    expect(await session.json()).toMatchObject({ challenge_provider: 'altcha', challenge_site_key: null, challenge_url: 'http://localhost:8787/api/v1/submissions/challenge', form_token: expect.any(String) as unknown });
    for (const name of [CHALLENGE_SECRET_FILE, FORM_TOKEN_SECRET_FILE, 'catalogue.db']) expect(statSync(join(root, 'data', name)).isFile(), name).toBe(true);
    expect(statSync(join(root, 'data', CHALLENGE_SECRET_FILE)).mode & 0o777).toBe(0o600);
  });

  itWith(NEEDS_CHROMIUM)('serves a form that a browser fills in, solves and submits, and a status page', async () => {
    const page = await (browser as NonNullable<typeof browser>).context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${url}/submit/`);
    await page.fill('#f-name', 'Go Service Kit');
    await page.fill('#f-summary', 'Conventions for Go HTTP services with chi, sqlc and table-driven tests.');
    await page.selectOption('#f-category', 'web-app');
    await page.fill('#f-stacks', 'go');
    await page.check('input[name=agents][value=codex]');
    await page.click('#paste-box summary');
    await page.fill('#f-paste-path', 'AGENTS.md');
    await page.fill('#f-paste-content', '# Go Service Kit\n\nRun `go test ./...` before you commit.\n');
    await page.click('#f-paste-add');
    await page.selectOption('#f-licence', 'MIT');
    await page.check('#f-rights');
    await page.click('#submit-button');
    await page.waitForSelector('#status-link');
    await page.click('#status-link');
    await page.waitForSelector('#submission-status');
    expect(await page.locator('#submission-status').textContent()).toBe('pending-review');
    expect(await page.locator('h1').textContent()).toBe('Submission of go-service-kit');
    expect(errors).toEqual([]);
    await page.close();
  });
});
