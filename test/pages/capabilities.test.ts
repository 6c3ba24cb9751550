/**
 * The capability list on the pages in Chromium (issue 54, point 2; issue 53, point 3, the
 * pages' part; src/pages/capabilities.ts): a loadout's page shows "What it can run" as the first
 * panel under its summary, in the words of capabilities/describe.ts; its versions list says what
 * each version added (a version that adds an MCP server against one that only brought a
 * script); each agent's tab says what loadout install asks first and what the agent itself will
 * ask to approve, with the vendor's page; a loadout that runs nothing says so; the home page
 * filters on `runs` and `has=scripts`. What needs consent (hooks, permission modes,
 * auto-approval, wildcard grants), which a catalogue's build refuses today, is rendered from a
 * record that carries it, through the page the build writes: said in words, with what the
 * installer and the plugins do, markup in it shown as text. No axe-core violation in light and
 * dark, no sideways scrolling at 390 px.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FileEntry } from '../../src/catalogue/manifest.js';
import { consentRequests } from '../../src/capabilities/consent.js';
import { deriveCapabilities } from '../../src/layout/capabilities.js';
import { loadSearchAndMcpRoutes } from '../../src/mcp/mount.js';
import { renderLoadoutPage, type VersionsView } from '../../src/pages/loadout.js';
import { createApp } from '../../src/server/app.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import type { PublishedRecord } from '../../src/tree-format/index.js';
import { freePort } from '../helpers/free-port.js';
import { buildSpecCatalogue, type LoadoutSpec, type SpecCatalogue } from '../helpers/spec-catalogue.js';
import { ARTIFACTS, HAS_CHROMIUM, launchBrowser, screenshot, watchErrors, axeViolations } from './harness.js';
import { describeWith, NEEDS_CHROMIUM } from '../run/requirements.js';


/** 1.0.0: a skill with a script and a narrow tool grant; 1.1.0 adds a PostgreSQL MCP server. */
const QUERY_SKILL = { path: 'skills/query/SKILL.md', role: 'skill' as const, skill: 'query', description: 'Query the warehouse.', content: '---\nname: query\ndescription: Query the warehouse.\nallowed-tools: Read, Bash(git status:*)\n---\n\n# query\n\nRun `scripts/run.sh` to check the models.\n' };
const RUN_SCRIPT = { path: 'skills/query/scripts/run.sh', role: 'reference' as const, skill: 'query', description: 'Checks the models.', content: '#!/usr/bin/env bash\ndbt parse\n' };
const DB_HELPER: LoadoutSpec = {
  id: 'db-helper',
  title: 'Database Helper',
  summary: 'Query and check a PostgreSQL warehouse with a skill, a script and, from 1.1.0, an MCP server.',
  stacks: ['sql'],
  categories: ['data'],
  updated: '2026-10-01',
  extra: [QUERY_SKILL, RUN_SCRIPT],
  security: { scanned: true, network: false, scripts: [RUN_SCRIPT.path] },
};
const SPECS: LoadoutSpec[] = [
  DB_HELPER,
  { id: 'plain-notes', title: 'Plain Notes', summary: 'Conventions for writing project notes in Markdown, as text the agent reads and nothing else.', stacks: ['markdown'], categories: ['workflow'], updated: '2026-09-01', rules: ['notes'] },
];

let fixture: SpecCatalogue;
let server: RunningServer;
let url: string;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

/** A hook whose command holds markup, a subagent that skips asking, an MCP server that trusts itself, a wildcard grant. */
const CONSENT_FILES: (FileEntry & { content: string })[] = [
  { path: 'AGENTS.md', role: 'instructions', description: 'x', content: '# Kit\n' },
  { path: 'skills/fmt/SKILL.md', role: 'skill', skill: 'fmt', description: 'x', content: '---\nname: fmt\ndescription: Formats.\nallowed-tools: Bash\nhooks:\n  PostToolUse:\n    - matcher: Edit\n      hooks:\n        - type: command\n          command: echo "<img src=x onerror=window.__pwned=1>"\n---\n\nFormat.\n' },
  { path: 'agents/rev.md', role: 'subagent', description: 'x', content: '---\nname: rev\ndescription: Reviews.\npermissionMode: bypassPermissions\n---\n\nReview.\n' },
  { path: 'mcp/servers.json', role: 'mcp', description: 'x', content: JSON.stringify({ mcpServers: { docs: { command: 'npx', args: ['-y', 'docs-mcp'], trust: true } } }) },
];

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  fixture = await buildSpecCatalogue(SPECS, { prefix: 'loadout-capability-pages-', baseUrl: url, second: { ...DB_HELPER, mcp: true, security: { scanned: true, network: true, scripts: [RUN_SCRIPT.path] } } });
  // The page the build writes, for a record that carries what needs consent.
  const record = JSON.parse(readFileSync(join(fixture.dist, 'api/loadouts/db-helper.json'), 'utf8')) as PublishedRecord;
  const versions = JSON.parse(readFileSync(join(fixture.dist, 'api/loadouts/db-helper/versions.json'), 'utf8')) as VersionsView;
  const capabilities = deriveCapabilities({ files: CONSENT_FILES, text: (p) => CONSENT_FILES.find((f) => f.path === p)?.content });
  const consent = { ...record, id: 'consent-kit', title: 'Consent Kit', capabilities };
  mkdirSync(join(fixture.dist, 'loadouts/consent-kit'), { recursive: true });
  writeFileSync(join(fixture.dist, 'loadouts/consent-kit/index.html'), renderLoadoutPage(url, consent, versions));
  const routes = await loadSearchAndMcpRoutes(fixture.dist, url);
  server = await listen(createApp({ routes, distDir: fixture.dist, baseUrl: url, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port, host: '127.0.0.1' });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  fixture?.remove();
});

