/**
 * The MCP server card (DESIGN.md section 5; MCP Server Cards proposal SEP-2127, schema in
 * modelcontextprotocol/experimental-ext-server-card `schema.ts`): identity and transport in
 * the proposal's own fields (`$schema`, `name`, `version`, `description`, `title`,
 * `websiteUrl`, `remotes`), which follow the MCP Registry's `server.json`. The proposal's
 * schema closes the top level and leaves primitives to `tools/list`, so the capabilities and
 * the tool list with their schemas go in `_meta`, under the reverse-DNS key
 * {@link CARD_META_KEY}, where any client can still read them without connecting.
 */
import { SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { SKILL_TEMPLATES } from './resources.js';
import { CAPABILITIES, describeTools, INSTRUCTIONS, SERVER_INFO } from './server.js';

/** The proposal's schema URI. */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** Media type of the card (SEP-2127). */
export const SERVER_CARD_TYPE = 'application/mcp-server-card+json';
/** The `_meta` key that holds capabilities, instructions, tools and resource templates. */
export const CARD_META_KEY = 'catalogue.loadout/mcp';
/** Paths the card is served at: `<streamable-http-url>/server-card` and the well-known address. */
export const SERVER_CARD_PATHS = ['/mcp/server-card', '/.well-known/mcp/server-card.json'] as const;

/** Builds the card for `{base_url}` (no trailing slash). Pure apart from the tool schemas it converts. */
export function buildServerCard(baseUrl: string, version: string): Record<string, unknown> {
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: `${namespaceOf(baseUrl)}/${SERVER_INFO.name}`,
    version,
    title: SERVER_INFO.title,
    description: 'Search, read and install loadouts (instructions, rules, skills) for coding agents.',
    websiteUrl: `${baseUrl}/docs/`,
    remotes: [{ type: 'streamable-http', url: `${baseUrl}/mcp`, supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS] }],
    _meta: {
      [CARD_META_KEY]: {
        serverInfo: { name: SERVER_INFO.name, title: SERVER_INFO.title, version },
        protocolVersion: LATEST_PROTOCOL_VERSION,
        transport: { type: 'streamable-http', endpoint: '/mcp', stateless: true },
        capabilities: CAPABILITIES,
        instructions: INSTRUCTIONS,
        tools: describeTools(),
        resourceTemplates: SKILL_TEMPLATES,
      },
    },
  };
}

/** Reverse-DNS namespace of the base URL's host (`loadouts.example.com` → `com.example.loadouts`). */
export function namespaceOf(baseUrl: string): string {
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return 'localhost';
  }
  const clean = host.replace(/[^a-zA-Z0-9.-]/gu, '');
  if (clean === '' || /^[\d.]+$/u.test(clean)) return 'localhost';
  return clean.split('.').filter((l) => l !== '').reverse().join('.');
}
