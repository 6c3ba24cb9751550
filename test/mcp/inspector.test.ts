/**
 * The official MCP Inspector (npm `@modelcontextprotocol/inspector` 0.15.0, the last version
 * whose engines allow Node 20), in CLI mode over Streamable HTTP, against the MCP server on a
 * real loopback port: a client nobody here wrote lists and calls the tools (answered by the
 * direct `tools/call` path of src/mcp/server.ts) and reads skills as resources. Installed with
 * npm into a temporary folder, like the other third-party clients (test/helpers/npm-tools.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installNpmTools, runTool, type NpmTools } from '../helpers/npm-tools.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

let tools: NpmTools;
let running: FixtureServer;

beforeAll(async () => {
  [tools, running] = await Promise.all([installNpmTools(['@modelcontextprotocol/inspector@0.15.0']), startFixtureServer()]);
}, 300_000);
afterAll(async () => running?.close());

/** Runs `mcp-inspector --cli <server>/mcp --transport http <args>`; the parsed JSON it printed, or its exit and output when it failed. */
async function inspect(args: readonly string[]): Promise<{ code: number | null; json: unknown; output: string }> {
  const run = await runTool(tools.bin('mcp-inspector'), ['--cli', `${running.server.url}/mcp`, '--transport', 'http', ...args], tools.dir, { HOME: tools.dir });
  let json: unknown;
  try {
    json = JSON.parse(run.stdout);
  } catch {
    json = undefined;
  }
  return { code: run.code, json, output: `${run.stdout}\n${run.stderr}` };
}

describe('the MCP Inspector CLI', () => {
  it('lists the six tools and get_bundle', async () => {
    const { code, json, output } = await inspect(['--method', 'tools/list']);
    expect(code, output).toBe(0);
    expect((json as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(['search_loadouts', 'get_loadout', 'get_loadout_file', 'get_install_instructions', 'list_agents', 'list_tags', 'get_bundle']);
  }, 60_000);

  it('searches, with the same results as the search API', async () => {
    const { code, json, output } = await inspect(['--method', 'tools/call', '--tool-name', 'search_loadouts', '--tool-arg', 'query=next.js app router', '--tool-arg', 'limit=3']);
    expect(code, output).toBe(0);
    const result = json as { content: { type: string; text: string }[]; structuredContent: { results: { id: string }[] } };
    const api = (await (await fetch(`${running.server.url}/api/v1/search?q=${encodeURIComponent('next.js app router')}&limit=3`)).json()) as { results: { id: string }[] };
    expect(result.structuredContent.results.map((r) => r.id)).toEqual(api.results.map((r) => r.id));
    expect(result.structuredContent.results[0]?.id).toBe('nextjs-app-router');
    expect(result.content[0]?.text).toContain('nextjs-app-router');
  }, 60_000);

  it('gets a tool error for an unknown loadout, and a protocol error naming a bad argument', async () => {
    const unknown = await inspect(['--method', 'tools/call', '--tool-name', 'get_loadout', '--tool-arg', 'id=no-such-loadout']);
    expect(unknown.code, unknown.output).toBe(0);
    expect(unknown.json).toEqual({ content: [{ type: 'text', text: 'No loadout has the id "no-such-loadout". Call search_loadouts to find loadout ids.' }], isError: true });
    const bad = await inspect(['--method', 'tools/call', '--tool-name', 'get_loadout', '--tool-arg', 'id=nextjs-app-router', '--tool-arg', 'verbose=yes']);
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('-32602');
    expect(bad.output).toContain('verbose');
  }, 60_000);

  it('lists skills as resources and reads one', async () => {
    const list = await inspect(['--method', 'resources/list']);
    expect(list.code, list.output).toBe(0);
    const uris = (list.json as { resources: { uri: string }[] }).resources.map((r) => r.uri);
    const skill = uris.find((u) => u.endsWith('/SKILL.md'));
    expect(skill).toMatch(/^skill:\/\/[a-z0-9-]+\/[a-z0-9-]+\/SKILL\.md$/u);
    const read = await inspect(['--method', 'resources/read', '--uri', skill ?? '']);
    expect(read.code, read.output).toBe(0);
    const contents = (read.json as { contents: { uri: string; text: string }[] }).contents;
    expect(contents[0]?.uri).toBe(skill);
    expect(contents[0]?.text).toMatch(/^---\nname: /u);
  }, 60_000);
});
