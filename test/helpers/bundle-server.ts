/**
 * The bundle fixture catalogue (bundle-catalogue.ts) built for the address a real server listens
 * on, served as `loadout serve` serves a tree: static files, search and MCP
 * (`loadSearchAndMcpRoutes`), on 127.0.0.1 at an ephemeral port.
 */
import { loadSearchAndMcpRoutes } from '../../src/mcp/mount.js';
import { createApp } from '../../src/server/app.js';
import { listen } from '../../src/server/listen.js';
import { buildSpecCatalogue, type SpecCatalogue } from './spec-catalogue.js';
import { BUNDLE_SPECS, writeBundleHistory } from './bundle-catalogue.js';
import { freePort } from './free-port.js';

/** A served bundle catalogue. */
export interface BundleServer {
  url: string;
  fixture: SpecCatalogue;
  close(): Promise<void>;
}

/** Builds the fixture (with `more` written and committed after its history, when given) and serves it. */
export async function startBundleServer(prefix: string, more?: (root: string) => void): Promise<BundleServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const fixture = await buildSpecCatalogue(BUNDLE_SPECS, {
    prefix,
    baseUrl: url,
    beforeBuild: (root) => {
      writeBundleHistory(root);
      more?.(root);
    },
  });
  try {
    const routes = await loadSearchAndMcpRoutes(fixture.dist, url);
    const server = await listen(createApp({ routes, distDir: fixture.dist, baseUrl: url, submissionsOpen: false, config: { database: false, challenge_secret: false, challenge_site_key: false } }), { port, host: '127.0.0.1' });
    return {
      url,
      fixture,
      async close() {
        await server.close();
        fixture.remove();
      },
    };
  } catch (error) {
    fixture.remove();
    throw error;
  }
}
