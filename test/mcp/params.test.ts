/**
 * Malformed request params over real HTTP (raw JSON-RPC, no SDK client in between): every
 * shape is JSON-RPC -32602 with one line that names the parameter and what was expected,
 * never -32603, a transport-level 400 or a zod dump.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/mcp/tools.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

let running: FixtureServer;

beforeAll(async () => {
  running = await startFixtureServer();
});
afterAll(async () => running?.close());

interface RpcError {
  jsonrpc: string;
  id: unknown;
  error: { code: number; message: string };
}

async function rpc(body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${running.server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** Sends one request that must fail with -32602; returns the message after checking it is one short line. */
async function invalidParams(method: string, params: unknown, id: number | string = 7): Promise<string> {
  const request = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
  const { status, body } = await rpc(request);
  expect(status, JSON.stringify(body)).toBe(200);
  const { error, id: answered } = body as RpcError;
  expect(answered).toBe(id);
  expect(error.code, error.message).toBe(-32602);
  expect(error.message).not.toMatch(/[\r\n\u2028\u2029]/u);
  expect(error.message.length).toBeLessThan(400);
  expect(error.message).not.toContain('"code"');
  return error.message;
}

const NOT_OBJECTS: [string, unknown][] = [
  ['null', null],
  ['[]', []],
  ['[1]', [1]],
  ['"x"', 'x'],
  ['3', 3],
  ['true', true],
];

describe('tools/call arguments that are not an object', () => {
  const cases = TOOLS.flatMap((tool) => NOT_OBJECTS.map(([shown, value]) => [tool.name, shown, value] as const));
  it.each(cases)('%s with arguments %s is -32602 naming params.arguments', async (name, shown, value) => {
    const message = await invalidParams('tools/call', { name, arguments: value });
    expect(message).toContain(`params.arguments is ${shown} (expected an object`);
  });
});

describe('tools/call params of every other malformed shape', () => {
  it.each([
    ['missing', undefined, 'params is missing (expected an object'],
    ['null', null, 'params is null (expected an object'],
    ['an array', [], 'params is [] (expected an object'],
    ['a string', 'search_loadouts', 'params is "search_loadouts" (expected an object'],
    ['without name', { arguments: {} }, 'params.name is missing (expected a string'],
    ['with a number name', { name: 5 }, 'params.name is 5 (expected a string'],
    ['with a null name', { name: null }, 'params.name is null (expected a string'],
    ['with an array name', { name: ['search_loadouts'] }, 'params.name is ["search_loadouts"] (expected a string'],
    ['with a number _meta', { name: 'list_agents', _meta: 5 }, 'params._meta is 5 (expected an object'],
  ])('params %s', async (_label, params, expected) => {
    expect(await invalidParams('tools/call', params)).toContain(expected);
  });

  it('an unknown tool names the tool and the seven that exist, on one line whatever the name holds', async () => {
    expect(await invalidParams('tools/call', { name: 'delete_everything', arguments: {} })).toContain(
      'params.name is "delete_everything" (expected one of search_loadouts, get_loadout, get_loadout_file, get_install_instructions, list_agents, list_tags, get_bundle)',
    );
    expect(await invalidParams('tools/call', { name: 'a\nb\u2028c' })).toContain('params.name is "a\\nb\\u2028c"');
    expect(await invalidParams('tools/call', { name: 'x'.repeat(10_000) })).toContain('…');
  });

  it('names bad tool arguments on one line, keys and values quoted', async () => {
    expect(await invalidParams('tools/call', { name: 'search_loadouts', arguments: { limit: 0 } })).toContain('limit is 0 (expected a number >= 1)');
    expect(await invalidParams('tools/call', { name: 'search_loadouts', arguments: { 'q\nx': 1 } })).toContain('"q\\nx" is not an argument of search_loadouts (expected only query, agent, tags, category, verified, has, runs, max_always_tokens, limit, offset)');
    expect(await invalidParams('tools/call', { name: 'get_loadout', arguments: { id: 'Not A Slug' } })).toContain('id is "Not A Slug" (expected a lowercase slug');
    expect(await invalidParams('tools/call', { name: 'get_install_instructions', arguments: { id: 'x', agent: 'vim' } })).toContain('agent is "vim" (expected one of "claude-code"');
    const many = await invalidParams('tools/call', { name: 'search_loadouts', arguments: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])) });
    expect(many).toContain('"k0", "k1", "k2" and 497 more are not arguments of search_loadouts (expected only query');
  });
});

describe('the other methods', () => {
  it.each([
    ['resources/read', {}, 'params.uri is missing (expected a string'],
    ['resources/read', { uri: 5 }, 'params.uri is 5 (expected a string'],
    ['resources/read', null, 'params is null (expected an object'],
    ['resources/list', { cursor: 5 }, 'params.cursor is 5 (expected a string'],
    ['resources/list', null, 'params is null (expected an object'],
    ['resources/templates/list', [], 'params is [] (expected an object'],
    ['tools/list', null, 'params is null (expected an object'],
    ['tools/list', { cursor: {} }, 'params.cursor is {} (expected a string'],
    ['ping', [], 'params is [] (expected an object'],
    ['initialize', null, 'params is null (expected an object'],
    ['initialize', { protocolVersion: 5, capabilities: {}, clientInfo: { name: 'x', version: '1' } }, 'params.protocolVersion is 5 (expected a string'],
  ])('%s with params %j', async (method, params, expected) => {
    const message = await invalidParams(method, params);
    expect(message).toContain(`Invalid params for ${method}: ${expected}`);
  });

  it('answers every request of a batch that holds a malformed one, with the malformed one named', async () => {
    const { status, body } = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_agents', arguments: null } },
    ]);
    expect(status).toBe(200);
    const answers = body as RpcError[];
    expect(answers.map((a) => [a.id, a.error.code])).toEqual([
      [1, -32600],
      [2, -32602],
    ]);
    expect(answers[0]?.error.message).toContain('request 2');
    expect(answers[1]?.error.message).toContain('params.arguments is null');
  });

  it('leaves a body that is not JSON to the transport (-32700)', async () => {
    const response = await fetch(`${running.server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc": "2.0", "id": 1, "method": ' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as RpcError).error.code).toBe(-32700);
  });

  it('refuses a body over the transport limit (4 MiB) with 413 before parsing it', async () => {
    const response = await fetch(`${running.server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: `"${'x'.repeat(4 * 1024 * 1024)}"` });
    expect(response.status).toBe(413);
    expect(((await response.json()) as RpcError).error.message).toContain('must not exceed 4194304 bytes');
  });

  it('still serves well-formed requests, and leaves unknown methods to "method not found"', async () => {
    const ok = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_agents' } });
    expect(ok.body).toMatchObject({ id: 1, result: { structuredContent: { agents: expect.any(Array) } } });
    const unknown = await rpc({ jsonrpc: '2.0', id: 2, method: 'prompts/list' });
    expect((unknown.body as RpcError).error.code).toBe(-32601);
  });
});
