/**
 * The submission form in Chromium against a server assembled as `loadout serve` is, with no
 * challenge variables set (docs/maintaining.md "The bot challenge"): the browser's own checks
 * put errors next to their fields before anything is sent; files come in picked, as a folder
 * and pasted, with paths editable; the real ALTCHA challenge is solved by the widget's worker;
 * the server's 422 shows at the file its pointer names; a corrected form is accepted and its
 * link reaches the status page; and the solution the browser sent is refused when replayed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchBrowser, startPagesServer, type PagesServer } from './harness.js';
import { describeWith, NEEDS_CHROMIUM } from '../run/requirements.js';

let server: PagesServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let folder: string;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  server = await startPagesServer();
  browser = await launchBrowser();
  // A loadout folder as an author has it: the files, a loadout.yaml and a hidden file.
  folder = mkdtempSync(join(tmpdir(), 'loadout-upload-'));
  const files: Record<string, string> = {
    'AGENTS.md': '# Rust CLI Helpers\n\nUse clap for arguments and anyhow for errors. Run `cargo test` before you commit.\n',
    'skills/release/SKILL.md': '---\nname: release\ndescription: Cut a release with cargo-release and a changelog entry.\n---\n\n# release\n\nRun `cargo release patch` after the tests pass.\n',
    'loadout.yaml': 'id: not-sent\n',
    '.DS_Store': 'junk',
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(folder, 'rust-cli', path, '..'), { recursive: true });
    writeFileSync(join(folder, 'rust-cli', path), content);
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

/** The paths in the file list, in order. */
const listedPaths = (page: Page): Promise<string[]> => page.locator('#file-list input[type=text]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));

async function fillFields(page: Page): Promise<void> {
  await page.fill('#f-name', 'Rust CLI Helpers');
  await page.fill('#f-summary', 'Conventions and helpers for writing Rust command-line tools.');
  await page.fill('#f-highlights', 'clap for arguments\nanyhow for errors');
  await page.selectOption('#f-category', 'workflow');
  await page.fill('#f-stacks', 'rust, clap');
  await page.check('input[name=agents][value=claude-code]');
  await page.check('input[name=agents][value=cursor]');
  await page.selectOption('#f-licence', 'MIT');
  await page.fill('#f-author-name', 'Ada Lovelace');
  await page.fill('#f-author-github', 'ada');
  await page.fill('#f-contact-email', 'ada@example.org');
  await page.check('#f-rights');
}

describeWith(NEEDS_CHROMIUM)('the submission form', () => {
  it('checks the fields in the browser, shows the server 422 at its file, then submits with a solved ALTCHA challenge and reaches the status page; the solution does not pass twice', async () => {
    const page = await browser.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const posts: Request[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/v1/submissions')) posts.push(r);
    });
    await page.goto(`${server.url}/submit/`);

    // Nothing filled in: the browser's checks answer, next to each field, and nothing is sent.
    await page.click('#submit-button');
    await page.waitForSelector('#error-summary:not([hidden])');
    expect(await page.locator('#e-f-name').textContent()).toBe('is missing (expected 3 to 60 characters)');
    expect(await page.locator('#f-name').getAttribute('aria-invalid')).toBe('true');
    for (const id of ['f-summary', 'f-category', 'f-stacks', 'f-agents', 'f-files', 'f-licence', 'f-rights']) expect(await page.locator(`#e-${id}`).isVisible(), id).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('error-summary');
    expect(await page.locator('#error-summary li').count()).toBe(8);
    // A limit: 2 characters is too short a name.
    await page.fill('#f-name', 'Ru');
    await page.click('#submit-button');
    await page.waitForFunction(() => document.getElementById('e-f-name')?.textContent === 'has 2 characters (expected 3 to 60)');
    expect(posts).toHaveLength(0);

    // Files: a folder (its own name dropped, loadout.yaml and hidden files left out), a picked
    // file whose path is edited, and a pasted one outside the layout.
    await fillFields(page);
    await page.setInputFiles('#f-pick-folder', join(folder, 'rust-cli'));
    await page.waitForFunction(() => document.querySelectorAll('#file-list li').length === 2);
    expect(await listedPaths(page)).toEqual(['AGENTS.md', 'skills/release/SKILL.md']);
    expect(await page.locator('#files-total').textContent()).toContain('2 files were left out');
    await page.setInputFiles('#f-pick', { name: 'errors.md', mimeType: 'text/markdown', buffer: Buffer.from('---\ndescription: Errors\nglobs: "**/*.rs"\napplyTo: "**/*.rs"\n---\n\nUse anyhow::Result in binaries.\n') });
    await page.waitForFunction(() => document.querySelectorAll('#file-list li').length === 3);
    await page.locator('#file-list input[type=text]').nth(2).fill('rules/errors.md');
    await page.click('#paste-box summary');
    await page.fill('#f-paste-path', 'notes/todo.md');
    await page.fill('#f-paste-content', '# Todo\n\nNothing yet.\n');
    await page.click('#f-paste-add');
    expect(await listedPaths(page)).toEqual(['AGENTS.md', 'skills/release/SKILL.md', 'rules/errors.md', 'notes/todo.md']);

    // The server refuses the pasted file's path: 422, shown at that file.
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/v1/submissions') && r.request().method() === 'POST');
    await page.click('#submit-button');
    expect((await refused).status()).toBe(422);
    const row = page.locator('#file-list li').nth(3);
    await row.locator('.error').waitFor({ state: 'visible' });
    expect(await row.locator('.error').textContent()).toMatch(/^"notes\/todo\.md" is not in the loadout layout/);
    expect(await row.locator('input[type=text]').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#error-summary li').allTextContents()).toEqual([expect.stringMatching(/^File 4 "notes\/todo\.md" is not in the loadout layout/)]);
    const first = posts[0]?.postDataJSON() as Record<string, unknown>;
    expect(first).toMatchObject({ name: 'Rust CLI Helpers', category: 'workflow', stacks: ['rust', 'clap'], agents: ['claude-code', 'cursor'], licence: 'MIT', rights_confirmed: true, author: { name: 'Ada Lovelace', github: 'ada' } });
    expect(typeof first['form_token']).toBe('string');
    expect(typeof first['challenge_token']).toBe('string');

    // Corrected: the file removed. A new solution is solved, and the submission is accepted.
    await row.getByRole('button', { name: /Remove/ }).click();
    const accepted = page.waitForResponse((r) => r.url().endsWith('/api/v1/submissions') && r.request().method() === 'POST');
    await page.click('#submit-button');
    const answer = await accepted;
    expect(answer.status(), await answer.text()).toBe(202);
    const second = posts[1]?.postDataJSON() as Record<string, unknown>;
    expect(second['challenge_token']).not.toBe(first['challenge_token']);
    expect((second['files'] as { path: string }[]).map((f) => f.path)).toEqual(['AGENTS.md', 'skills/release/SKILL.md', 'rules/errors.md']);
    const { id } = (await answer.json()) as { id: string };
    await page.waitForSelector('#submit-result:not([hidden])');
    expect(await page.locator('#submit-form').isHidden()).toBe(true);

    await page.click('#status-link');
    await page.waitForURL(`${server.url}/submissions/${id}/`);
    expect(await page.locator('h1').textContent()).toBe('Submission of rust-cli-helpers');
    expect(await page.locator('#submission-status').textContent()).toBe('pending-review');
    expect(await page.locator('#verification ~ .table-wrap tbody tr').count()).toBe(10);
    expect(await page.locator('body').textContent()).not.toContain('ada@example.org');

    // The solution the browser sent passes once: replayed with a fresh form token, it is refused.
    const session = (await (await fetch(`${server.url}/api/v1/submissions/session`)).json()) as { form_token: string };
    const replay = await fetch(`${server.url}/api/v1/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...second, id: 'another-id', form_token: session.form_token }),
    });
    expect(replay.status).toBe(403);
    expect(await replay.json()).toMatchObject({ code: 'forbidden', challenge_errors: ['already-used'] });
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('answers a missing submission with a 404 page, and redirects the address without its slash', async () => {
    const missing = await fetch(`${server.url}/submissions/0190b1d2-7c4e-4f5a-9b1e-2a3c4d5e6f70/`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await missing.text()).toContain('No such submission');
    const bare = await fetch(`${server.url}/submissions/0190b1d2-7c4e-4f5a-9b1e-2a3c4d5e6f70`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/submissions/0190b1d2-7c4e-4f5a-9b1e-2a3c4d5e6f70/');
    const odd = await fetch(`${server.url}/submissions/%3Cscript%3E/`);
    expect(odd.status).toBe(404);
    expect(await odd.text()).toContain('&lt;script&gt;');
  });
});