const texts = (page: Page, selector: string): Promise<string[]> => page.locator(selector).evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText.trim()));

describeWith(NEEDS_CHROMIUM)('what a loadout can run, on its page', () => {
  it('is the first panel under the summary, in the words the CLI uses, and says nothing needs consent', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${url}/loadouts/db-helper/`);
    expect(await page.locator('main h2').first().textContent()).toBe('What it can run');
    // The panel comes after the summary and before the install box.
    expect(await page.evaluate(() => {
      const lead = document.querySelector('.lead');
      const panel = document.getElementById('capabilities-panel');
      const install = document.getElementById('install');
      return lead !== null && panel !== null && install !== null && (lead.compareDocumentPosition(panel) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0 && (panel.compareDocumentPosition(install) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    })).toBe(true);
    expect(await page.locator('#capabilities-summary').textContent()).toBe('It starts or connects to 1 MCP server, brings 1 script, grants 1 permission, reads 1 secret.');
    expect(await texts(page, '#capabilities-panel h3')).toEqual(['MCP servers it starts or connects to', 'Tools and approvals it grants', 'Scripts it brings', 'Environment variables it reads']);
    const items = await texts(page, '#capabilities-panel li');
    expect(items).toContain('"postgres": runs postgres-mcp from PyPI through uvx, version not pinned: the newest at each start; reads POSTGRES_URL (secret)');
    expect(items).toContain('skill "query" lets the agent use Read, Bash(git status:*) without asking');
    expect(items).toContainEqual(expect.stringMatching(/^skills\/query\/scripts\/run\.sh \(bash\), named in skills\/query\/SKILL\.md/u));
    expect(await page.locator('#capabilities-consent').textContent()).toMatch(/^Nothing in it needs your consent/u);
    expect(await page.locator('nav.toc a').first().getAttribute('href')).toBe('#capabilities');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says in the versions list what each version added', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${url}/loadouts/db-helper/`);
    const rows = await page.locator('#versions + .table-wrap tbody tr').evaluateAll((trs) => trs.map((tr) => ({ version: (tr.querySelector('th') as HTMLElement).innerText.trim(), runs: (tr.querySelector('td[data-label="What it can run"]') as HTMLElement).innerText.trim() })));
    expect(rows.map((r) => r.version)).toEqual(['1.1.0 latest', '1.0.0']);
    expect(rows[0]?.runs).toMatch(/^Adds to what it can run/u);
    expect(rows[0]?.runs).toContain('adds new: MCP server "postgres": runs postgres-mcp from PyPI through uvx');
    expect(rows[0]?.runs).toContain('adds new: variable POSTGRES_URL (secret)');
    expect(rows[1]?.runs).toBe('first version: brings 1 script, grants 1 permission');
    await page.close();
  });

  it('says on each agent\'s tab what loadout install and the agent itself will ask to approve, with the vendor\'s page', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${url}/loadouts/db-helper/`);
    const asks = (agent: string): Promise<string[]> => texts(page, `#panel-${agent} ul.asks li`);
    expect(await page.locator('#asks-claude-code').textContent()).toBe('What Claude Code will ask you to approve');
    const claude = await asks('claude-code');
    expect(claude[0]).toBe('loadout install asks nothing: nothing it writes for this agent needs your consent.');
    expect(claude).toContainEqual(expect.stringMatching(/^Claude Code asks whether you trust the files in the project folder/u));
    expect(claude).toContainEqual(expect.stringMatching(/^It asks you to approve each MCP server of the project's \.mcp\.json once/u));
    expect(await page.locator('#panel-claude-code ul.asks a[href="https://code.claude.com/docs/en/mcp"]').count()).toBe(1);
    expect(await asks('codex')).toContainEqual(expect.stringMatching(/^Codex reads the project's \.codex\/config\.toml, where the MCP servers go, only once you trust the project/u));
    // Gemini CLI asks to activate each skill; the loadout has one.
    expect(await asks('gemini-cli')).toContainEqual(expect.stringMatching(/^It asks for your consent each time it activates one of the skills/u));
    expect(await asks('cursor')).toContainEqual(expect.stringMatching(/^Cursor asks you to approve each MCP server before it connects/u));
    await page.close();
  });

  it('says so of a loadout that runs nothing, and its agents ask only what they ask of any folder', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${url}/loadouts/plain-notes/`);
    expect(await page.locator('#capabilities-summary').textContent()).toBe('Runs nothing It runs nothing (no MCP server, hook, script or grant).');
    expect(await page.locator('#capabilities-summary .badge.ok').textContent()).toBe('Runs nothing');
    expect(await page.locator('#capabilities-panel h3').count()).toBe(0);
    expect(await texts(page, '#panel-claude-code ul.asks li')).toEqual([
      'loadout install asks nothing: nothing it writes for this agent needs your consent.',
      'Claude Code asks whether you trust the files in the project folder the first time it starts there. (source)',
    ]);
    expect(await texts(page, '#panel-cursor ul.asks li')).toEqual(['loadout install asks nothing: nothing it writes for this agent needs your consent.']);
    await page.close();
  });

  it('says in words what needs consent, that the installer asks and the plugins leave it out, per agent, with markup shown as text', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${url}/loadouts/consent-kit/`);
    expect(await page.locator('#capabilities-consent').textContent()).toBe('What needs your consent');
    expect(await page.locator('#capabilities-consent + p').textContent()).toBe("Each of these lets the agent act without asking you, or run a command on its own events. loadout install lists them and writes nothing until you say yes (or pass --accept-capabilities); the agents' own plugins leave them out.");
    const capabilities = deriveCapabilities({ files: CONSENT_FILES, text: (p) => CONSENT_FILES.find((f) => f.path === p)?.content });
    const requests = consentRequests(capabilities);
    expect(requests.map((r) => r.kind).sort()).toEqual(['auto-approval', 'hook', 'permission-mode', 'wildcard-grant']);
    const labels = { hook: 'Hook', 'permission-mode': 'Permission mode', 'auto-approval': 'Auto-approval', 'wildcard-grant': 'Wildcard tool grant' };
    expect(await texts(page, 'ul.consent li')).toEqual(requests.map((r) => `${labels[r.kind]}: ${r.message}`));
    expect(await page.locator('#capabilities-panel .badge.note', { hasText: 'needs your consent' }).count()).toBe(4);
    // Each agent's tab names only what its own install carries: Codex gets the skill's hook and grant, not the subagent's mode.
    const codex = await texts(page, '#panel-codex ul.asks li');
    expect(codex.filter((t) => t.startsWith('loadout install asks first')).map((t) => /\((\w[\w ]*)\)/u.exec(t)?.[1])).toEqual(requests.filter((r) => r.agents.includes('codex')).map((r) => labels[r.kind].toLowerCase()));
    expect(codex.join('\n')).not.toContain('permissionMode');
    expect((await texts(page, '#panel-claude-code ul.asks li')).filter((t) => t.startsWith('loadout install asks first'))).toHaveLength(requests.filter((r) => r.agents.includes('claude-code')).length);
    // The hook's markup is text.
    expect(await page.locator('main img, main [onerror]').count()).toBe(0);
    expect(await page.locator('ul.consent').textContent()).toContain('<img src=x onerror=window.__pwned=1>');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('passes axe-core in light and dark and fits 390 px, screenshots saved', async () => {
    const page = await browser.context.newPage();
    mkdirSync(ARTIFACTS, { recursive: true });
    for (const path of ['/loadouts/db-helper/', '/loadouts/consent-kit/']) {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(`${url}${path}`);
        expect(await axeViolations(page), `${path} ${scheme}`).toEqual([]);
        await page.locator('#capabilities-panel').screenshot({ path: join(ARTIFACTS, `capabilities-panel-${path.split('/')[2] ?? ''}-${scheme}.png`) });
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await screenshot(page, `capabilities-${path.split('/')[2] ?? ''}`, 390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} at 390 px`).toBeLessThanOrEqual(390);
      expect(await axeViolations(page), `${path} at 390 px`).toEqual([]);
    }
    await page.close();
  });
});

describeWith(NEEDS_CHROMIUM)('the home page filters on what a loadout runs', () => {
  it('keeps runs and has=scripts in the address, as the search API names them', async () => {
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${url}/?runs=nothing`);
    const shown = (): Promise<string[]> => page.locator('#loadouts > li:not([hidden])').evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset['id'] ?? ''));
    await page.waitForFunction(() => document.getElementById('loadouts')?.dataset['state'] === 'ready');
    expect(await shown()).toEqual(['plain-notes']);
    expect(await page.locator('li[data-id="plain-notes"] .counts').textContent()).toMatch(/· runs nothing$/u);
    await page.selectOption('#f-runs', 'something');
    expect(await shown()).toEqual(['db-helper']);
    expect(new URL(page.url()).search).toBe('?runs=something');
    await page.selectOption('#f-runs', '');
    await page.selectOption('#f-has', 'scripts');
    expect(await shown()).toEqual(['db-helper']);
    expect(new URL(page.url()).search).toBe('?has=scripts');
    // The same view as JSON from the search API.
    const api = (await (await fetch(`${url}/api/v1/search?has=scripts`)).json()) as { results: { id: string }[] };
    expect(api.results.map((r) => r.id)).toEqual(['db-helper']);
    expect(errors).toEqual([]);
    await page.close();
  });
});
