/** The per-format rules of the native plugins (src/layout/plugin-manifests.ts, plugin-formats.ts). */
import { describe, expect, it } from 'vitest';
import { listUncarried } from '../../src/layout/plugin-formats.js';
import { agentPluginsMcp } from '../../src/layout/plugin-manifests.js';

describe('MCP servers in Agent Plugins 1.0', () => {
  it('types local and remote servers, and leaves out what the format cannot expand or run, saying why', () => {
    const { document, refused } = agentPluginsMcp({
      local: { command: 'npx', args: ['-y', 'docs-mcp', '--root', '${PLUGIN_ROOT}/data'], env: { MODE: 'read-only' } },
      bundled: { command: './bin/server' },
      remote: { url: 'https://mcp.example/mcp', type: 'http' },
      legacy: { url: 'https://mcp.example/sse', type: 'sse' },
      braces: { command: 'uvx', args: ['pg'], env: { DATABASE_URI: '${POSTGRES_URL}' } },
      dollar: { command: 'uvx', args: ['--token', '$TOKEN'] },
      header: { url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer ${API_TOKEN}' } },
      shell: { command: 'npx -y docs-mcp' },
      absolute: { command: '/usr/bin/server' },
      neither: { args: ['x'] },
    });
    expect(document['mcpServers']).toEqual({
      local: { type: 'stdio', command: 'npx', args: ['-y', 'docs-mcp', '--root', '${PLUGIN_ROOT}/data'], env: { MODE: 'read-only' } },
      bundled: { type: 'stdio', command: './bin/server' },
      remote: { type: 'streamable-http', url: 'https://mcp.example/mcp' },
      legacy: { type: 'sse', url: 'https://mcp.example/sse' },
    });
    expect(refused.map((r) => r.name)).toEqual(['braces', 'dollar', 'header', 'shell', 'absolute', 'neither']);
    expect(refused[0]?.reason).toContain('section 9.2');
  });
});

describe('what each format cannot carry', () => {
  it('names the instructions, the adapter of its own agent, rules and subagents per format, and a second instructions file everywhere', () => {
    const entries = [
      { path: 'AGENTS.md', role: 'instructions', description: 'd' },
      { path: 'CLAUDE.md', role: 'adapter', agent: 'claude-code', description: 'd' },
      { path: 'GEMINI.md', role: 'adapter', agent: 'gemini-cli', description: 'd' },
      { path: 'rules/a.md', role: 'rules', description: 'd' },
      { path: 'agents/r.md', role: 'subagent', description: 'd' },
      { path: 'docs/MORE.md', role: 'instructions', description: 'd' },
    ] as const;
    const parts = listUncarried(entries, [{ name: 'db', reason: 'why' }]);
    const of = (format: string): string[] => parts.filter((p) => p.format === format).map((p) => p.part);
    expect(of('claude-code')).toEqual(['AGENTS.md', 'CLAUDE.md', 'rules/a.md', 'docs/MORE.md']);
    expect(of('agent-plugins')).toEqual(['AGENTS.md', 'rules/a.md', 'agents/r.md', 'docs/MORE.md', 'mcp:db']);
    expect(of('gemini-cli')).toEqual(['rules/a.md', 'docs/MORE.md']);
    expect(of('cursor')).toEqual(['AGENTS.md', 'docs/MORE.md']);
  });
});
