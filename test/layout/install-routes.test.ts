/**
 * The install routes a page and MCP show (src/layout/install-routes.ts, plugin-commands.ts;
 * issue 57, points 2 to 5): per agent, the route of its plugin manager that works for a catalogue
 * served on loopback, on a private address, or over HTTPS on a public one, or why none does;
 * and the `npx` commands, the registry's only when the build was told the package is published.
 */
import { describe, expect, it } from 'vitest';
import { PUBLISHED_AGENTS, type Agent } from '../../src/catalogue/vocabulary.js';
import { chooseInstallRoutes, cliCommands } from '../../src/layout/install-routes.js';
import type { PluginRouteChoice } from '../../src/layout/plugin-commands.js';
import type { CliRoute } from '../../src/tree-format/addresses.js';

const FOLDER = '/srv/catalogue/dist/plugins';
const plugins = (extra: Partial<NonNullable<CliRoute['plugins']>> = {}): CliRoute => ({ signed: false, plugins: { name: 'acme-loadouts', folder: FOLDER, ...extra } });
const routeOf = (agent: Agent, base: string, route: CliRoute = plugins()): PluginRouteChoice | undefined => chooseInstallRoutes({ base, id: 'x', version: '1.2.0', agent, route }).plugin;
const commandsOf = (choice: PluginRouteChoice | undefined): string[] => (choice === undefined || choice.route === 'none' ? [] : choice.commands);

describe('the plugin manager\'s route of each agent', () => {
  it('a catalogue served on loopback: the built tree\'s folder for Claude Code, Codex and Copilot CLI, the plugin zip for Gemini CLI', () => {
    const base = 'http://localhost:8787';
    expect(routeOf('claude-code', base)).toMatchObject({ route: 'folder', commands: [`claude plugin marketplace add ${FOLDER}`, 'claude plugin install x@acme-loadouts'] });
    expect((routeOf('claude-code', base) as { note: string }).note).toContain('only over HTTPS from a host that is not loopback');
    expect(routeOf('codex', base)).toMatchObject({ route: 'folder', commands: [`codex plugin marketplace add ${FOLDER}`, 'codex plugin add x@acme-loadouts'] });
    expect(routeOf('copilot', base)).toMatchObject({ route: 'folder', commands: [`copilot plugin marketplace add ${FOLDER}`, 'copilot plugin install x@acme-loadouts'] });
    expect(commandsOf(routeOf('gemini-cli', base))).toEqual([`curl -fsSLO ${base}/download/x/plugin-1.2.0.zip`, 'unzip -q -o plugin-1.2.0.zip -d x', 'GEMINI_CLI_TRUST_WORKSPACE=true gemini extensions install ./x --consent']);
    for (const url of ['http://127.0.0.1:18555', 'https://127.0.0.1:8443', 'http://[::1]:8787']) expect(routeOf('claude-code', url)?.route, url).toBe('folder');
  });

  it('a catalogue over HTTPS on a public or private address: Claude Code adds the marketplace by URL; Codex and Copilot CLI have no route without a branch, and say why', () => {
    for (const base of ['https://catalogue.example', 'https://10.0.0.5:8443', 'https://192.0.2.2:43210']) {
      expect(commandsOf(routeOf('claude-code', base)), base).toEqual([`claude plugin marketplace add ${base}/plugins/claude-marketplace.json`, 'claude plugin install x@acme-loadouts']);
      // The folder is on the server's disk, not the reader's.
      for (const agent of ['codex', 'copilot'] as const) {
        const choice = routeOf(agent, base);
        expect(choice?.route, `${agent} ${base}`).toBe('none');
        expect(choice).toMatchObject({ why: expect.stringContaining('from a folder or a git repository, not from a web address'), todo: expect.stringContaining('loadout publish --plugins-remote') });
      }
    }
  });

  it('a catalogue over plain HTTP on another machine: no Claude Code route without a branch, with why and what to do; the branch when there is one', () => {
    const base = 'http://10.0.0.5:8787';
    const none = routeOf('claude-code', base);
    expect(none).toMatchObject({ route: 'none', why: expect.stringContaining(`which ${base} is not`), todo: expect.stringContaining('serve the catalogue over HTTPS') });
    const github = plugins({ git: { repository: 'acme/catalogue', branch: 'plugins' } });
    expect(routeOf('claude-code', base, github)).toMatchObject({ route: 'git', commands: ['claude plugin marketplace add acme/catalogue@plugins', 'claude plugin install x@acme-loadouts'] });
    expect(commandsOf(routeOf('codex', base, github))).toEqual(['codex plugin marketplace add acme/catalogue@plugins', 'codex plugin add x@acme-loadouts']);
    expect(commandsOf(routeOf('copilot', base, github))).toEqual(['git clone --depth 1 --branch plugins https://github.com/acme/catalogue.git acme-loadouts', 'copilot plugin marketplace add ./acme-loadouts', 'copilot plugin install x@acme-loadouts']);
    const other = plugins({ git: { repository: 'https://git.acme.test/loadouts.git', branch: 'marketplace' } });
    expect(commandsOf(routeOf('codex', base, other))[0]).toBe('codex plugin marketplace add https://git.acme.test/loadouts.git --ref marketplace');
    expect(commandsOf(routeOf('claude-code', base, other))[0]).toBe('git clone --depth 1 --branch marketplace https://git.acme.test/loadouts.git acme-loadouts');
  });

  it('without the folder, a loopback catalogue has no folder route', () => {
    expect(routeOf('codex', 'http://localhost:8787', { signed: false, plugins: { name: 'acme-loadouts' } })?.route).toBe('none');
  });

  it('Cursor and Antigravity have no route anywhere, and say why and what to do; Antigravity names the Gemini CLI extension', () => {
    for (const base of ['http://localhost:8787', 'https://catalogue.example']) {
      expect(routeOf('cursor', base)).toMatchObject({ route: 'none', why: expect.stringContaining('in its own settings'), todo: expect.stringContaining('npx command') });
      expect(routeOf('antigravity-cli', base)).toMatchObject({ route: 'none', why: expect.stringContaining('agy plugin import gemini'), todo: expect.stringContaining('Gemini CLI extension') });
    }
  });

  it('every agent gets commands or a reason, never nothing; no route without plugins', () => {
    for (const agent of PUBLISHED_AGENTS) for (const base of ['http://localhost:8787', 'http://10.0.0.5', 'https://catalogue.example']) {
      const choice = routeOf(agent, base);
      expect(choice === undefined ? false : choice.route === 'none' ? choice.why !== '' && choice.todo !== '' : choice.commands.length > 0 && choice.note !== '').toBe(true);
      expect(routeOf(agent, base, { signed: false })).toBeUndefined();
    }
  });
});

