/**
 * The direct `tools/call` path (src/mcp/server.ts, `callToolDirectly`; DESIGN.md section 7) answers
 * exactly as the SDK's transport and Server do: every request here goes over real HTTP to
 * two servers on the same fixture, one with the direct path and one without, and the answers
 * (status, content type, JSON-RPC body) must be equal. A unit test shows which requests take
 * the direct path, so the comparison covers both sides of the line. The body reader is tested
 * with and without a Content-Length, within and over the 4 MiB limit.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callToolDirectly } from '../../src/mcp/server.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

let direct: FixtureServer;
let viaSdk: FixtureServer;

beforeAll(async () => {
  direct = await startFixtureServer();
  viaSdk = await startFixtureServer({ directToolCalls: false }, direct.fixture);
});
afterAll(async () => {
  await viaSdk?.close();
  await direct?.close();
});

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };
const call = (name: string, args?: unknown, id: unknown = 1, extra: Record<string, unknown> = {}): unknown => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, ...(args === undefined ? {} : { arguments: args }), ...extra } });

/** Status, content type and body (parsed when JSON) of one POST /mcp. */
async function answer(server: FixtureServer, body: unknown, headers: Record<string, string> = HEADERS): Promise<{ status: number; type: string | null; body: unknown }> {
  const response = await fetch(`${server.server.url}/mcp`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  const type = response.headers.get('content-type');
  return { status: response.status, type, body: text !== '' && type?.startsWith('application/json') === true ? JSON.parse(text) : text };
}

/** Requests the direct path answers, and requests it leaves to the SDK (with why). */
const TAKEN: [string, unknown][] = [
  ['a search', call('search_loadouts', { query: 'next.js app router', limit: 3 })],
  ['a search with filters', call('search_loadouts', { query: 'react', agent: 'codex', tags: ['nextjs'], verified: true })],
  ['no arguments', call('search_loadouts')],
  ['a record', call('get_loadout', { id: 'nextjs-app-router' }, 'string-id')],
  ['a file of a version', call('get_loadout_file', { id: 'nextjs-app-router', path: 'AGENTS.md', version: '1.0.0' }, 0)],
  ['install instructions', call('get_install_instructions', { id: 'nextjs-app-router', agent: 'claude-code' })],
  ['the agents', call('list_agents', {})],
  ['the tags', call('list_tags', {})],
  ['a tool error: unknown loadout', call('get_loadout', { id: 'no-such-loadout' })],
  ['a tool error: unknown file', call('get_loadout_file', { id: 'nextjs-app-router', path: 'NOPE.md' })],
  ['-32602: unknown tool', call('no_such_tool', {})],
  ['-32602: an argument of the wrong type', call('search_loadouts', { query: 42 })],
  ['-32602: an unknown argument', call('get_loadout', { id: 'nextjs-app-router', verbose: true })],
  ['-32602: a missing argument', call('get_loadout', {})],
  ['_meta with a progress token', call('list_tags', {}, 9, { _meta: { progressToken: 'p1' } })],
];
const LEFT: [string, unknown, Record<string, string>?][] = [
  ['initialize', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }],
  ['tools/list', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
  ['a batch', [call('list_tags', {}, 1), call('list_agents', {}, 2)]],
  ['a notification (no id)', { jsonrpc: '2.0', method: 'tools/call', params: { name: 'list_tags', arguments: {} } }],
  ['a task-augmented call', call('list_tags', {}, 1, { task: { ttl: 1000 } })],
  ['an extra member', { ...(call('list_tags', {}) as object), extra: true }],
  ['a fractional id', call('list_tags', {}, 1.5)],
  ['jsonrpc 1.0', { ...(call('list_tags', {}) as object), jsonrpc: '1.0' }],
  ['name not a string', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 7 } }],
  ['an unsupported protocol version', call('list_tags', {}), { ...HEADERS, 'mcp-protocol-version': '1999-01-01' }],
  ['Accept without text/event-stream', call('list_tags', {}), { ...HEADERS, accept: 'application/json' }],
  ['no Accept', call('list_tags', {}), { 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' }],
];

describe('which requests take the direct path', () => {
  const request = (headers: Record<string, string> = HEADERS): Request => new Request('http://127.0.0.1/mcp', { method: 'POST', headers });
  const tool = async (): Promise<never> => {
    throw new Error('not called in this test');
  };

  it.each(TAKEN)('takes %s', (_, body) => {
    expect(callToolDirectly(request(), body, tool)).toBeInstanceOf(Promise);
  });
  it.each(LEFT)('leaves %s to the SDK', (_, body, headers) => {
    expect(callToolDirectly(request(headers), body, tool)).toBeUndefined();
  });
  it('takes a call with no Mcp-Protocol-Version, as the transport does', () => {
    const { 'mcp-protocol-version': _drop, ...headers } = HEADERS;
    expect(callToolDirectly(request(headers), call('list_tags', {}), tool)).toBeInstanceOf(Promise);
  });
  it('turns an error without a safe integer code into -32603, as the SDK Protocol does', async () => {
    const response = await callToolDirectly(request(), call('list_tags', {}, 4), () => Promise.reject(new Error('disk gone')));
    expect(await response?.json()).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32603, message: 'disk gone' } });
  });
});

