import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as schemas from '../../src/mcp/schemas.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

let running: FixtureServer;
let client: Client;

beforeAll(async () => {
  running = await startFixtureServer();
  client = await running.connect();
});
afterAll(async () => running?.close());

/** Calls a tool that must succeed; checks the structured content against `schema` and returns it. */
async function call<S extends z.ZodType>(name: string, args: Record<string, unknown>, schema: S): Promise<{ value: z.output<S>; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  expect(text.length).toBeGreaterThan(0);
  return { value: schema.parse(result.structuredContent), text };
}

/** Calls a tool that must return a tool error; returns its message. */
async function toolError(name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return result.content[0]?.type === 'text' ? result.content[0].text : '';
}

/** Calls a tool that must fail as a protocol error (invalid params); returns the message. */
async function protocolError(name: string, args: Record<string, unknown>): Promise<string> {
  const error = await client.callTool({ name, arguments: args }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
  return (error as McpError).message;
}

describe('MCP initialize and tools/list', () => {
  it('names the server and offers tools and resources', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'loadout-catalogue', title: 'Loadout Catalogue' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(client.getInstructions()).toContain('search_loadouts');
  });

  it('lists the six tools and get_bundle, read-only, with input and output schemas and agent-facing descriptions', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search_loadouts', 'get_loadout', 'get_loadout_file', 'get_install_instructions', 'list_agents', 'list_tags', 'get_bundle']);
    for (const tool of tools) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.description?.length ?? 0).toBeGreaterThan(120);
    }
    const search = tools[0];
    expect(Object.keys(search?.inputSchema.properties ?? {})).toEqual(['query', 'agent', 'tags', 'category', 'verified', 'has', 'runs', 'max_always_tokens', 'limit', 'offset']);
    expect(tools[2]?.inputSchema.required).toEqual(['id', 'path']);
  });
});

describe('search_loadouts', () => {
  it('ranks with typo tolerance and renders the results as text', async () => {
    const { value, text } = await call('search_loadouts', { query: 'fastpi' }, schemas.searchOutput);
    expect(value.results[0]?.id).toBe('fastapi-service');
    expect(value.limit).toBe(10);
    expect(text).toContain('1. fastapi-service (1.0.0, runs nothing)');
  });

  it('applies the filters and paging', async () => {
    const { value } = await call('search_loadouts', { query: 'python', agent: 'cursor', tags: ['web-app'], has: 'rules', verified: true, category: 'web-app' }, schemas.searchOutput);
    expect(value.results.map((r) => r.id)).toEqual(['fastapi-service']);
    const page = await call('search_loadouts', { limit: 3, offset: 3 }, schemas.searchOutput);
    expect(page.value.results).toHaveLength(3);
    expect(page.value.total).toBe(19);
  });

  it('says so when nothing matches', async () => {
    const { value, text } = await call('search_loadouts', { query: 'title:zzzz^qqqq~' }, schemas.searchOutput);
    expect(value.total).toBe(0);
    expect(text).toContain('No loadouts match');
  });

  it('suggests close stacks, ids or categories when nothing matches', async () => {
    const { value, text } = await call('search_loadouts', { query: 'fstapy' }, schemas.searchOutput);
    expect(value).toMatchObject({ total: 0, suggestions: [{ kind: 'stack', value: 'fastapi' }] });
    expect(text).toBe('No loadouts match "fstapy" with these filters (0 in total). Did you mean fastapi (stack)?');
  });
});

describe('get_loadout', () => {
  it('returns the record without file contents, with every version', async () => {
    const { value, text } = await call('get_loadout', { id: 'nextjs-app-router' }, schemas.getLoadoutOutput);
    expect(value).toMatchObject({ id: 'nextjs-app-router', version: '1.1.0', versions: ['1.0.0', '1.1.0'], featured: true });
    expect(value.files.map((f) => f.path)).toContain('skills/add-route/SKILL.md');
    expect(value.files.every((f) => !('content' in f))).toBe(true);
    expect(value).not.toHaveProperty('install');
    expect(text).toContain('# Next.js App Router (nextjs-app-router 1.1.0)');
  });

  it('is a tool error for an unknown loadout', async () => {
    expect(await toolError('get_loadout', { id: 'no-such-loadout' })).toBe('No loadout has the id "no-such-loadout". Call search_loadouts to find loadout ids.');
  });
});

