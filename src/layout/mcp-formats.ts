/**
 * MCP configuration per agent: a loadout's MCP file is in the `.mcp.json` shape
 * (`{ "mcpServers": { <name>: server } }`, DESIGN.md section 3) and each agent reads its own
 * file, key and variable syntax (`mcp-variables.ts`). This module converts the loadout's servers
 * into each agent's shape, says what no file can do (a variable to set: a manual step), and
 * renders the agent's file. The files and their shapes (documentation checked 2026-11-26):
 *
 * | agent | file | shape | source |
 * |---|---|---|---|
 * | Claude Code | `.mcp.json` | `mcpServers` | code.claude.com/docs/en/mcp |
 * | Cursor | `.cursor/mcp.json` | `mcpServers` | cursor.com/docs/context/mcp |
 * | Gemini CLI | `.gemini/settings.json` | `mcpServers` beside the other settings | geminicli.com/docs/tools/mcp-server |
 * | Copilot (VS Code) | `.vscode/mcp.json` | `servers` (each with `type` `stdio`, `http` or `sse`) and `inputs` | code.visualstudio.com/docs/copilot/reference/mcp-configuration |
 * | Copilot CLI | `.github/mcp.json` | `mcpServers`, each with `type` (`stdio`/`local`, `http`, `sse`) and `tools` (`["*"]`: all); `env` and `headers` expand `$VAR`, `${VAR}`, `${VAR:-default}` | docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/add-mcp-servers ("Adding per-repository MCP servers"), /copilot/reference/copilot-cli-reference/cli-command-reference ("MCP server configuration") |
 * | Codex | `.codex/config.toml` | `[mcp_servers.<name>]` tables: `command`, `args`, `cwd`, `env`, `env_vars`, or `url`, `bearer_token_env_var`, `http_headers`, `env_http_headers`; read in trusted projects only | developers.openai.com/codex/mcp, /codex/config-reference |
 * | Antigravity | `.agents/mcp_config.json` | `mcpServers`, a remote server's address as `serverUrl` | antigravity.google/docs/mcp; google-antigravity/antigravity-cli#233 |
 *
 * The `copilot` agent stands for GitHub Copilot in VS Code and Copilot CLI, which read different
 * files: Copilot CLI reads a project's MCP servers from `.mcp.json` (each folder from the working
 * folder up to the repository root) and `.github/mcp.json` ("shared configuration that is
 * committed to the repository"), never `.vscode/mcp.json` (its top-level key `servers` is not
 * the CLI's; github/copilot-cli#3019, 1.0.37 and later). `.mcp.json` is Claude Code's file, so a
 * `copilot` install writes its servers to `.github/mcp.json` too ({@link COPILOT_CLI_MCP_FILE}), in
 * the CLI's shape (issue 57 point 12).
 *
 * Pure: values in, values and text out.
 */
import type { Agent } from '../catalogue/vocabulary.js';
import { findVariables, isSecretVariable, replaceVariables, VARIABLE_SYNTAX, wholeVariable, type VariableReference } from './mcp-variables.js';
import { findTomlGaps } from './toml-limits.js';

/** One MCP server in the `.mcp.json` shape: a local process (`command`, `args`, `env`) or a remote one (`url`, `type`, `headers`). */
export interface McpServerConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  type?: string;
  headers?: Record<string, string>;
  [key: string]: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Reads `mcpServers` from parsed JSON; undefined when the shape is not an object of objects. */
export function readMcpServers(data: unknown): Record<string, McpServerConfig> | undefined {
  if (!isObject(data)) return undefined;
  const servers = data['mcpServers'];
  if (!isObject(servers)) return undefined;
  for (const value of Object.values(servers)) if (!isObject(value)) return undefined;
  return servers as Record<string, McpServerConfig>;
}

/** How an MCP configuration file is written: JSON or TOML, the key holding the servers, and whether it has VS Code's `inputs`. */
export interface McpFileFormat {
  syntax: 'json' | 'toml';
  key: 'mcpServers' | 'servers' | 'mcp_servers';
  inputs: boolean;
}

const JSON_MCP_SERVERS: McpFileFormat = { syntax: 'json', key: 'mcpServers', inputs: false };

