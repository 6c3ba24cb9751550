/**
 * What each agent's tab of a loadout page offers first, read in Chromium (issue 57, points 2 to
 * 5): on a catalogue served on loopback, the built tree's plugins folder for Claude Code, Codex
 * and Copilot CLI (Claude Code refuses plugin zips from a loopback host), Gemini CLI's command
 * that runs unattended, and for Cursor and Antigravity why no plugin manager route fits and what
 * to do; on a catalogue built for a public HTTPS address, Claude Code's marketplace by URL, left
 * at that address by the page's script (its zips are there), and Codex and Copilot CLI saying
 * why they have no route. No tab shows the npm registry's command while the build is not told
 * the package is published there. The commands themselves are run with the agents' CLIs in
 * test/install/agent-clis-plugins.test.ts (opt-in).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PUBLISHED_AGENTS } from '../../src/catalogue/vocabulary.js';
import { createApp } from '../../src/server/app.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { buildSpecCatalogue, type SpecCatalogue } from '../helpers/spec-catalogue.js';
import { HAS_CHROMIUM, launchBrowser, startPagesServer, watchErrors, type PagesServer } from './harness.js';
import { describeWith, NEEDS_CHROMIUM } from '../run/requirements.js';

const PUBLIC = 'https://catalogue.example';
let local: PagesServer;
let publicTree: SpecCatalogue;
let publicServer: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  local = await startPagesServer();
  publicTree = await buildSpecCatalogue([{ id: 'kit', title: 'Kit', summary: 'A kit of instructions and a skill for the tests of the install tabs.', stacks: ['typescript'], categories: ['web-app'], updated: '2026-11-01', skills: [{ name: 'add-thing', description: 'Add a thing with tests.', reference: 'notes' }] }], { prefix: 'loadout-tabs-', baseUrl: PUBLIC });
  publicServer = await listen(createApp({ distDir: publicTree.dist, baseUrl: PUBLIC, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port: 0, host: '127.0.0.1' });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await local?.close();
  await publicServer?.close();
  publicTree?.remove();
});

/** What one tab shows of its routes, as the reader sees it once the tab is selected. */
interface TabView {
  /** The plugin manager's commands, as the copy button would copy them (after the page's script). */
  plugin: string | null;
  /** The sentence that says why no plugin manager route fits, when it is there. */
  none: string | null;
  /** The text of the whole panel. */
  text: string;
  /** The npx commands, in order. */
  npx: string[];
}

async function readTab(page: Page, agent: string): Promise<TabView> {
  await page.click(`#tab-${agent}`);
  const panel = page.locator(`#panel-${agent}`);
  expect(await panel.isVisible()).toBe(true);
  const plugin = (await panel.locator(`#plugin-${agent}`).count()) === 0 ? null : await panel.locator(`#plugin-${agent}`).textContent();
  const none = (await panel.locator(`#plugin-none-${agent}`).count()) === 0 ? null : await panel.locator(`#plugin-none-${agent}`).textContent();
  const npx = await panel.locator('pre[id^="cmd-"]').allTextContents();
  return { plugin, none, text: (await panel.textContent()) ?? '', npx };
}

describeWith(NEEDS_CHROMIUM)('the install tabs of a loadout page', () => {
  it('on a catalogue served on loopback, each tab leads with a route that works here or says why there is none', async () => {
    const origin = local.url.replace('127.0.0.1', 'localhost');
    const folder = join(local.fixture.dist, 'plugins');
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${origin}/loadouts/nextjs-app-router/`);
    const tabs = Object.fromEntries(await PUBLISHED_AGENTS.reduce(async (acc, agent) => [...(await acc), [agent, await readTab(page, agent)] as const], Promise.resolve([] as (readonly [string, TabView])[])));
    const tab = (agent: string): TabView => tabs[agent] as TabView;

    // Point 3: not the URL marketplace, which Claude Code refuses on loopback, but the tree's folder.
    expect(tab('claude-code').plugin).toBe(`claude plugin marketplace add ${folder}\nclaude plugin install nextjs-app-router@loadout-catalogue`);
    expect(tab('claude-code').text).not.toContain('claude-marketplace.json');
    expect(tab('claude-code').text).toContain("from the built tree's plugins folder on this machine");
    expect(tab('claude-code').text).toContain('only over HTTPS from a host that is not loopback');
    // Point 5: Codex and Copilot CLI have a route on a local catalogue too.
    expect(tab('codex').plugin).toBe(`codex plugin marketplace add ${folder}\ncodex plugin add nextjs-app-router@loadout-catalogue`);
    expect(tab('copilot').plugin).toBe(`copilot plugin marketplace add ${folder}\ncopilot plugin install nextjs-app-router@loadout-catalogue`);
    // Point 4: Gemini CLI's command runs unattended, and its zip comes from the server the page came from.
    expect(tab('gemini-cli').plugin).toBe(`curl -fsSLO ${origin}/download/nextjs-app-router/plugin-1.1.0.zip\nunzip -q -o plugin-1.1.0.zip -d nextjs-app-router\nGEMINI_CLI_TRUST_WORKSPACE=true gemini extensions install ./nextjs-app-router --consent`);
    expect(tab('gemini-cli').text).toContain('without it Gemini CLI asks whether to trust the folder and waits for an answer');
    // Point 5: where no route fits, why and what to do; Antigravity speaks of Gemini CLI's extensions.
    expect(tab('cursor').plugin).toBeNull();
    expect(tab('cursor').none).toContain("No route of Cursor's own plugin manager fits this catalogue: Cursor adds plugin marketplaces in its own settings");
    expect(tab('cursor').none).toContain('Install with the npx command below');
    expect(tab('antigravity-cli').plugin).toBeNull();
    expect(tab('antigravity-cli').none).toContain('agy plugin import gemini');
    expect(tab('antigravity-cli').none).toContain("install the loadout's Gemini CLI extension (the Gemini CLI tab) and import it");
    // Point 2: the catalogue's own CLI alone, which says whom it trusts.
    for (const agent of PUBLISHED_AGENTS) {
      expect(tab(agent).npx, agent).toEqual([`npx -y ${origin}/cli/loadout-latest.tgz install nextjs-app-router --agent ${agent} --from ${origin}`]);
      expect(tab(agent).text, agent).not.toContain('loadout-cli@');
      expect(tab(agent).text, agent).toContain('it trusts whoever serves this address');
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('on a catalogue built for a public HTTPS address, Claude Code adds its marketplace by URL, which the page keeps at that address; Codex and Copilot CLI say why they have no route', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${publicServer.url.replace(/\/+$/u, '')}/loadouts/kit/`);
    const claude = await readTab(page, 'claude-code');
    expect(claude.plugin).toBe(`claude plugin marketplace add ${PUBLIC}/plugins/claude-marketplace.json\nclaude plugin install kit@loadout-catalogue`);
    expect(claude.text).toContain("from the catalogue's marketplace, added by its address");
    for (const agent of ['codex', 'copilot']) {
      const tab = await readTab(page, agent);
      expect(tab.plugin, agent).toBeNull();
      expect(tab.none, agent).toContain('from a folder or a git repository, not from a web address, and this catalogue has no plugins branch');
      expect(tab.none, agent).toContain('loadout publish --plugins-remote');
    }
    await page.close();
  });
});
