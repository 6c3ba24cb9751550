import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_AGENTS } from '../../src/catalogue/vocabulary.js';
import { convertMcpServers, COPILOT_CLI_MCP_FILE, installedMcpText, mcpFileFormat, type McpServerConfig } from '../../src/layout/mcp-formats.js';
import { findVariables, isSecretVariable } from '../../src/layout/mcp-variables.js';

const DBT = readFileSync(new URL('../../loadouts/dbt-analytics/mcp/servers.json', import.meta.url), 'utf8');
const servers = (value: Record<string, McpServerConfig>): Record<string, McpServerConfig> => value;

describe('MCP configuration per agent (layout/mcp-formats.ts)', () => {
  it('writes dbt-analytics\'s server in each agent\'s shape and variable syntax, never a ${…} an agent passes as text', () => {
    const files = Object.fromEntries(PUBLISHED_AGENTS.map((agent) => [agent, installedMcpText(DBT, agent)]));
    expect(files['claude-code']).toBe(DBT);
    expect(JSON.parse(files['cursor'] ?? '')).toEqual({ mcpServers: { postgres: { command: 'uvx', args: ['postgres-mcp', '--access-mode=restricted'], env: { DATABASE_URI: '${env:POSTGRES_URL}' } } } });
    expect(JSON.parse(files['gemini-cli'] ?? '')).toEqual({ mcpServers: { postgres: { command: 'uvx', args: ['postgres-mcp', '--access-mode=restricted'], env: { DATABASE_URI: '${POSTGRES_URL}' } } } });
    expect(JSON.parse(files['copilot'] ?? '')).toEqual({
      inputs: [{ type: 'promptString', id: 'POSTGRES_URL', description: 'POSTGRES_URL, read by MCP servers of this project', password: true }],
      servers: { postgres: { type: 'stdio', command: 'uvx', args: ['postgres-mcp', '--access-mode=restricted'], env: { DATABASE_URI: '${input:POSTGRES_URL}' } } },
    });
    expect(files['codex']).toBe('[mcp_servers.postgres]\ncommand = "uvx"\nargs = ["postgres-mcp", "--access-mode=restricted"]\nenv_vars = ["DATABASE_URI"]\n');
    expect(parseToml(files['codex'] ?? '')).toEqual({ mcp_servers: { postgres: { command: 'uvx', args: ['postgres-mcp', '--access-mode=restricted'], env_vars: ['DATABASE_URI'] } } });
    expect(JSON.parse(files['antigravity-cli'] ?? '')).toEqual({ mcpServers: { postgres: { command: 'uvx', args: ['postgres-mcp', '--access-mode=restricted'] } } });
    for (const agent of ['codex', 'antigravity-cli'] as const) expect(files[agent]).not.toContain('${');
  });

  it('writes Copilot CLI\'s .github/mcp.json in its own shape: mcpServers, every server with a type and tools, variables from the environment (issue 57 point 12)', () => {
    expect(JSON.parse(installedMcpText(DBT, 'copilot', COPILOT_CLI_MCP_FILE))).toEqual({ mcpServers: { postgres: { type: 'stdio', command: 'uvx', args: ['postgres-mcp', '--access-mode=restricted'], env: { DATABASE_URI: '${POSTGRES_URL}' }, tools: ['*'] } } });
    const remote = convertMcpServers(servers({ docs: { type: 'sse', url: 'https://mcp.example.com/sse', headers: { Authorization: 'Bearer ${DOCS_TOKEN:-none}' } }, api: { url: 'https://mcp.example.com/mcp', tools: ['search'] } }), 'copilot', COPILOT_CLI_MCP_FILE);
    expect(remote.servers).toEqual({ docs: { type: 'sse', url: 'https://mcp.example.com/sse', headers: { Authorization: 'Bearer ${DOCS_TOKEN:-none}' }, tools: ['*'] }, api: { type: 'http', url: 'https://mcp.example.com/mcp', tools: ['search'] } });
    expect(remote.inputs).toEqual([]);
    expect(remote.notes.map((n) => n.text)).toEqual(['Set DOCS_TOKEN in your environment: the MCP server "docs" reads it.']);
    expect(remote.unexpressible).toEqual([]);
    // VS Code's file for the same agent is unchanged; the JSON files format is the mcpServers one.
    expect(installedMcpText(DBT, 'copilot')).toBe(installedMcpText(DBT, 'copilot', '.vscode/mcp.json'));
    expect(mcpFileFormat(COPILOT_CLI_MCP_FILE)).toEqual({ syntax: 'json', key: 'mcpServers', inputs: false });
  });

  it('says what no file can do, once per variable, in words every agent shares where it can', () => {
    const parsed = JSON.parse(DBT) as { mcpServers: Record<string, McpServerConfig> };
    const steps = Object.fromEntries(PUBLISHED_AGENTS.map((agent) => [agent, convertMcpServers(parsed.mcpServers, agent).notes.map((n) => n.text)]));
    const plain = 'Set POSTGRES_URL in your environment: the MCP server "postgres" reads it.';
    expect(steps['claude-code']).toEqual([plain]);
    expect(steps['cursor']).toEqual([plain]);
    expect(steps['gemini-cli']).toEqual([plain]);
    expect(steps['copilot']).toEqual([]);
    expect(steps['codex']).toEqual(['Set DATABASE_URI in your environment to the value of POSTGRES_URL: Codex passes DATABASE_URI to the MCP server "postgres" (env_vars) and does not expand variables in .codex/config.toml.']);
    expect(steps['antigravity-cli']?.[0]).toMatch(/^Set DATABASE_URI to the value of POSTGRES_URL in the environment you start Antigravity from/u);
  });

  it('turns Codex headers into bearer_token_env_var and env_http_headers, and leaves out a server whose args need expansion', () => {
    const config = convertMcpServers(
      servers({
        remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${API_TOKEN}', 'X-Team': '${TEAM_ID}', 'X-Fixed': 'yes' } },
        local: { command: 'npx', args: ['server', '--root', '${PROJECT_ROOT}'] },
        plain: { command: 'npx', args: ['docs'], env: { MODE: 'read', TOKEN: '${TOKEN}' } },
      }),
      'codex',
    );
    expect(config.servers).toEqual({
      remote: { url: 'https://mcp.example.com/mcp', bearer_token_env_var: 'API_TOKEN', http_headers: { 'X-Fixed': 'yes' }, env_http_headers: { 'X-Team': 'TEAM_ID' } },
      plain: { command: 'npx', args: ['docs'], env: { MODE: 'read' }, env_vars: ['TOKEN'] },
    });
    expect(config.notes.filter((n) => n.kind === 'not-supported').map((n) => n.server)).toEqual(['local']);
    expect(config.unexpressible).toEqual([{ server: 'local', where: 'args[2]', value: '${PROJECT_ROOT}', why: 'Codex expands no variables there: the server is left out' }]);
  });

  it('gives VS Code an input for a secret or a default, ${env:…} for the rest, and remote servers type http', () => {
    const config = convertMcpServers(servers({ api: { type: 'streamable-http', url: 'https://${HOST:-mcp.example.com}/mcp', headers: { Authorization: 'Bearer ${API_KEY}', 'X-Region': '${REGION}' } } }), 'copilot');
    expect(config.servers['api']).toEqual({ type: 'http', url: 'https://${input:HOST}/mcp', headers: { Authorization: 'Bearer ${input:API_KEY}', 'X-Region': '${env:REGION}' } });
    expect(config.inputs).toEqual([
      { type: 'promptString', id: 'HOST', description: 'HOST, read by MCP servers of this project', password: false, default: 'mcp.example.com' },
      { type: 'promptString', id: 'API_KEY', description: 'API_KEY, read by MCP servers of this project', password: true },
    ]);
    expect(config.notes.map((n) => n.text)).toEqual(['Set REGION in your environment: the MCP server "api" reads it.']);
  });

  it('flags a default where the agent has no syntax for one, and keeps it for Claude Code', () => {
    const input = servers({ s: { command: 'run', env: { LEVEL: '${LOG_LEVEL:-info}' } } });
    expect(convertMcpServers(input, 'claude-code').unexpressible).toEqual([]);
    expect(convertMcpServers(input, 'claude-code').servers['s']).toEqual({ command: 'run', env: { LEVEL: '${LOG_LEVEL:-info}' } });
    expect(convertMcpServers(input, 'cursor').servers['s']).toEqual({ command: 'run', env: { LEVEL: '${env:LOG_LEVEL}' } });
    expect(convertMcpServers(input, 'cursor').unexpressible[0]?.why).toContain('Cursor has no default syntax');
    expect(convertMcpServers(input, 'gemini-cli').notes.map((n) => n.text)).toContain('Set LOG_LEVEL in your environment (the loadout\'s default is "info"; Gemini CLI has no syntax for defaults): the MCP server "s" reads it.');
  });

  it('writes Antigravity\'s remote address as serverUrl and leaves out a server whose address needs expansion', () => {
    const config = convertMcpServers(servers({ docs: { type: 'http', url: 'https://mcp.example.com/mcp' }, mine: { type: 'http', url: 'https://${HOST}/mcp' } }), 'antigravity-cli');
    expect(config.servers).toEqual({ docs: { serverUrl: 'https://mcp.example.com/mcp' } });
    expect(config.notes.map((n) => [n.kind, n.server])).toEqual([['not-supported', 'mine']]);
  });

  it('quotes TOML keys and strings that need it, so the file parses to the servers', () => {
    const text = installedMcpText(JSON.stringify({ mcpServers: { 'my server': { command: 'say "hi"\u007f', args: ['a\\b', 'é'], env: { 'A.B': 'x' } } } }), 'codex');
    expect(parseToml(text)).toEqual({ mcp_servers: { 'my server': { command: 'say "hi"\u007f', args: ['a\\b', 'é'], env: { 'A.B': 'x' } } } });
  });

  it('leaves out of Codex\'s table what TOML cannot hold, and says so: a null (noted), an integer beyond 64 bits (written whole, and the install fails on it)', () => {
    const config = convertMcpServers(servers({ s: { command: 'x', startup_timeout_sec: null, enabled_tools: ['read', null], tool_timeout_sec: 1e21, tools: { a: 1.5 } } }), 'codex');
    expect(config.unholdable).toEqual([
      { server: 's', path: ['startup_timeout_sec'], value: null, why: 'TOML has no null', fails: false },
      { server: 's', path: ['tool_timeout_sec'], value: 1e21, why: 'TOML integers are 64-bit, from -9223372036854775808 to 9223372036854775807 (toml.io/en/v1.0.0#integer)', fails: true },
      { server: 's', path: ['enabled_tools', 1], value: null, why: 'TOML has no null', fails: false },
    ]);
    // Written whole, not as 1e+21 (a float that would change the key's type): the installer refuses it once read back.
    expect(installedMcpText(JSON.stringify({ mcpServers: { s: { command: 'x', startup_timeout_sec: null, enabled_tools: ['read', null], tool_timeout_sec: 1e21 } } }), 'codex')).toBe('[mcp_servers.s]\ncommand = "x"\ntool_timeout_sec = 1000000000000000000000\nenabled_tools = ["read"]\n');
    for (const agent of PUBLISHED_AGENTS.filter((a) => a !== 'codex')) expect(convertMcpServers(servers({ s: { command: 'x', cwd: null } }), agent).unholdable, agent).toEqual([]);
  });

  it('knows each merged file\'s format, and reads the references and secrets of a value', () => {
    expect(mcpFileFormat('.vscode/mcp.json')).toEqual({ syntax: 'json', key: 'servers', inputs: true });
    expect(mcpFileFormat('.codex/config.toml').syntax).toBe('toml');
    expect(mcpFileFormat('config/other.json').key).toBe('mcpServers');
    expect(findVariables('a${B}c${env:D}${E:-f g}$H').map((r) => [r.name, r.fallback])).toEqual([['B', undefined], ['D', undefined], ['E', 'f g']]);
    expect(['POSTGRES_URL', 'DATABASE_URI', 'GITHUB_TOKEN', 'OPENAI_API_KEY', 'DB_PASSWORD'].every(isSecretVariable)).toBe(true);
    expect(['LOG_LEVEL', 'REGION', 'HOST', 'PROJECT_ROOT'].some(isSecretVariable)).toBe(false);
  });
});
