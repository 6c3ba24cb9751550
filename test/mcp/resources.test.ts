/**
 * Paging cursors of the paginated MCP methods: only a cursor the server gave out is accepted;
 * every other string is -32602, over real HTTP and on the resource index itself.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCatalogue } from '../../src/mcp/catalogue.js';
import { createSkillResources } from '../../src/mcp/resources.js';
import { createSkillFolders } from '../../src/mcp/skill-folders.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

let running: FixtureServer;

beforeAll(async () => {
  running = await startFixtureServer();
});
afterAll(async () => running?.close());

const b64 = (text: string): string => Buffer.from(text).toString('base64url');

/** Cursors that no server gave out: not base64url, base64url of garbage, and offsets that are negative, not decimal or beyond the list. */
const FORGED: [string, string][] = [
  ['"!!!"', '!!!'],
  ['empty', ''],
  ['a space', ' '],
  ['"bogus"', 'bogus'],
  ['padding only', '===='],
  ['base64url of "abc"', b64('abc')],
  ['base64url of binary garbage', Buffer.from([0xff, 0xfe, 0x00, 0x10]).toString('base64url')],
  ['base64url of "-1"', b64('-1')],
  ['base64url of "-500"', b64('-500')],
  ['base64url of "0"', b64('0')],
  ['base64url of "500" (beyond the list)', b64('500')],
  ['base64url of "1000000"', b64('1000000')],
  ['base64url of "9007199254740993"', b64('9007199254740993')],
  ['base64url of "1e3"', b64('1e3')],
  ['base64url of "0x1f4"', b64('0x1f4')],
  ['base64url of " 500"', b64(' 500')],
  ['base64url of "500.0"', b64('500.0')],
  ['base64url of "0500"', b64('0500')],
  ['standard base64 with padding', Buffer.from('1000').toString('base64')],
  ['a long string', 'A'.repeat(20_000)],
];

async function rpc(method: string, params: unknown): Promise<{ code: number; message: string } | undefined> {
  const response = await fetch(`${running.server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { error?: { code: number; message: string } }).error;
}

describe('resources/list cursors over HTTP', () => {
  it.each(FORGED)('refuses %s with -32602 naming params.cursor', async (_label, cursor) => {
    const error = await rpc('resources/list', { cursor });
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain('params.cursor is "');
    expect(error?.message).toContain('(expected the nextCursor of the previous resources/list page, or no cursor)');
    expect(error?.message.length).toBeLessThan(300);
  });

  it('lists the first page without a cursor', async () => {
    expect(await rpc('resources/list', {})).toBeUndefined();
  });
});

describe('the other paginated methods have one page, so no cursor is theirs', () => {
  it.each(['tools/list', 'resources/templates/list'])('%s refuses any cursor with -32602', async (method) => {
    for (const cursor of ['!!!', b64('0'), b64('500'), '']) {
      const error = await rpc(method, { cursor });
      expect(error?.code).toBe(-32602);
      expect(error?.message).toContain(`Invalid params for ${method}: params.cursor is "`);
      expect(error?.message).toContain(`(expected no cursor: ${method} has one page)`);
    }
    expect(await rpc(method, {})).toBeUndefined();
  });
});

describe('resource pages', () => {
  it('follows the cursors it gives out through every resource once, and refuses any other', async () => {
    const catalogue = await openCatalogue(running.fixture.dist);
    const resources = createSkillResources(catalogue, createSkillFolders(catalogue), 2);
    const seen: string[] = [];
    const cursors: string[] = [];
    let cursor: string | undefined;
    do {
      const page = resources.list(cursor);
      seen.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      if (cursor !== undefined) cursors.push(cursor);
    } while (cursor !== undefined);
    expect(cursors).toEqual([b64('2'), b64('4'), b64('6')]);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);

    for (const forged of [...FORGED.map(([, c]) => c), b64('1'), b64('3'), b64('8'), b64('02'), Buffer.from('2').toString('base64').padEnd(4, '=')]) {
      const error = (() => {
        try {
          resources.list(forged);
          return undefined;
        } catch (e) {
          return e;
        }
      })();
      expect(error, forged).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32602);
    }
  });
});
