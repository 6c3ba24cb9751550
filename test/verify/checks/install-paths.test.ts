/**
 * The `install-paths` check refuses the manifests the installer refuses: a file aimed at an
 * agent's settings, hooks, permissions or MCP configuration (`layout/protected-paths.ts`, the
 * one table both use), and judges rules as they are installed, translated per agent.
 */
import { describe, expect, it } from 'vitest';
import { checkCatalogue } from '../../../src/verify/catalogue.js';
import { baseFiles, writeLoadout, type TestFile } from '../../helpers/loadouts.js';
import { makeTempDir } from '../../helpers/temp.js';

async function installPaths(files: TestFile[], manifest?: Record<string, unknown>): Promise<{ status: string; messages: string[] }> {
  const root = makeTempDir();
  writeLoadout(root, { id: 'k', files: [...baseFiles('Test k'), ...files], ...(manifest === undefined ? {} : { manifest }) });
  const [run] = await checkCatalogue({ root }, []);
  const result = run?.results.find((r) => r.id === 'install-paths');
  return { status: result?.status ?? 'missing', messages: result?.details ?? [] };
}

const RULE = '---\ndescription: Style\nglobs: ["**/*.ts"]\nalwaysApply: false\n---\n\nRule.\n';

describe('install-paths check', () => {
  it.each([
    ['gemini-cli', '.gemini/settings.json', "is Gemini CLI's settings (tools, hooks, MCP servers), which an install never writes whole"],
    ['codex', '.codex/config.toml', "is Codex's configuration (approval policy, sandbox, MCP servers, hooks), which an install never writes whole"],
    ['copilot', '.vscode/mcp.json', 'is VS Code workspace configuration (settings, tasks, MCP servers read by Copilot), which an install never writes whole'],
    ['claude-code', '.claude/settings.json', "is Claude Code's project settings (permissions, hooks, environment), which an install never writes whole"],
  ])('fails a rules file aimed at %s %s, as the installer refuses it', async (agent, target, message) => {
    const result = await installPaths([{ path: 'rules/style.md', role: 'rules', install_to: { [agent]: target }, content: RULE }]);
    expect(result.status).toBe('fail');
    expect(result.messages.join('\n')).toContain(`rules/style.md: ${agent} target "${target}" ${message} (expected the agent's skills, rules or agents folders; only role mcp may add servers to an MCP configuration)`);
  });

  it('passes an MCP file merged into each agent\'s own MCP configuration, and fails one aimed at a settings file it cannot merge into', async () => {
    const mcp = '{"mcpServers": {"docs": {"command": "npx", "args": ["docs-mcp"]}}}\n';
    expect((await installPaths([{ path: 'mcp/servers.json', role: 'mcp', content: mcp }])).status).toBe('pass');
    const result = await installPaths([{ path: 'mcp/servers.json', role: 'mcp', install_to: { 'claude-code': '.claude/settings.json' }, content: mcp }]);
    expect(result.status).toBe('fail');
    expect(result.messages.join('\n')).toContain('whose servers the installer cannot merge');
  });

  it('judges a rule as translated: a rule scoped by Cursor globs alone is scoped for Copilot too', async () => {
    expect(await installPaths([{ path: 'rules/style.md', role: 'rules', content: RULE }])).toEqual({ status: 'pass', messages: [] });
  });

  it('still fails a rule that no agent applies by itself (manual only)', async () => {
    const result = await installPaths([{ path: 'rules/style.md', role: 'rules', content: '---\nalwaysApply: false\n---\n\nRule.\n' }]);
    expect(result.status).toBe('fail');
    expect(result.messages.join('\n')).toContain('Copilot never applies it automatically');
  });

  describe('the native plugin', () => {
    const subagent = (name: string): string => `---\nname: ${name}\ndescription: Helps with one thing.\n---\n\nHelp.\n`;
    /** install_to for every agent that installs subagents: the install layout has no clash, only the plugin can. */
    const apart = (stem: string): Record<string, string> => ({ 'claude-code': `.claude/agents/${stem}.md`, cursor: `.cursor/agents/${stem}.md`, 'gemini-cli': `.gemini/agents/${stem}.md`, copilot: `.github/agents/${stem}.agent.md`, codex: `.codex/agents/${stem}.toml` });

    it('passes two subagents of one base name and two names: the plugin names each file after its subagent', async () => {
      const result = await installPaths([
        { path: 'agents/a/helper.md', role: 'subagent', install_to: apart('a-helper'), content: subagent('a-helper') },
        { path: 'agents/b/helper.md', role: 'subagent', install_to: apart('b-helper'), content: subagent('b-helper') },
      ]);
      expect(result).toEqual({ status: 'pass', messages: [] });
    });

    it('fails two subagents of one name, naming both files, though their install targets differ', async () => {
      const result = await installPaths([
        { path: 'agents/a/helper.md', role: 'subagent', install_to: apart('a-helper'), content: subagent('helper') },
        { path: 'agents/b/helper.md', role: 'subagent', install_to: apart('b-helper'), content: subagent('helper') },
      ]);
      expect(result.status).toBe('fail');
      expect(result.messages).toEqual([expect.stringMatching(/^loadouts\/k\/loadout\.yaml:\d+: agents\/a\/helper\.md and agents\/b\/helper\.md both become agents\/helper\.md in the plugin \(expected one plugin file each: /u)]);
    });

    it('fails two subagents of one name that is no file name, whose plugin files differ', async () => {
      const result = await installPaths([
        { path: 'agents/review.md', role: 'subagent', content: subagent('Code Reviewer') },
        { path: 'agents/check.md', role: 'subagent', content: subagent('Code Reviewer') },
      ]);
      expect(result.status).toBe('fail');
      expect(result.messages.join('\n')).toContain('agents/review.md and agents/check.md are both the subagent "Code Reviewer" (expected a distinct front-matter name each');
    });
  });
});
