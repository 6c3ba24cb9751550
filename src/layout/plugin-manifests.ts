/**
 * The manifests of a loadout's native plugin, one per plugin format, and its MCP servers in
 * each format's own syntax (DESIGN.md "Native plugins"). Pure: values in, JSON values out.
 *
 * The formats and where each field comes from (read 2026-11-26):
 * - Agent Plugins 1.0 (agentplugins/agent-plugins-spec `spec/1.0.0.md`,
 *   `schemas/1.0.0/plugin.schema.json`, `schemas/1.0.0/mcp.schema.json`): root `plugin.json`,
 *   a closed object (`$schema`, `name`, `version`, `description`, `author{name,email,url}`,
 *   `homepage`, `repository`, `license`, `keywords`, `extensions`); MCP servers only in the
 *   root `mcp.json` (`$schema`, `mcpServers`, each with `type` `stdio | streamable-http | sse`).
 *   Section 9.2: no placeholder but `${PLUGIN_ROOT}` and `${PLUGIN_DATA}` is expanded, and
 *   `url` and headers are never expanded, so a server that takes an environment variable
 *   (`${POSTGRES_URL}`) cannot be carried there. Read by Codex, Copilot CLI, VS Code, Cursor.
 * - Claude Code (SchemaStore `claude-code-plugin-manifest.json`; code.claude.com/docs/en/plugins-reference):
 *   `.claude-plugin/plugin.json` (only `name` required); `skills/`, `agents/` and the root
 *   `.mcp.json` (`{mcpServers}`, `${VAR}` and `${VAR:-default}` expanded) are found by
 *   convention. A plugin carries no CLAUDE.md and no rules.
 * - Gemini CLI (google-gemini/gemini-cli `docs/extensions/reference.md`): `gemini-extension.json`
 *   with `name` equal to the folder's name, `version`, `description`, `contextFileName` (the
 *   context file loaded from the extension folder), `mcpServers` (the settings.json shape,
 *   where `$VAR` and `${VAR}` expand); `skills/` and `agents/` by convention; no rules.
 * - Cursor (cursor/plugins `schemas/plugin.schema.json`, a closed object): `.cursor-plugin/plugin.json`
 *   with `displayName`, `author{name,email}` (no `url`), `homepage` and `repository` as URIs,
 *   `category`, `tags`, and paths to `skills`, `rules` (`.mdc`), `agents` and `mcpServers`
 *   (a file of `{mcpServers}`, as `.cursor/mcp.json`).
 */
import type { Manifest } from '../catalogue/manifest.js';

/** `$schema` of an Agent Plugins 1.0 `plugin.json`. */
export const AGENT_PLUGINS_SCHEMA = 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json';
/** `$schema` of an Agent Plugins 1.0 `mcp.json`. */
export const AGENT_PLUGINS_MCP_SCHEMA = 'https://agent-plugins.org/schemas/1.0.0/mcp.schema.json';

/** Where each format's files lie in a plugin folder. */
export const PLUGIN_PATHS = {
  agentPlugins: 'plugin.json',
  agentPluginsMcp: 'mcp.json',
  claude: '.claude-plugin/plugin.json',
  claudeMcp: '.mcp.json',
  gemini: 'gemini-extension.json',
  cursor: '.cursor-plugin/plugin.json',
  cursorMcp: '.cursor-plugin/mcp.json',
  readme: 'README.md',
} as const;

/** One MCP server as a loadout declares it (the `.mcp.json` shape, DESIGN.md section 3): a JSON object. */
export type McpServer = Readonly<Record<string, unknown>>;

/** What every manifest is made from: the loadout's manifest and where its page is. */
export interface PluginMetadata {
  manifest: Pick<Manifest, 'id' | 'version' | 'title' | 'summary' | 'license' | 'author' | 'source' | 'categories' | 'stacks'>;
  /** The loadout's page, `{base_url}/loadouts/<id>/` (the plugins' `homepage`). */
  homepage: string;
}

/** `keywords` of every format: the stacks, then the categories, each once. */
const keywordsOf = (m: PluginMetadata['manifest']): string[] => [...new Set([...m.stacks, ...m.categories])];

/** The author with the fields a format takes (`url` where allowed). */
const authorOf = (m: PluginMetadata['manifest'], withUrl: boolean): { name: string; url?: string } => (withUrl && m.author.url !== undefined ? { name: m.author.name, url: m.author.url } : { name: m.author.name });

/** The fields Agent Plugins 1.0 and Claude Code share, in both formats' order. */
function sharedManifest({ manifest: m, homepage }: PluginMetadata): Record<string, unknown> {
  return {
    name: m.id,
    version: m.version,
    description: m.summary,
    author: authorOf(m, true),
    homepage,
    ...(m.source === undefined ? {} : { repository: m.source.repo }),
    license: m.license,
    keywords: keywordsOf(m),
  };
}

/** The Agent Plugins 1.0 `plugin.json`. */
export function agentPluginsManifest(metadata: PluginMetadata): Record<string, unknown> {
  return { $schema: AGENT_PLUGINS_SCHEMA, ...sharedManifest(metadata) };
}