/** The MCP configuration files the installer merges servers into (project or home folder), by path; see the table above. */
export const MCP_FILE_FORMATS: Readonly<Record<string, McpFileFormat>> = {
  '.mcp.json': JSON_MCP_SERVERS,
  '.claude.json': JSON_MCP_SERVERS,
  '.cursor/mcp.json': JSON_MCP_SERVERS,
  '.gemini/settings.json': JSON_MCP_SERVERS,
  '.agents/mcp_config.json': JSON_MCP_SERVERS,
  '.vscode/mcp.json': { syntax: 'json', key: 'servers', inputs: true },
  '.github/mcp.json': JSON_MCP_SERVERS,
  '.codex/config.toml': { syntax: 'toml', key: 'mcp_servers', inputs: false },
};

/**
 * Copilot CLI's project MCP file that a `copilot` install writes beside VS Code's
 * `.vscode/mcp.json` (see the module comment; docs.github.com/en/copilot/how-tos/copilot-cli/
 * customize-copilot/add-mcp-servers, "Adding per-repository MCP servers": `.github/mcp.json`,
 * "Shared configuration that is committed to the repository"; same format as
 * `~/.copilot/mcp-config.json`, `mcpServers`).
 */
export const COPILOT_CLI_MCP_FILE = '.github/mcp.json';

/** True when servers converted for `agent` and written at `target` are read by Copilot CLI ({@link COPILOT_CLI_MCP_FILE}). */
const readByCopilotCli = (agent: Agent, target: string | undefined): boolean => agent === 'copilot' && target === COPILOT_CLI_MCP_FILE;

/** The format of the MCP file at `target`: the table's, else by extension (`.toml`: Codex tables; other: `mcpServers` JSON). */
export function mcpFileFormat(target: string): McpFileFormat {
  return MCP_FILE_FORMATS[target] ?? (target.endsWith('.toml') ? MCP_FILE_FORMATS['.codex/config.toml'] : undefined) ?? JSON_MCP_SERVERS;
}

/** The format of the file each agent's MCP servers go to (its default target, `layout.ts`). */
export const AGENT_MCP_FORMAT: Record<Agent, McpFileFormat> = {
  'claude-code': JSON_MCP_SERVERS,
  cursor: JSON_MCP_SERVERS,
  'gemini-cli': JSON_MCP_SERVERS,
  'antigravity-cli': JSON_MCP_SERVERS,
  copilot: { syntax: 'json', key: 'servers', inputs: true },
  codex: { syntax: 'toml', key: 'mcp_servers', inputs: false },
};

/** What no file can do for one server: a variable the user sets, or a server left out. */
export interface McpNote {
  kind: 'set-env' | 'not-supported';
  server: string;
  text: string;
}

/** A variable form one agent cannot write as the loadout means it: where (`env.K`, `args[1]`), the value, and what the install does instead. */
export interface Unexpressible {
  server: string;
  where: string;
  value: string;
  why: string;
}

/** A value of a server one agent's file cannot hold (`toml-limits.ts`): where in the server (keys and indexes), the value, why, and whether the install fails on it. */
export interface UnholdableValue {
  server: string;
  path: (string | number)[];
  value: unknown;
  why: string;
  fails: boolean;
}

/** A loadout's servers in one agent's shape. */
export interface AgentMcpConfig {
  /** Server name → the agent's entry; a server the agent cannot take is left out (with a `not-supported` note). */
  servers: Record<string, Record<string, unknown>>;
  /** VS Code's `inputs` (empty for the other agents). */
  inputs: Record<string, unknown>[];
  notes: McpNote[];
  /** Variable forms the agent cannot write as the loadout means them (for the `mcp` check). */
  unexpressible: Unexpressible[];
  /** Values the agent's file cannot hold (for the `mcp` check; Codex's TOML: null, integers beyond 64 bits). */
  unholdable: UnholdableValue[];
}

const AGENT_NAMES: Record<Agent, string> = { 'claude-code': 'Claude Code', codex: 'Codex', cursor: 'Cursor', 'gemini-cli': 'Gemini CLI', copilot: 'VS Code', 'antigravity-cli': 'Antigravity' };

/** The one manual step for a variable read from the environment, worded alike for every agent so a project prints it once. */
const setEnvText = (name: string, server: string): string => `Set ${name} in your environment: the MCP server "${server}" reads it.`;

/** String fields of a server that may hold references, with their values. */
function stringsOf(server: McpServerConfig): { where: string; value: string }[] {
  const out: { where: string; value: string }[] = [];
  for (const key of ['command', 'url', 'cwd'] as const) if (typeof server[key] === 'string') out.push({ where: key, value: server[key] as string });
  if (Array.isArray(server.args)) server.args.forEach((a, i) => typeof a === 'string' && out.push({ where: `args[${i}]`, value: a }));
  for (const key of ['env', 'headers'] as const) {
    const map = server[key];
    if (isObject(map)) for (const [k, v] of Object.entries(map)) if (typeof v === 'string') out.push({ where: `${key}.${k}`, value: v });
  }
  return out;
}

