/**
 * MCP answers for bundles (issue 56, point 2; src/mcp/tools.ts `get_bundle`): with the MCP SDK's
 * client over Streamable HTTP, against a served catalogue built from a real git repository, a
 * bundle's record with its loadouts resolved; `get_loadout` of a bundle id says to ask
 * `get_bundle`; `search_loadouts` lists the bundles that match, each result valid against the
 * tools' output schemas.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schemas from '../../src/mcp/schemas.js';
import type { BundleRecord } from '../../src/tree-format/bundle.js';
import { startBundleServer, type BundleServer } from '../helpers/bundle-server.js';

let server: BundleServer;
let client: Client;
beforeAll(async () => {
  server = await startBundleServer('loadout-bundle-mcp-');
  client = new Client({ name: 'loadout-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
}, 120_000);
afterAll(async () => {
  await client?.close();
  await server?.close();
});

const callTool = async (name: string, args: Record<string, unknown>): Promise<{ result: CallToolResult; text: string }> => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { result, text: result.content[0]?.type === 'text' ? result.content[0].text : '' };
};

describe('MCP over a catalogue with bundles', () => {
  it('get_bundle answers with the bundle\'s record: its loadouts resolved, their combined cost and capabilities, its plugin and versions', async () => {
    const { result, text } = await callTool('get_bundle', { id: 'web-team-stack' });
    expect(result.isError ?? false).toBe(false);
    const value = schemas.getBundleOutput.parse(result.structuredContent);
    const published = JSON.parse(readFileSync(join(server.fixture.dist, 'api/bundles/web-team-stack.json'), 'utf8')) as BundleRecord;
    expect(result.structuredContent).toEqual(JSON.parse(JSON.stringify(published)));
    expect(value.loadouts.map((m) => [m.id, m.range, m.resolved])).toEqual([
      ['nextjs-app-router', '^1.1', '1.1.0'],
      ['secure-code-review', '^1', '1.0.0'],
      ['github-actions-ci', '~1.0.0', '1.0.0'],
    ]);
    expect(text).toContain('# Web Team Stack (bundle web-team-stack 1.1.0)');
    expect(text).toContain('- secure-code-review ^1 → 1.0.0 (Secure Code Review)');
    expect(text).toContain('claude plugin install web-team-stack@loadout-catalogue');
    expect(text).toContain('Versions: 1.0.0, 1.1.0.');
  });

  it('get_bundle says when no bundle has the id, and get_loadout of a bundle id says to ask get_bundle', async () => {
    const missing = await callTool('get_bundle', { id: 'no-such-stack' });
    expect(missing.result.isError).toBe(true);
    expect(missing.text).toBe('No bundle has the id "no-such-stack". search_loadouts lists the bundles that match a query in its bundles.');
    const asLoadout = await callTool('get_loadout', { id: 'data-team-stack' });
    expect(asLoadout.result.isError).toBe(true);
    expect(asLoadout.text).toBe('"data-team-stack" is a bundle, not a loadout: call get_bundle with this id for its loadouts, or get_loadout with the id of one of them.');
    expect((await callTool('get_loadout', { id: 'no-such-loadout' })).text).toBe('No loadout has the id "no-such-loadout". Call search_loadouts to find loadout ids.');
  });

  it('search_loadouts lists the bundles that match, beside the loadouts', async () => {
    const { result, text } = await callTool('search_loadouts', { query: 'dbt analytics' });
    const value = schemas.searchOutput.parse(result.structuredContent);
    expect(value.results[0]?.id).toBe('dbt-analytics');
    expect(value.bundles?.map((b) => [b.kind, b.id])).toEqual([['bundle', 'data-team-stack']]);
    expect(text).toContain('Bundles (sets of loadouts installed as one; call get_bundle):\n- bundle data-team-stack (1.0.0) — Data Team Stack: dbt-analytics ^1.0, fastapi-service ^1');
  });

  it('lists get_bundle with its schemas, read-only', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'get_bundle');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tool?.inputSchema.required).toEqual(['id']);
    expect(tool?.outputSchema?.type).toBe('object');
  });
});
