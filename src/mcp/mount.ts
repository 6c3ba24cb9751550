/**
 * Loads what search and MCP need from a built tree, once, and returns their mount functions
 * for `createApp({ routes })` (DESIGN.md section 1: both read the built tree, so every
 * instance answers the same).
 */
import type { Hono } from 'hono';
import { loadSearchEngine, type SearchEngine, type SearchEngineOptions } from '../search/engine.js';
import { mountSearch } from '../search/route.js';
import { openCatalogue } from './catalogue.js';
import { mountMcp } from './route.js';
import type { McpOptions } from './server.js';

/**
 * The search and MCP routes over `distDir`, with `baseUrl` (`{base_url}`, no trailing slash)
 * in the install commands and the server card; `mcpOptions` sets the MCP server's page sizes.
 * @throws LoadoutError `not_found` when the tree lacks the search index or its documents.
 */
export async function loadSearchAndMcpRoutes(distDir: string, baseUrl: string, searchOptions: SearchEngineOptions = {}, mcpOptions: McpOptions = {}): Promise<((app: Hono) => void)[]> {
  const engine = await loadSearchEngine(distDir, searchOptions);
  return [mountSearch(engine), await loadMcpRoutes(engine, distDir, baseUrl, mcpOptions)];
}

/**
 * The MCP routes over `distDir` with a search engine already loaded (`loadout serve` loads
 * search first and MCP once it listens). Same arguments and errors as {@link loadSearchAndMcpRoutes}.
 */
export async function loadMcpRoutes(engine: SearchEngine, distDir: string, baseUrl: string, mcpOptions: McpOptions = {}): Promise<(app: Hono) => void> {
  const catalogue = await openCatalogue(distDir);
  return mountMcp({ engine, catalogue, baseUrl: baseUrl.replace(/(?<!\/)\/+$/u, '') }, mcpOptions);
}
