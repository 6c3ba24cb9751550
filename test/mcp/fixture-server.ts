/**
 * The fixture catalogue served on an ephemeral loopback port with the search and MCP routes,
 * as `loadout serve` mounts them, and an SDK client connected over Streamable HTTP.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadSearchAndMcpRoutes } from '../../src/mcp/mount.js';
import type { McpOptions } from '../../src/mcp/server.js';
import { createApp } from '../../src/server/app.js';
import { listen, type RunningServer } from '../../src/server/listen.js';
import { buildFixtureCatalogue, type FixtureCatalogue } from '../search/fixture.js';

/** A running fixture server. */
export interface FixtureServer {
  fixture: FixtureCatalogue;
  server: RunningServer;
  /** A new connected client; closed by `close`. */
  connect(): Promise<Client>;
  close(): Promise<void>;
}

/**
 * Builds the fixture and starts the server on 127.0.0.1, port 0 (`mcpOptions`: the MCP server's
 * page sizes). With `shared`, serves that fixture instead, which `close` leaves to its owner
 * (two servers that must answer alike serve one tree: install instructions name its folder).
 */
export async function startFixtureServer(mcpOptions: McpOptions = {}, shared?: FixtureCatalogue): Promise<FixtureServer> {
  const fixture = shared ?? (await buildFixtureCatalogue());
  const routes = await loadSearchAndMcpRoutes(fixture.dist, fixture.baseUrl, {}, mcpOptions);
  const app = createApp({ routes, distDir: fixture.dist, baseUrl: fixture.baseUrl, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } });
  const server = await listen(app, { port: 0, host: '127.0.0.1' });
  const clients: Client[] = [];
  return {
    fixture,
    server,
    async connect() {
      const client = new Client({ name: 'loadout-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) await client.close();
      await server.close();
      if (shared === undefined) fixture.remove();
    },
  };
}

/** The protocol error `call` rejects with; fails the test when it resolves or rejects with anything else. */
export async function errorOf(call: Promise<unknown>): Promise<McpError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}
