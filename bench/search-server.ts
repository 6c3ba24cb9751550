/**
 * The server process of `bench/search.ts`: the built tree with the search and MCP routes,
 * mounted as `loadout serve` mounts them, on a free loopback port. Sends `{url}` to the parent
 * once listening, and answers `'rss'` with its resident memory in bytes.
 */
import { loadSearchAndMcpRoutes } from '../src/mcp/mount.js';
import { createApp } from '../src/server/app.js';
import { listen } from '../src/server/listen.js';

const [dist = 'dist', baseUrl = 'http://127.0.0.1:8787'] = process.argv.slice(2);
const routes = await loadSearchAndMcpRoutes(dist, baseUrl);
const app = createApp({ routes, distDir: dist, baseUrl, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } });
const server = await listen(app, { port: 0, host: '127.0.0.1' });
process.on('message', (message) => {
  if (message === 'rss') {
    globalThis.gc?.();
    process.send?.({ rss: process.memoryUsage().rss });
  }
  if (message === 'stop') void server.close().then(() => process.exit(0));
});
process.send?.({ url: server.url });
