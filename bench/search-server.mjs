// The server process of bench/search.ts, run from the compiled code in lib/ (as `loadout serve`
// runs): the built tree with the search and MCP routes, on a free loopback port. Sends {url}
// to the parent once listening, and answers 'rss' with its resident memory in bytes.
// Arguments: <dist> <baseUrl> [cacheMatches].
import { loadSearchAndMcpRoutes } from '../lib/mcp/mount.js';
import { createApp } from '../lib/server/app.js';
import { listen } from '../lib/server/listen.js';

const [dist = 'dist', baseUrl = 'http://127.0.0.1:8787', cacheMatches] = process.argv.slice(2);
const routes = await loadSearchAndMcpRoutes(dist, baseUrl, cacheMatches === undefined ? {} : { cacheMatches: Number(cacheMatches) });
const app = createApp({ routes, distDir: dist, baseUrl, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } });
const server = await listen(app, { port: 0, host: '127.0.0.1' });
process.on('message', (message) => {
  if (message === 'rss') {
    // Resident memory at once after the load, and once the server has been idle for 2 s
    // (after a full GC; V8 hands freed pages back to the system a little later).
    const peak = process.memoryUsage().rss;
    globalThis.gc?.();
    setTimeout(() => {
      globalThis.gc?.();
      process.send?.({ rss: process.memoryUsage().rss, peak });
    }, 2000);
  }
  if (message === 'stop') void server.close().then(() => process.exit(0));
});
process.send?.({ url: server.url });