/** Claude Code's `.claude-plugin/plugin.json` (components are found by convention). */
export function claudePluginManifest(metadata: PluginMetadata): Record<string, unknown> {
  return sharedManifest(metadata);
}

/**
 * Gemini CLI's `gemini-extension.json`: `contextFileName` names the loadout's instructions
 * (undefined: none), `servers` go in as the loadout declares them.
 */
export function geminiExtensionManifest({ manifest: m }: PluginMetadata, contextFileName: string | undefined, servers: Readonly<Record<string, McpServer>>): Record<string, unknown> {
  return {
    name: m.id,
    version: m.version,
    description: m.summary,
    ...(contextFileName === undefined ? {} : { contextFileName }),
    ...(Object.keys(servers).length === 0 ? {} : { mcpServers: servers }),
  };
}

/** Which component folders a Cursor plugin has (the paths its manifest names). */
export interface CursorComponents {
  skills: boolean;
  rules: boolean;
  agents: boolean;
  mcp: boolean;
}

/** Cursor's `.cursor-plugin/plugin.json`, naming the component folders it has. */
export function cursorPluginManifest({ manifest: m, homepage }: PluginMetadata, has: CursorComponents): Record<string, unknown> {
  return {
    name: m.id,
    displayName: m.title,
    version: m.version,
    description: m.summary,
    author: authorOf(m, false),
    homepage,
    ...(m.source === undefined ? {} : { repository: m.source.repo }),
    license: m.license,
    keywords: keywordsOf(m),
    ...(m.categories[0] === undefined ? {} : { category: m.categories[0] }),
    tags: m.stacks,
    ...(has.skills ? { skills: './skills/' } : {}),
    ...(has.rules ? { rules: './rules/' } : {}),
    ...(has.agents ? { agents: './agents/' } : {}),
    ...(has.mcp ? { mcpServers: `./${PLUGIN_PATHS.cursorMcp}` } : {}),
  };
}

/** A server that Agent Plugins cannot carry, and why (one line). */
export interface RefusedServer {
  name: string;
  reason: string;
}

/** A `${` that is not one of the two Agent Plugins expands. */
const BRACE_VARIABLE = /\$\{(?!PLUGIN_ROOT\}|PLUGIN_DATA\})/u;

/**
 * True when `value` names an environment variable: `$NAME`, or a `${` (not `${PLUGIN_ROOT}` or
 * `${PLUGIN_DATA}`) that a `}` closes. The first such `${` decides: a `}` after a later one is
 * after it too. `\$\{…[^}]*\}` ran each attempt to the end of a value without `}`: quadratic.
 */
function namesVariable(value: string): boolean {
  const open = BRACE_VARIABLE.exec(value);
  return (open !== null && value.includes('}', open.index + 2)) || /\$[A-Za-z_]/u.test(value);
}
const strings = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : value !== null && typeof value === 'object' ? Object.values(value).filter((v): v is string => typeof v === 'string') : []);

/**
 * The Agent Plugins 1.0 `mcp.json` of `servers` (spec section 7.2): each local server as
 * `{type: "stdio", command, args?, env?}`, each remote one as `{type: "streamable-http" | "sse",
 * url, headers?}` (`http` and a missing type are Streamable HTTP). A server that names an
 * environment variable (`${VAR}`, `$VAR`: section 9.2 expands none), whose `command` is not a
 * single bare token or `./` path (section 7.2.1), or that is neither local nor remote, is left
 * out and returned in `refused`.
 */
export function agentPluginsMcp(servers: Readonly<Record<string, McpServer>>): { document: Record<string, unknown>; refused: RefusedServer[] } {
  const converted: Record<string, Record<string, unknown>> = {};
  const refused: RefusedServer[] = [];
  for (const [name, server] of Object.entries(servers)) {
    const { command, args, env, url, headers, type } = server;
    const values = [...strings(args), ...strings(env), ...strings(url), ...strings(headers)];
    if (values.some(namesVariable)) {
      refused.push({ name, reason: 'it takes an environment variable, which Agent Plugins 1.0 does not expand (spec section 9.2)' });
    } else if (typeof command === 'string') {
      if (!/^(?:\.\/)?[^\s/]+(?:\/[^\s/]+)*$/u.test(command) || (command.includes('/') && !command.startsWith('./'))) {
        refused.push({ name, reason: 'its command is not one executable name or ./ path (spec section 7.2.1)' });
        continue;
      }
      converted[name] = { type: 'stdio', command, ...(Array.isArray(args) ? { args } : {}), ...(env !== null && typeof env === 'object' ? { env } : {}) };
    } else if (typeof url === 'string') {
      converted[name] = { type: type === 'sse' ? 'sse' : 'streamable-http', url, ...(headers !== null && typeof headers === 'object' ? { headers } : {}) };
    } else {
      refused.push({ name, reason: 'it has neither a command nor a url' });
    }
  }
  return { document: { $schema: AGENT_PLUGINS_MCP_SCHEMA, mcpServers: converted }, refused };
}