describe('get_loadout_file', () => {
  it('reads the latest version by default, and a pinned version on request', async () => {
    const latest = await call('get_loadout_file', { id: 'nextjs-app-router', path: 'AGENTS.md' }, schemas.getFileOutput);
    expect(latest.value).toMatchObject({ version: '1.1.0', latest: true, lang: 'markdown', raw_url: 'http://localhost:8787/raw/nextjs-app-router/1.1.0/AGENTS.md' });
    expect(latest.text).toContain('Version 1.1');
    expect(latest.value.bytes).toBe(Buffer.byteLength(latest.value.content));
    const old = await call('get_loadout_file', { id: 'nextjs-app-router', path: 'AGENTS.md', version: '1.0.0' }, schemas.getFileOutput);
    expect(old.value).toMatchObject({ version: '1.0.0', latest: false });
    expect(old.value.content).not.toContain('Version 1.1');
    const skill = await call('get_loadout_file', { id: 'nextjs-app-router', path: 'skills/add-route/references/file-conventions.md', version: 'latest' }, schemas.getFileOutput);
    expect(skill.value.content).toContain('| a | b |');
  });

  it('is a tool error for an unknown loadout, version or file, saying what exists', async () => {
    expect(await toolError('get_loadout_file', { id: 'nope', path: 'AGENTS.md' })).toContain('No loadout has the id "nope"');
    expect(await toolError('get_loadout_file', { id: 'nextjs-app-router', path: 'AGENTS.md', version: '9.9.9' })).toBe('Loadout "nextjs-app-router" has no version 9.9.9. Published versions: 1.0.0, 1.1.0.');
    const missing = await toolError('get_loadout_file', { id: 'nextjs-app-router', path: '../../etc/passwd' });
    expect(missing).toContain('Version 1.1.0 of loadout "nextjs-app-router" has no file "../../etc/passwd". Its files: AGENTS.md, CLAUDE.md');
  });
});

describe('get_install_instructions', () => {
  it('gives the command, the zip address and the targets for the agent', async () => {
    const cursor = await call('get_install_instructions', { id: 'nextjs-app-router', agent: 'cursor' }, schemas.installOutput);
    expect(cursor.value).toMatchObject({ id: 'nextjs-app-router', version: '1.1.0', agent: 'cursor', compatibility: 'native', command: 'npx -y http://localhost:8787/cli/loadout-latest.tgz install nextjs-app-router --agent cursor --version 1.1.0 --from http://localhost:8787', zip_url: 'http://localhost:8787/download/nextjs-app-router/cursor.zip' });
    expect(cursor.value.files.map((f) => f.target)).toEqual(expect.arrayContaining(['AGENTS.md', '.agents/skills/add-route/SKILL.md', '.cursor/rules/server-components.mdc']));
    for (const file of cursor.value.files) expect(file.sha256).toMatch(/^[0-9a-f]{64}$/u);
    expect(cursor.text).toContain('install nextjs-app-router --agent cursor --version 1.1.0 --from http://localhost:8787');
    const claude = await call('get_install_instructions', { id: 'nextjs-app-router', agent: 'claude-code' }, schemas.installOutput);
    expect(claude.value.files.map((f) => f.target)).toEqual(expect.arrayContaining(['CLAUDE.md', '.claude/skills/add-route/SKILL.md']));
    const codex = await call('get_install_instructions', { id: 'dbt-analytics', agent: 'codex' }, schemas.installOutput);
    expect(codex.value.manual_steps.length).toBeGreaterThan(0);
  });

  it('gives the agent\'s plugin-manager route and the npx commands the loadout\'s page shows (issue 57, point 12)', async () => {
    const page = readFileSync(join(running.fixture.dist, 'loadouts/nextjs-app-router/index.html'), 'utf8');
    const unescape = (html: string): string => html.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&');
    const shown = (id: string): string | undefined => {
      const code = new RegExp(`<pre id="${id}"[^>]*><code>([^<]*)</code>`, 'u').exec(page)?.[1];
      return code === undefined ? undefined : unescape(code);
    };
    for (const agent of ['claude-code', 'codex', 'cursor', 'gemini-cli', 'copilot', 'antigravity-cli']) {
      const { value, text } = await call('get_install_instructions', { id: 'nextjs-app-router', agent }, schemas.installOutput);
      const plugin = value.plugin;
      expect(plugin, agent).not.toBeNull();
      if (plugin === null) continue;
      if (plugin.route === 'none') {
        expect(shown(`plugin-${agent}`), agent).toBeUndefined();
        expect(page, agent).toContain(`id="plugin-none-${agent}"`);
        expect(text, agent).toContain(plugin.why);
      } else {
        expect(plugin.commands.join('\n'), agent).toBe(shown(`plugin-${agent}`));
        for (const command of plugin.commands) expect(text, agent).toContain(`    ${command}`);
      }
      // The npx commands of the page, pinned to the version described; no registry command while the package is not published.
      expect(value.commands.map((c) => c.command.replace(' --version 1.1.0', '')), agent).toEqual([shown(`cmd-${agent}`)]);
      expect(value.command).toBe(value.commands[0]?.command);
    }
    // The fixture is built for http://localhost:8787: the tree's folder, not the URL marketplace Claude Code refuses there.
    const claude = await call('get_install_instructions', { id: 'nextjs-app-router', agent: 'claude-code' }, schemas.installOutput);
    expect(claude.value.plugin).toMatchObject({ route: 'folder', commands: [`claude plugin marketplace add ${join(resolve(running.fixture.dist), 'plugins')}`, 'claude plugin install nextjs-app-router@loadout-catalogue'] });
  });

  it('is a tool error for an unknown loadout', async () => {
    expect(await toolError('get_install_instructions', { id: 'nope', agent: 'codex' })).toContain('No loadout has the id "nope"');
  });
});

