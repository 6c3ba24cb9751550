import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedOrigin } from '../../src/mcp/origin.js';
import { namespaceOf } from '../../src/mcp/server-card.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

let running: FixtureServer;
let client: Client;

beforeAll(async () => {
  running = await startFixtureServer();
  client = await running.connect();
});
afterAll(async () => running?.close());

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const post = (headers: Record<string, string>, body: unknown = INIT): Promise<Response> =>
  fetch(`${running.server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });

describe('skills as MCP resources', () => {
  it('lists every skill file as skill://<loadout>/<skill>/<path>', async () => {
    const { resources, nextCursor } = await client.listResources();
    expect(nextCursor).toBeUndefined();
    expect(resources.map((r) => r.uri)).toEqual([
      'skill://fastapi-service/add-endpoint/SKILL.md',
      'skill://godot-gdscript/add-scene/SKILL.md',
      'skill://mcp-server-builder/add-tool/SKILL.md',
      'skill://nextjs-app-router/add-route/SKILL.md',
      'skill://nextjs-app-router/add-route/references/file-conventions.md',
      'skill://secure-code-review/threat-model/SKILL.md',
      'skill://secure-code-review/threat-model/references/stride.md',
    ]);
    expect(resources[3]).toMatchObject({ name: 'nextjs-app-router/add-route/SKILL.md', mimeType: 'text/markdown', description: 'Add a page, layout or Route Handler with metadata, loading and error states.' });
  });

  it('reads a SKILL.md and its reference from the latest version', async () => {
    const skill = await client.readResource({ uri: 'skill://nextjs-app-router/add-route/SKILL.md' });
    expect(skill.contents).toHaveLength(1);
    expect(skill.contents[0]).toMatchObject({ uri: 'skill://nextjs-app-router/add-route/SKILL.md', mimeType: 'text/markdown' });
    expect((skill.contents[0] as { text: string }).text).toMatch(/^---\nname: add-route\n/u);
    const reference = await client.readResource({ uri: 'skill://nextjs-app-router/add-route/references/file-conventions.md' });
    expect((reference.contents[0] as { text: string }).text).toContain('| a | b |');
  });

  it('gives the resource templates', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['skill://{loadout}/{skill}/SKILL.md', 'skill://{loadout}/{skill}/{+path}', 'skill://{loadout}/{version}/{skill}/{+path}']);
  });

  it.each(['skill://nextjs-app-router/no-skill/SKILL.md', 'skill://nope/add-route/SKILL.md', 'skill://nextjs-app-router/add-route/../../AGENTS.md', 'file:///etc/passwd'])('answers "resource not found" (-32002) for %s', async (uri) => {
    const error = await client.readResource({ uri }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32002);
    expect((error as McpError).message).toContain(`Resource not found: ${uri}`);
  });

  it('rejects a cursor it did not give out', async () => {
    const error = await client.listResources({ cursor: 'bogus' }).catch((e: unknown) => e);
    expect((error as McpError).code).toBe(-32602);
  });
});

describe('GET /mcp/server-card', () => {
  it('serves the SEP-2127 card with the tools in _meta, CORS and caching', async () => {
    const response = await fetch(`${running.server.url}/mcp/server-card`, { headers: { origin: 'https://anywhere.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/mcp-server-card+json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    const card = (await response.json()) as Record<string, unknown> & { _meta: Record<string, { tools: { name: string; inputSchema: unknown; outputSchema: unknown }[]; capabilities: unknown }> };
    expect(Object.keys(card)).toEqual(['$schema', 'name', 'version', 'title', 'description', 'websiteUrl', 'remotes', '_meta']);
    expect(card).toMatchObject({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      name: 'localhost/loadout-catalogue',
      title: 'Loadout Catalogue',
      websiteUrl: 'http://localhost:8787/docs/',
      remotes: [{ type: 'streamable-http', url: 'http://localhost:8787/mcp' }],
    });
    expect(card['name']).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/u);
    expect((card['description'] as string).length).toBeLessThanOrEqual(100);
    const meta = card._meta['catalogue.loadout/mcp'];
    expect(meta?.capabilities).toEqual({ tools: { listChanged: false }, resources: { listChanged: false, subscribe: false }, extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } } });
    expect(meta?.tools.map((t) => t.name)).toHaveLength(7);
    expect(meta?.tools.every((t) => t.inputSchema !== undefined && t.outputSchema !== undefined)).toBe(true);
    const { tools } = await client.listTools();
    expect(meta?.tools).toEqual(JSON.parse(JSON.stringify(tools)));
  });

  it('serves the same card at /.well-known/mcp/server-card.json, with 304 on a matching ETag', async () => {
    const a = await fetch(`${running.server.url}/mcp/server-card`);
    const b = await fetch(`${running.server.url}/.well-known/mcp/server-card.json`);
    expect(await b.text()).toBe(await a.text());
    const etag = a.headers.get('etag') ?? '';
    expect((await fetch(`${running.server.url}/mcp/server-card`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('derives a reverse-DNS name from the base address', () => {
    expect(namespaceOf('https://loadouts.example.com')).toBe('com.example.loadouts');
    expect(namespaceOf('http://127.0.0.1:8787')).toBe('localhost');
    expect(namespaceOf('http://[::1]:8787')).toBe('localhost');
  });
});

describe('the /mcp transport', () => {
  it('rejects a foreign Origin with 403 (DNS rebinding guard)', async () => {
    const response = await post({ origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ status: 403, code: 'forbidden' });
    expect((await post({ origin: 'null' })).status).toBe(403);
    const preflight = await fetch(`${running.server.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(403);
  });

  it('accepts no Origin, the base address origin and loopback origins, with CORS for them', async () => {
    expect((await post({})).status).toBe(200);
    const base = await post({ origin: 'http://localhost:8787' });
    expect(base.status).toBe(200);
    expect(base.headers.get('access-control-allow-origin')).toBe('http://localhost:8787');
    expect((await post({ origin: 'http://127.0.0.1:6274' })).status).toBe(200);
    const preflight = await fetch(`${running.server.url}/mcp`, { method: 'OPTIONS', headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
  });

  it('answers a stateless initialize with JSON and no session id', async () => {
    const response = await post({});
    expect(response.headers.get('content-type')).toMatch(/^application\/json/u);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'loadout-catalogue' } } });
  });

  it('answers a tools/call without a prior initialize (stateless)', async () => {
    const response = await post({ 'mcp-protocol-version': '2025-06-18' }, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_loadouts', arguments: { query: 'godot', limit: 1 } } });
    const body = (await response.json()) as { result: { structuredContent: { results: { id: string }[] } } };
    expect(body.result.structuredContent.results.map((r) => r.id)).toEqual(['godot-gdscript']);
  });

  it.each(['GET', 'DELETE', 'PUT'])('answers %s with 405 and Allow', async (method) => {
    const response = await fetch(`${running.server.url}/mcp`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('checks origins by the MCP transport rules', () => {
    const base = 'https://loadouts.example.com';
    expect(isAllowedOrigin(undefined, base)).toBe(true);
    expect(isAllowedOrigin('https://loadouts.example.com', base)).toBe(true);
    expect(isAllowedOrigin('http://loadouts.example.com', base)).toBe(false);
    expect(isAllowedOrigin('https://loadouts.example.com.evil.example', base)).toBe(false);
    expect(isAllowedOrigin('http://localhost:3000', base)).toBe(true);
    expect(isAllowedOrigin('http://[::1]:3000', base)).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1.nip.io', base)).toBe(false);
    expect(isAllowedOrigin('chrome-extension://abc', base)).toBe(false);
    expect(isAllowedOrigin('not a url', base)).toBe(false);
  });
});