describe('the npx commands', () => {
  const base = 'https://catalogue.example';
  it('show the catalogue\'s own CLI alone unless the build was told the package is published', () => {
    expect(cliCommands(base, 'x', 'cursor', undefined).map((c) => c.command)).toEqual([`npx -y ${base}/cli/loadout-latest.tgz install x --agent cursor --from ${base}`]);
    expect(cliCommands(base, 'x', 'cursor', { signed: true }).map((c) => c.route)).toEqual(['catalogue']);
    expect(cliCommands(base, 'x', 'cursor', { signed: true })[0]?.trusts).toContain('trusts whoever serves this address');
  });

  it('with the registry version, lead with it when the catalogue is signed, with the catalogue\'s own otherwise', () => {
    expect(cliCommands(base, 'x', 'cursor', { signed: true, registry_version: '0.1.0' }).map((c) => c.command)).toEqual([`npx -y loadout-cli@0.1.0 install x --agent cursor --from ${base}`, `npx -y ${base}/cli/loadout-latest.tgz install x --agent cursor --from ${base}`]);
    expect(cliCommands(base, 'x', 'cursor', { signed: false, registry_version: '0.1.0' }).map((c) => c.route)).toEqual(['catalogue', 'registry']);
  });

  it('pin the loadout\'s version for MCP', () => {
    expect(chooseInstallRoutes({ base, id: 'x', version: '1.2.0', agent: 'codex', route: undefined, pin: true }).cli[0]?.command).toBe(`npx -y ${base}/cli/loadout-latest.tgz install x --agent codex --version 1.2.0 --from ${base}`);
  });
});