describe('list_agents and list_tags', () => {
  it('lists the six agents', async () => {
    const { value } = await call('list_agents', {}, schemas.listAgentsOutput);
    expect(value.agents.map((a) => a.id)).toEqual(['claude-code', 'codex', 'cursor', 'gemini-cli', 'copilot', 'antigravity-cli']);
    expect(value.agents.find((a) => a.id === 'cursor')?.loadouts).toBe(18);
  });

  it('lists stacks and categories, most used first', async () => {
    const { value, text } = await call('list_tags', {}, schemas.listTagsOutput);
    expect(value.categories[0]).toEqual({ tag: 'web-app', count: 10 });
    expect(value.stacks).toContainEqual({ tag: 'python', count: 3 });
    expect(text).toContain('web-app (10)');
    const few = await call('list_tags', { limit: 2 }, schemas.listTagsOutput);
    expect(few.value.stacks).toHaveLength(2);
    expect(few.text).toContain('more');
  });
});

describe('bad arguments are protocol errors', () => {
  it.each([
    ['search_loadouts', { limit: 0 }, 'limit'],
    ['search_loadouts', { limit: 51 }, 'limit'],
    ['search_loadouts', { offset: -1 }, 'offset'],
    ['search_loadouts', { agent: 'vim' }, 'agent'],
    ['search_loadouts', { has: 'tests' }, 'has'],
    ['search_loadouts', { tags: 'react' }, 'tags'],
    ['search_loadouts', { verified: 'yes' }, 'verified'],
    ['search_loadouts', { q: 'typo in the name' }, '"q" is not an argument of search_loadouts'],
    ['get_loadout', {}, 'id'],
    ['get_loadout', { id: 'Not A Slug' }, 'id'],
    ['get_loadout_file', { id: 'nextjs-app-router' }, 'path'],
    ['get_loadout_file', { id: 'nextjs-app-router', path: 'AGENTS.md', version: 'v1' }, 'version'],
    ['get_install_instructions', { id: 'nextjs-app-router', agent: 'vim' }, 'agent'],
    ['list_tags', { limit: 'all' }, 'limit'],
  ])('%s %j names %s', async (name, args, mentioned) => {
    expect(await protocolError(name, args)).toContain(mentioned);
  });

  it('an unknown tool is a protocol error too', async () => {
    expect(await protocolError('delete_everything', {})).toContain('params.name is "delete_everything" (expected one of search_loadouts');
  });
});
