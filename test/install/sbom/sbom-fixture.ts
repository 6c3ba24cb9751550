/**
 * A catalogue for the SBOM tests (issue 55, point 3): the real dbt-analytics (its Postgres MCP
 * server started by `uvx postgres-mcp`, no version) and discord-bot-ts (Context7 by
 * `npx -y @upstash/context7-mcp`, no version), and `pinned-kit`, whose servers start a pinned npm
 * package, an npm range, a pinned PyPI package, an image by digest, a program on the user's PATH
 * and a remote server; in a real git repository, built with the real `buildCatalogue`.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildCatalogue } from '../../../src/tree/build.js';
import { baseFiles, writeLoadout } from '../../helpers/loadouts.js';
import { commitAll, initRepo } from '../../helpers/temp.js';

/** The image digest pinned-kit's `browser` server names. */
export const IMAGE_DIGEST = `sha256:${'ab12'.repeat(16)}`;

/** pinned-kit's MCP servers. */
export const PINNED_KIT_SERVERS = {
  docs: { command: 'npx', args: ['-y', '@acme/docs-mcp@1.4.2'] },
  search: { command: 'npx', args: ['-y', 'search-mcp@^2.1'] },
  fetch: { command: 'uvx', args: ['mcp-server-fetch==2025.4.7'] },
  browser: { command: 'docker', args: ['run', '-i', '--rm', `ghcr.io/acme/browser@${IMAGE_DIGEST}`] },
  tool: { command: 'my-mcp-server', args: ['--stdio'] },
  remote: { type: 'http', url: 'https://mcp.example.com/mcp' },
};

/** The catalogue's repository and its built tree. */
export interface SbomCatalogue {
  root: string;
  dist: string;
}

/** Writes, commits and builds the catalogue in `root`, an empty or new folder (the caller removes it). */
export async function buildSbomCatalogue(root: string): Promise<SbomCatalogue> {
  mkdirSync(root, { recursive: true });
  initRepo(root);
  for (const id of ['dbt-analytics', 'discord-bot-ts']) cpSync(new URL(`../../../loadouts/${id}`, import.meta.url), join(root, 'loadouts', id), { recursive: true });
  writeLoadout(root, {
    id: 'pinned-kit',
    title: 'Pinned Kit',
    version: '2.0.1',
    files: [...baseFiles('Pinned Kit'), { path: 'mcp/servers.json', role: 'mcp', content: `${JSON.stringify({ mcpServers: PINNED_KIT_SERVERS }, null, 2)}\n` }],
    manifest: { license: 'Apache-2.0', requires: { tools: [], env: [], mcp: Object.keys(PINNED_KIT_SERVERS) }, security: { scanned: true, network: true, scripts: [] } },
  });
  commitAll(root, 'three loadouts', '2026-03-01T10:00:00Z');
  const dist = join(root, 'dist');
  const built = await buildCatalogue({ root, out: dist, baseUrl: 'http://catalogue.test' });
  if (built.refused.length > 0) throw new Error(`fixture refused: ${JSON.stringify(built.runs.flatMap((r) => r.results.filter((c) => c.status === 'fail')))}`);
  return { root, dist };
}