/** `value` (any JSON) with every string's references rewritten by `write`. */
function mapStrings(value: unknown, write: (ref: VariableReference) => string): unknown {
  if (typeof value === 'string') return replaceVariables(value, write);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, write));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, write)]));
  return value;
}

/**
 * Converts `servers` (the loadout's `mcpServers`) into `agent`'s shape, for the agent's own MCP
 * file, or for `target` when given: for `copilot`, {@link COPILOT_CLI_MCP_FILE} is Copilot CLI's
 * shape. Pure; never throws.
 */
export function convertMcpServers(servers: Record<string, McpServerConfig>, agent: Agent, target?: string): AgentMcpConfig {
  const config: AgentMcpConfig = { servers: {}, inputs: [], notes: [], unexpressible: [], unholdable: [] };
  const note = (kind: McpNote['kind'], server: string, text: string): void => {
    if (!config.notes.some((n) => n.text === text)) config.notes.push({ kind, server, text });
  };
  for (const [name, server] of Object.entries(servers)) {
    const converted = readByCopilotCli(agent, target) ? toCopilotCli(name, server, note) : agent === 'codex' ? toCodex(name, server, note, config) : agent === 'antigravity-cli' ? toAntigravity(name, server, note, config) : toExpanding(name, server, agent, note, config);
    if (converted !== undefined) config.servers[name] = converted;
  }
  return config;
}

type Note = (kind: McpNote['kind'], server: string, text: string) => void;

/** Claude Code, Cursor, Gemini CLI, VS Code: the agent expands variables in its own syntax (`VARIABLE_SYNTAX`). */
function toExpanding(name: string, server: McpServerConfig, agent: Agent, note: Note, config: AgentMcpConfig): Record<string, unknown> {
  const syntax = VARIABLE_SYNTAX[agent] ?? ((r: VariableReference) => `\${${r.name}}`);
  for (const { where, value } of stringsOf(server)) {
    for (const ref of findVariables(value)) {
      const asInput = agent === 'copilot' && syntax(ref).startsWith('${input:');
      if (asInput) {
        // One input per variable, worded alike for every loadout, so two loadouts that read one variable share it.
        if (!config.inputs.some((i) => i['id'] === ref.name)) config.inputs.push({ type: 'promptString', id: ref.name, description: `${ref.name}, read by MCP servers of this project`, password: isSecretVariable(ref.name), ...(ref.fallback === undefined ? {} : { default: ref.fallback }) });
        continue;
      }
      note('set-env', name, setEnvText(ref.name, name));
      if (ref.fallback !== undefined && agent !== 'claude-code') {
        config.unexpressible.push({ server: name, where, value, why: `${AGENT_NAMES[agent]} has no default syntax: the default is dropped` });
        note('set-env', name, `Set ${ref.name} in your environment (the loadout's default is "${ref.fallback}"; ${AGENT_NAMES[agent]} has no syntax for defaults): the MCP server "${name}" reads it.`);
      }
    }
  }
  const entry = mapStrings(server, syntax) as Record<string, unknown>;
  if (agent !== 'copilot') return entry;
  // VS Code: every server has a type (stdio, http or sse).
  const { type, ...rest } = entry;
  return { type: server.url === undefined ? 'stdio' : type === 'sse' ? 'sse' : 'http', ...rest };
}

/**
 * Copilot CLI (`.github/mcp.json`): the `.mcp.json` shape, with every server's `type` (`stdio`
 * for a local process, else `http` or `sse`) and `tools`, which its reference lists as required
 * (`["*"]`, every tool, unless the loadout names them). Variables stay `${VAR}` and
 * `${VAR:-default}` as written: `env` and `headers` expand them (cli-command-reference, "Local
 * server configuration fields", "Remote server configuration fields"); each is a variable the
 * user sets, as for Claude Code. Never leaves a server out.
 */
function toCopilotCli(name: string, server: McpServerConfig, note: Note): Record<string, unknown> {
  for (const { value } of stringsOf(server)) for (const ref of findVariables(value)) note('set-env', name, setEnvText(ref.name, name));
  const { type, ...rest } = server;
  return { type: server.url === undefined ? 'stdio' : type === 'sse' ? 'sse' : 'http', ...rest, tools: rest['tools'] ?? ['*'] };
}

