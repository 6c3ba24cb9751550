import { describe, expect, it } from 'vitest';
import { isPlaceholder, referencedVariables } from '../../../src/verify/mcp/secrets.js';
import { checkCatalogue } from '../../../src/verify/catalogue.js';
import { baseFiles, writeLoadout } from '../../helpers/loadouts.js';
import { makeTempDir } from '../../helpers/temp.js';

describe('MCP secrets', () => {
  it('tells placeholders from literals', () => {
    for (const v of ['${TOKEN}', '${env:TOKEN}', '${input:token}', '$TOKEN', '<your-token>', 'YOUR_API_KEY', 'Bearer ${TOKEN}', '']) expect(isPlaceholder(v), v).toBe(true);
    for (const v of ['9f86d081884c7d659a2feaa0c55ad015', 'Bearer abcdef1234567890abcdef', 'hunter2']) expect(isPlaceholder(v), v).toBe(false);
    expect(referencedVariables('Bearer ${A} ${env:B} $C')).toEqual(['A', 'B', 'C']);
  });
});

describe('mcp check', () => {
  const run = async (servers: unknown, requires: Record<string, string[]>) => {
    const root = makeTempDir();
    writeLoadout(root, {
      id: 'm',
      files: [...baseFiles('Test m'), { path: 'mcp/servers.json', role: 'mcp', content: `${JSON.stringify({ mcpServers: servers }, null, 2)}\n` }],
      manifest: { requires: { tools: [], env: [], mcp: [], ...requires }, security: { scanned: true, network: true, scripts: [] } },
    });
    const [r] = await checkCatalogue({ root }, []);
    return r?.results.find((x) => x.id === 'mcp');
  };

  it('passes well-formed servers and is n/a without MCP files', async () => {
    expect((await run({ a: { command: 'node', args: ['s.js'], env: { A_TOKEN: '${A_TOKEN}' } } }, { mcp: ['a'], env: ['A_TOKEN'] }))?.status).toBe('pass');
    const root = makeTempDir();
    writeLoadout(root, { id: 'n' });
    const [r] = await checkCatalogue({ root }, []);
    expect(r?.results.find((x) => x.id === 'mcp')?.status).toBe('n/a');
  });

  it('fails literal secrets in args and headers, unknown variables and bad types, naming the line', async () => {
    const result = await run(
      {
        a: { command: 'node', args: ['s.js', '--api-key', 'abcdef1234567890abcdef12'] },
        b: { type: 'http', url: 'https://mcp.acme.dev', headers: { Authorization: 'Bearer abcdef1234567890abcdef12' } },
        c: { type: 'websocket', url: 'https://mcp.acme.dev' },
        d: { command: 'node', env: { D_TOKEN: '${MISSING_TOKEN}' } },
        e: { type: 'http', url: 'https://mcp.acme.dev/mcp?region=eu&api_key=abcdef1234567890abcdef12' },
        f: { type: 'http', url: 'https://mcp.acme.dev/mcp?token=${ACME_TOKEN}' },
      },
      { mcp: ['a', 'b', 'c', 'd', 'e', 'f'], env: ['ACME_TOKEN'] },
    );
    expect(result?.status).toBe('fail');
    const details = result?.details.join('\n') ?? '';
    expect(details).toMatch(/servers\.json:5: server "a" passes a literal secret as --api-key/u);
    expect(details).toMatch(/servers\.json:\d+: server "b" has a literal secret in headers\.Authorization/u);
    expect(details).toMatch(/servers\.json:\d+: server "c" has "type" "websocket"/u);
    expect(details).toMatch(/server "d" refers to \$\{MISSING_TOKEN\}/u);
    expect(details).toMatch(/servers\.json:\d+: server "e" has a literal secret in its "url" query \(api_key=…\)/u);
    expect(details).not.toMatch(/server "f" has/u);
  });

  it('notes variable forms some agent cannot express, naming the agents, without failing', async () => {
    const result = await run(
      {
        pg: { command: 'uvx', args: ['postgres-mcp'], env: { DATABASE_URI: '${POSTGRES_URL}', LOG: '${LOG_LEVEL:-info}', SAME: '${SAME}' } },
        web: { type: 'http', url: 'https://${HOST}/mcp' },
        old: { command: 'x', args: ['$HOME_DIR', '${input:token}'] },
      },
      { mcp: ['pg', 'web', 'old'], env: ['POSTGRES_URL', 'LOG_LEVEL', 'SAME', 'HOST', 'HOME_DIR'] },
    );
    expect(result?.status).toBe('pass');
    const details = result?.details.join('\n') ?? '';
    expect(details).toContain('server "pg" uses a variable form codex, antigravity-cli cannot express: env.DATABASE_URI "${POSTGRES_URL}" (codex: Codex does not expand variables: env_vars passes DATABASE_URI as it is set; antigravity-cli: Antigravity does not expand variables: left out of env, with a manual step)');
    expect(details).toMatch(/server "pg" uses a variable form codex, cursor, gemini-cli, antigravity-cli cannot express: env\.LOG "\$\{LOG_LEVEL:-info\}" \(codex: [^;]*; cursor: Cursor has no default syntax/u);
    expect(details).toContain('server "web" uses a variable form codex, antigravity-cli cannot express: url "https://${HOST}/mcp"');
    expect(details).toContain('server "pg" uses a variable form antigravity-cli cannot express: env.SAME "${SAME}"');
    expect(details).toContain('server "old" writes $VAR in args[0] ("$HOME_DIR"), which only Gemini CLI expands');
    expect(details).toContain('server "old" writes ${input:…} in args[1] ("${input:token}"), which only VS Code reads');
    expect(details).not.toMatch(/codex[^\n]*env\.SAME/u);
  });
});

describe('mcp check: values some agent cannot hold (issue 53, point 13)', () => {
  const run = async (content: string) => {
    const root = makeTempDir();
    writeLoadout(root, {
      id: 'm',
      files: [...baseFiles('Test m'), { path: 'mcp/servers.json', role: 'mcp', content }],
      manifest: { requires: { tools: [], env: [], mcp: ['s'] }, security: { scanned: true, network: true, scripts: [] } },
    });
    const [r] = await checkCatalogue({ root }, []);
    return r?.results.find((x) => x.id === 'mcp');
  };

  it('fails an integer Codex cannot hold, naming the file, the line and the agent, as the install for codex would fail', async () => {
    const result = await run('{\n  "mcpServers": {\n    "s": {\n      "command": "x",\n      "startup_timeout_sec": 99999999999999999999\n    }\n  }\n}\n');
    expect(result?.status).toBe('fail');
    expect(result?.details).toContain('loadouts/m/mcp/servers.json:5: server "s" has startup_timeout_sec 100000000000000000000, which codex cannot hold: TOML integers are 64-bit, from -9223372036854775808 to 9223372036854775807 (toml.io/en/v1.0.0#integer), and the install for codex fails (expected a value codex can hold)');
    // JavaScript reads the number rounded, for every agent: a notice beside it.
    expect(result?.details).toContain('notice: loadouts/m/mcp/servers.json:5: server "s" has startup_timeout_sec 99999999999999999999, which the installer reads as 100000000000000000000 for every agent (claude-code, codex, cursor, gemini-cli, copilot, antigravity-cli): JSON numbers are read as JavaScript numbers, exact up to 9007199254740991');
  });

  it('notes a null Codex leaves out, and a number read rounded, without failing', async () => {
    const result = await run('{\n  "mcpServers": {\n    "s": {\n      "command": "x",\n      "startup_timeout_sec": null,\n      "enabled_tools": ["read",\n        null],\n      "tool_timeout_sec": 9007199254740993\n    }\n  }\n}\n');
    expect(result?.status).toBe('pass');
    expect(result?.details).toEqual([
      'notice: loadouts/m/mcp/servers.json:5: server "s" has startup_timeout_sec null, which codex cannot hold: TOML has no null, and the install for codex leaves it out',
      'notice: loadouts/m/mcp/servers.json:7: server "s" has enabled_tools[1] null, which codex cannot hold: TOML has no null, and the install for codex leaves it out',
      'notice: loadouts/m/mcp/servers.json:8: server "s" has tool_timeout_sec 9007199254740993, which the installer reads as 9007199254740992 for every agent (claude-code, codex, cursor, gemini-cli, copilot, antigravity-cli): JSON numbers are read as JavaScript numbers, exact up to 9007199254740991',
    ]);
  });

  it('passes integers within 64 bits and spelt exactly, and a server no agent has a problem with', async () => {
    const result = await run('{"mcpServers": {"s": {"command": "x", "startup_timeout_sec": 9007199254740991, "tool_timeout_sec": 1.10}}}');
    expect(result?.status).toBe('pass');
    expect(result?.details).toEqual([]);
  });
});
