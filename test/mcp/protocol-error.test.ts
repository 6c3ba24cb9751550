import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from './fixture-server.js';
import { z } from 'zod';
import { protocolError, wireMessage, withWireMessage } from '../../src/mcp/protocol-error.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

// Both paths of tools/call: answered directly (the default) and through the SDK's Server.
const servers: Record<'direct' | 'sdk', FixtureServer | undefined> = { direct: undefined, sdk: undefined };
const clients: Partial<Record<'direct' | 'sdk', Client>> = {};

beforeAll(async () => {
  servers.direct = await startFixtureServer();
  servers.sdk = await startFixtureServer({ directToolCalls: false });
  clients.direct = await servers.direct.connect();
  clients.sdk = await servers.sdk.connect();
});
afterAll(async () => {
  await servers.direct?.close();
  await servers.sdk?.close();
});

/** The client's message starts with `MCP error <code>: ` exactly once. */
function expectOnePrefix(error: McpError, code: number): void {
  expect(error.code).toBe(code);
  expect(error.message).toMatch(new RegExp(`^MCP error ${code}: `, 'u'));
  expect(error.message.match(/MCP error/gu)).toHaveLength(1);
}

const Anything = z.looseObject({});

describe.each(['direct', 'sdk'] as const)('protocol errors over Streamable HTTP (%s tools/call)', (path) => {
  const client = (): Client => clients[path] as Client;

  it('an invalid argument reads "MCP error -32602: " once', async () => {
    const error = await errorOf(client().callTool({ name: 'search_loadouts', arguments: { query: 'react', limit: 500 } }));
    expectOnePrefix(error, -32602);
    expect(error.message).toContain('Invalid arguments for search_loadouts: limit is 500');
  });

  it('an unknown tool reads the prefix once', async () => {
    expectOnePrefix(await errorOf(client().callTool({ name: 'no_such_tool', arguments: {} })), -32602);
  });

  it('an unknown resource (-32002), a skill not served and a cursor not given out read the prefix once', async () => {
    expectOnePrefix(await errorOf(client().readResource({ uri: 'skill://nope/add-route/SKILL.md' })), -32002);
    expectOnePrefix(await errorOf(client().request({ method: 'skills/get', params: { uri: 'skill://nope/add-route/SKILL.md' } }, Anything)), -32602);
    expectOnePrefix(await errorOf(client().listResources({ cursor: 'bogus' })), -32602);
    expectOnePrefix(await errorOf(client().listTools({ cursor: 'bogus' })), -32602);
  });
});

describe('the JSON-RPC message on the wire', () => {
  it('carries no prefix: the code is in error.code', async () => {
    const response = await fetch(`${servers.sdk?.server.url ?? ''}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: 'skill://nope/add-route/SKILL.md' } }),
    });
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32002);
    expect(body.error.message).toMatch(/^Resource not found: skill:\/\/nope\/add-route\/SKILL\.md /u);
  });
});

describe('protocolError and withWireMessage', () => {
  it('keeps the code and data and drops the prefix the SDK constructor adds', () => {
    const made = protocolError(-32602, 'Invalid params: x', { uri: 'u' });
    expect(made).toBeInstanceOf(McpError);
    expect(made).toMatchObject({ code: -32602, message: 'Invalid params: x', data: { uri: 'u' } });
    const sdkBuilt = new McpError(-32601, 'Method not found');
    expect(sdkBuilt.message).toBe('MCP error -32601: Method not found');
    expect(withWireMessage(sdkBuilt)).toMatchObject({ code: -32601, message: 'Method not found' });
    expect(wireMessage(new Error('disk gone'))).toBe('disk gone');
    expect(wireMessage(undefined)).toBe('Internal error');
    const other = new Error('not a protocol error');
    expect(withWireMessage(other)).toBe(other);
  });
});