/** Codex's own keys of a `[mcp_servers.<name>]` table that a loadout may carry as they are (developers.openai.com/codex/config-reference). */
const CODEX_KEYS = ['command', 'args', 'cwd', 'url', 'startup_timeout_sec', 'tool_timeout_sec', 'enabled', 'enabled_tools', 'disabled_tools', 'default_tools_approval_mode', 'tools'];

/**
 * Codex: no interpolation. An `env` value that refers to variables becomes `env_vars` (passed
 * through from Codex's environment), with a manual step when the name differs or the value is
 * not one variable; a header becomes `bearer_token_env_var` (`Bearer ${X}` on Authorization) or
 * `env_http_headers` (`${X}`); a reference anywhere else leaves the server out, since Codex would
 * pass `${…}` as text.
 */
function toCodex(name: string, server: McpServerConfig, note: Note, config: AgentMcpConfig): Record<string, unknown> | undefined {
  const table: Record<string, unknown> = {};
  for (const key of CODEX_KEYS) if (server[key] !== undefined) table[key] = server[key];
  const elsewhere = stringsOf(server).filter((s) => !s.where.startsWith('env.') && !s.where.startsWith('headers.') && findVariables(s.value).length > 0);
  const env: Record<string, string> = {};
  const envVars: string[] = [];
  const headers: Record<string, string> = {};
  const envHeaders: Record<string, string> = {};
  const badHeaders: { where: string; value: string }[] = [];
  for (const [key, value] of Object.entries(isObject(server.env) ? server.env : {})) {
    if (typeof value !== 'string' || findVariables(value).length === 0) {
      env[key] = value;
      continue;
    }
    envVars.push(key);
    const whole = wholeVariable(value);
    if (whole === key) note('set-env', name, setEnvText(key, name));
    else {
      note('set-env', name, `Set ${key} in your environment to ${whole === undefined ? `"${value}"` : `the value of ${whole}`}: Codex passes ${key} to the MCP server "${name}" (env_vars) and does not expand variables in .codex/config.toml.`);
      config.unexpressible.push({ server: name, where: `env.${key}`, value, why: `Codex does not expand variables: env_vars passes ${key} as it is set` });
    }
  }
  let bearer: string | undefined;
  for (const [key, value] of Object.entries(isObject(server.headers) ? server.headers : {})) {
    if (typeof value !== 'string' || findVariables(value).length === 0) headers[key] = String(value);
    else if (wholeVariable(value) !== undefined) envHeaders[key] = wholeVariable(value) as string;
    else if (key.toLowerCase() === 'authorization' && /^Bearer \$\{[A-Za-z_][A-Za-z0-9_]*\}$/u.test(value) && wholeVariable(value.slice(7)) !== undefined) bearer = wholeVariable(value.slice(7));
    else badHeaders.push({ where: `headers.${key}`, value });
  }
  const unexpressed = [...elsewhere, ...badHeaders].map((s) => s.where);
  if (unexpressed.length > 0) {
    for (const s of [...elsewhere, ...badHeaders]) config.unexpressible.push({ server: name, where: s.where, value: s.value, why: 'Codex expands no variables there: the server is left out' });
    note('not-supported', name, `The MCP server "${name}" is not written to .codex/config.toml: its ${unexpressed.join(', ')} use \${…}, which Codex does not expand (developers.openai.com/codex/mcp). Add it yourself with the values filled in.`);
    return undefined;
  }
  if (Object.keys(env).length > 0) table['env'] = env;
  if (envVars.length > 0) table['env_vars'] = envVars;
  if (bearer !== undefined) {
    table['bearer_token_env_var'] = bearer;
    note('set-env', name, setEnvText(bearer, name));
  }
  if (Object.keys(headers).length > 0) table['http_headers'] = headers;
  if (Object.keys(envHeaders).length > 0) {
    table['env_http_headers'] = envHeaders;
    for (const variable of Object.values(envHeaders)) note('set-env', name, setEnvText(variable, name));
  }
  // The table's keys are the loadout's (env, and Codex's own keys as they are): a gap's path is the loadout's too.
  for (const gap of findTomlGaps(table)) config.unholdable.push({ server: name, ...gap });
  return table;
}

/**
 * Antigravity: a remote server's `url` is `serverUrl`; no expansion is documented and `${X}`
 * reaches the server as text (google-antigravity/antigravity-cli#233), so an `env` entry that
 * refers to variables is left out with a manual step, and a reference anywhere else leaves the
 * server out.
 */
