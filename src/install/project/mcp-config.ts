/**
 * MCP configuration in the `.mcp.json` shape (`{ "mcpServers": { <name>: server } }`,
 * DESIGN.md section 3) and its conversion to the shapes of agents that read another one:
 * Codex `[mcp_servers.<name>]` TOML, VS Code / Copilot `servers`, Antigravity `serverUrl`.
 */
import { stringify as stringifyToml } from 'smol-toml';

/** One MCP server: a local process (`command`, `args`, `env`) or a remote one (`url`, `type`). */
export interface McpServerConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  type?: string;
  headers?: Record<string, string>;
  [key: string]: unknown;
}

/** Reads `mcpServers` from parsed JSON; undefined when the shape is not an object of objects. */
export function readMcpServers(data: unknown): Record<string, McpServerConfig> | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const servers = (data as Record<string, unknown>)['mcpServers'];
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) return undefined;
  for (const value of Object.values(servers)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  }
  return servers as Record<string, McpServerConfig>;
}

/** Codex `.codex/config.toml` tables (`[mcp_servers.<name>]`, remote servers as `url`). */
export function toCodexToml(servers: Record<string, McpServerConfig>): string {
  const tables: Record<string, Record<string, unknown>> = {};
  for (const [name, server] of Object.entries(servers)) {
    const table: Record<string, unknown> = {};
    if (server.command !== undefined) table['command'] = server.command;
    if (server.args !== undefined) table['args'] = server.args;
    if (server.env !== undefined) table['env'] = server.env;
    if (server.url !== undefined) table['url'] = server.url;
    if (server.headers !== undefined) table['http_headers'] = server.headers;
    tables[name] = table;
  }
  return stringifyToml({ mcp_servers: tables });
}

/** VS Code / Copilot `.vscode/mcp.json`: top-level `servers`, each with an explicit `type`. */
export function toVsCodeJson(servers: Record<string, McpServerConfig>): string {
  const converted: Record<string, McpServerConfig> = {};
  for (const [name, server] of Object.entries(servers)) {
    converted[name] = { type: server.type ?? (server.url === undefined ? 'stdio' : 'http'), ...server };
  }
  return JSON.stringify({ servers: converted }, null, 2);
}

/** Antigravity `.agents/mcp_config.json`: `mcpServers`, with `url` renamed `serverUrl`. */
export function toAntigravityJson(servers: Record<string, McpServerConfig>): string {
  const converted: Record<string, McpServerConfig> = {};
  for (const [name, { url, type: _type, ...rest }] of Object.entries(servers)) {
    converted[name] = url === undefined ? rest : { ...rest, serverUrl: url };
  }
  return JSON.stringify({ mcpServers: converted }, null, 2);
}