describe('the direct path answers as the SDK does', () => {
  it.each([...TAKEN, ...LEFT])('%s', async (_, body, headers) => {
    const [mine, sdk] = await Promise.all([answer(direct, body, headers), answer(viaSdk, body, headers)]);
    expect(mine).toEqual(sdk);
  });
  it('without Mcp-Protocol-Version', async () => {
    const { 'mcp-protocol-version': _drop, ...headers } = HEADERS;
    const body = call('search_loadouts', { query: 'testing' });
    const [mine, sdk] = await Promise.all([answer(direct, body, headers), answer(viaSdk, body, headers)]);
    expect(mine).toEqual(sdk);
    expect(mine.status).toBe(200);
  });
  it('on a body that is not JSON', async () => {
    const [mine, sdk] = await Promise.all([answer(direct, '{"jsonrpc": "2.0",'), answer(viaSdk, '{"jsonrpc": "2.0",')]);
    expect(mine).toEqual(sdk);
    expect(mine.status).toBe(400);
  });
});

describe('reading the body', () => {
  /** POST /mcp with node:http, so that the body can be sent chunked (no Content-Length) or with a given length. */
  function post(body: Buffer, chunked: boolean): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const url = new URL(`${direct.server.url}/mcp`);
      const headers: Record<string, string | number> = { ...HEADERS, ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': body.length }) };
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      if (chunked) {
        // Several chunks, so the stream reader sees more than one.
        for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
        req.end();
      } else req.end(body);
    });
  }
  const searchBody = Buffer.from(JSON.stringify(call('search_loadouts', { query: 'next.js' }, 3)));
  // A valid request padded past 4 MiB with white space, which JSON allows.
  const oversized = Buffer.concat([searchBody.subarray(0, -1), Buffer.alloc(4 * 1024 * 1024, ' '), Buffer.from('}')]);

  it('reads a body with a Content-Length and a chunked one alike', async () => {
    const [sized, chunked] = await Promise.all([post(searchBody, false), post(searchBody, true)]);
    expect(sized.status).toBe(200);
    expect(JSON.parse(chunked.body)).toEqual(JSON.parse(sized.body));
    expect((JSON.parse(sized.body) as { id: number }).id).toBe(3);
  });
  it('refuses a body over 4 MiB with 413, declared or chunked', async () => {
    for (const chunked of [false, true]) {
      const { status, body } = await post(oversized, chunked);
      expect(status, `chunked: ${chunked}`).toBe(413);
      expect(JSON.parse(body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    }
  });
  it('decodes UTF-8 as the SDK does, with a character split between two chunks', async () => {
    // JSON white space after the opening brace puts the first 'é' (two bytes) across the 64 KiB chunk boundary.
    const query = 'ééé ünïcödé';
    const rest = Buffer.from(JSON.stringify(call('search_loadouts', { query }, 5)).slice(1));
    const before = Buffer.from(`"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search_loadouts","arguments":{"query":"`).length;
    const body = Buffer.concat([Buffer.from('{'), Buffer.alloc(64 * 1024 - 1 - 1 - before, ' '), rest]);
    expect(body.subarray(64 * 1024 - 1, 64 * 1024 + 1).toString('utf8')).toBe('é');
    const [sized, chunked] = await Promise.all([post(body, false), post(body, true)]);
    expect(JSON.parse(chunked.body)).toEqual(JSON.parse(sized.body));
    expect((JSON.parse(sized.body) as { result: { structuredContent: { query: string } } }).result.structuredContent.query).toBe(query);
  });
});