function toAntigravity(name: string, server: McpServerConfig, note: Note, config: AgentMcpConfig): Record<string, unknown> | undefined {
  const { url, type: _type, env, ...rest } = server;
  const elsewhere = stringsOf(server).filter((s) => !s.where.startsWith('env.') && findVariables(s.value).length > 0);
  if (elsewhere.length > 0) {
    for (const s of elsewhere) config.unexpressible.push({ server: name, where: s.where, value: s.value, why: 'Antigravity expands no variables: the server is left out' });
    note('not-supported', name, `The MCP server "${name}" is not written to .agents/mcp_config.json: its ${elsewhere.map((s) => s.where).join(', ')} use \${…}, which Antigravity does not expand (google-antigravity/antigravity-cli#233). Add it yourself with the values filled in.`);
    return undefined;
  }
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(isObject(env) ? env : {})) {
    if (typeof value !== 'string' || findVariables(value).length === 0) {
      kept[key] = value;
      continue;
    }
    const whole = wholeVariable(value);
    config.unexpressible.push({ server: name, where: `env.${key}`, value, why: 'Antigravity does not expand variables: left out of env, with a manual step' });
    note('set-env', name, `Set ${key}${whole === undefined ? ` to "${value}"` : whole === key ? '' : ` to the value of ${whole}`} in the environment you start Antigravity from, or add it to "env" of "${name}" in .agents/mcp_config.json yourself: Antigravity does not expand \${…} there, and the MCP server "${name}" reads it.`);
  }
  return { ...rest, ...(Object.keys(kept).length > 0 ? { env: kept } : {}), ...(url === undefined ? {} : { serverUrl: url }) };
}

/** A TOML key: bare when it can be (`[A-Za-z0-9_-]+`), else a basic string. */
function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/u.test(key) ? key : tomlString(key);
}

/** A TOML basic string: JSON's escapes are TOML's, plus DEL, which TOML wants escaped (toml.io/en/v1.0.0#string). */
function tomlString(value: string): string {
  return JSON.stringify(value).replaceAll('\u007f', '\\u007F');
}

/**
 * A value as TOML, tables inline (`{ K = "v" }`), so each server is one table of one line per key.
 * A null (TOML has none) is left out of tables and arrays; an integer is written with all its
 * digits (one beyond 64 bits, `toml-limits.ts`, is refused by the installer once read back).
 */
export function tomlValue(value: unknown): string {
  if (typeof value === 'string') return tomlString(value);
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value).toString();
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `[${value.filter((v) => v !== undefined && v !== null).map(tomlValue).join(', ')}]`;
  if (isObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined && v !== null);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`).join(', ')} }`;
  }
  return '""';
}

/** One `[mcp_servers.<name>]` table: the header and a line per key, each ending in a newline. */
export function renderTomlServer(name: string, server: Record<string, unknown>): string {
  const lines = Object.entries(server)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}\n`);
  return `[mcp_servers.${tomlKey(name)}]\n${lines.join('')}`;
}

/** The agent's MCP file holding only `config` (what a fresh project gets, and the per-agent zips). */
export function renderMcpConfig(config: AgentMcpConfig, format: McpFileFormat): string {
  if (format.syntax === 'toml') return Object.entries(config.servers).map(([name, server]) => renderTomlServer(name, server)).join('\n');
  const doc = format.inputs ? { ...(config.inputs.length > 0 ? { inputs: config.inputs } : {}), [format.key]: config.servers } : { [format.key]: config.servers };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** The loadout's MCP file `text` converted for `agent` (at `target`: {@link convertMcpServers}), or undefined when it is not `.mcp.json`-shaped JSON. */
export function convertMcpText(text: string, agent: Agent, target?: string): AgentMcpConfig | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const servers = readMcpServers(data);
  return servers === undefined ? undefined : convertMcpServers(servers, agent, target);
}

/**
 * The text a loadout's MCP file is installed with for `agent`: its servers in the agent's shape
 * and syntax (`AGENT_MCP_FORMAT`), or, at `target` {@link COPILOT_CLI_MCP_FILE} for `copilot`,
 * in Copilot CLI's. Claude Code's is the loadout's text as it is (its shape and syntax are the
 * loadout's). A file that is not `.mcp.json`-shaped JSON stays as it is (the `parse` and `mcp`
 * checks refuse it).
 */
export function installedMcpText(text: string, agent: Agent, target?: string): string {
  if (agent === 'claude-code') return text;
  const config = convertMcpText(text, agent, target);
  return config === undefined ? text : renderMcpConfig(config, readByCopilotCli(agent, target) ? JSON_MCP_SERVERS : AGENT_MCP_FORMAT[agent]);
}
