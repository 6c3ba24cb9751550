import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src/catalogue/manifest.js';
import { PUBLISHED_AGENTS, ROLES, type Agent } from '../../src/catalogue/vocabulary.js';
import { isDiscoverable } from '../../src/layout/discovery.js';
import { resolveInstallTarget } from '../../src/layout/layout.js';
import { resolveInstallPlan } from '../../src/layout/plan.js';
import { parse as parseToml } from 'smol-toml';

const entry = (path: string, role: FileEntry['role'], extra: Partial<FileEntry> = {}): FileEntry => ({ path, role, description: 'x', ...extra });
const targets = (e: FileEntry): Record<Agent, string | null> => Object.fromEntries(PUBLISHED_AGENTS.map((a) => [a, resolveInstallTarget(e, a).target])) as Record<Agent, string | null>;

describe('install layout (DESIGN.md section 3, vendor-checked)', () => {
  it('installs the instructions file at AGENTS.md for all six agents', () => {
    expect(targets(entry('AGENTS.md', 'instructions'))).toEqual({ 'claude-code': 'AGENTS.md', codex: 'AGENTS.md', cursor: 'AGENTS.md', 'gemini-cli': 'AGENTS.md', copilot: 'AGENTS.md', 'antigravity-cli': 'AGENTS.md' });
  });

  it('installs an adapter only for its agent', () => {
    expect(targets(entry('CLAUDE.md', 'adapter', { agent: 'claude-code' }))).toEqual({ 'claude-code': 'CLAUDE.md', codex: null, cursor: null, 'gemini-cli': null, copilot: null, 'antigravity-cli': null });
    expect(targets(entry('GEMINI.md', 'adapter', { agent: 'gemini-cli' }))['gemini-cli']).toBe('GEMINI.md');
  });

  it('keeps the path inside the skill folder, below .claude/skills for Claude Code and .agents/skills for the others', () => {
    const ref = entry('skills/add-route/references/conventions.md', 'reference', { skill: 'add-route' });
    expect(targets(ref)).toEqual({
      'claude-code': '.claude/skills/add-route/references/conventions.md',
      codex: '.agents/skills/add-route/references/conventions.md',
      cursor: '.agents/skills/add-route/references/conventions.md',
      'gemini-cli': '.agents/skills/add-route/references/conventions.md',
      copilot: '.agents/skills/add-route/references/conventions.md',
      'antigravity-cli': '.agents/skills/add-route/references/conventions.md',
    });
  });

  it('places rules where each agent reads them, and not at all for Codex and Gemini CLI', () => {
    expect(targets(entry('rules/api-style.md', 'rules'))).toEqual({
      'claude-code': '.claude/rules/api-style.md',
      codex: null,
      cursor: '.cursor/rules/api-style.mdc',
      'gemini-cli': null,
      copilot: '.github/instructions/api-style.instructions.md',
      'antigravity-cli': '.agents/rules/api-style.md',
    });
    expect(resolveInstallTarget(entry('rules/api-style.md', 'rules'), 'codex').manual).toMatchObject({ kind: 'append-instructions', path: 'AGENTS.md' });
  });

  it('places MCP configuration and subagents per agent', () => {
    expect(targets(entry('mcp/servers.json', 'mcp'))).toEqual({ 'claude-code': '.mcp.json', codex: null, cursor: '.cursor/mcp.json', 'gemini-cli': '.gemini/settings.json', copilot: null, 'antigravity-cli': null });
    expect(targets(entry('agents/reviewer.md', 'subagent'))).toEqual({
      'claude-code': '.claude/agents/reviewer.md',
      codex: null,
      cursor: '.cursor/agents/reviewer.md',
      'gemini-cli': '.gemini/agents/reviewer.md',
      copilot: '.github/agents/reviewer.agent.md',
      'antigravity-cli': null,
    });
  });

  it('applies install_to overrides, including null', () => {
    const e = entry('rules/a.md', 'rules', { install_to: { cursor: '.cursor/rules/custom/a.mdc', 'claude-code': null } });
    expect(resolveInstallTarget(e, 'cursor')).toEqual({ target: '.cursor/rules/custom/a.mdc', overridden: true });
    expect(resolveInstallTarget(e, 'claude-code')).toEqual({ target: null, overridden: true });
    expect(resolveInstallTarget(e, 'copilot').overridden).toBe(false);
  });

  it('puts every default target where the agent discovers that role', () => {
    for (const role of ROLES) {
      const e = entry(role === 'skill' || role === 'reference' ? 'skills/s/SKILL.md' : `x/${role}.md`, role, role === 'adapter' ? {} : role === 'skill' || role === 'reference' ? { skill: 's' } : {});
      for (const agent of PUBLISHED_AGENTS) {
        const withAgent = role === 'adapter' ? { ...e, agent: agent as FileEntry['agent'] } : e;
        const { target } = resolveInstallTarget(withAgent, agent);
        if (target !== null) expect(isDiscoverable(role, agent, target), `${role} for ${agent} at ${target}`).toBe(true);
      }
    }
  });

  it('gives every null default a manual step, with converted MCP configuration where the shape differs', () => {
    const files = [entry('AGENTS.md', 'instructions'), entry('mcp/servers.json', 'mcp'), entry('rules/r.md', 'rules'), entry('agents/a.md', 'subagent')];
    const mcp = JSON.stringify({ mcpServers: { postgres: { command: 'uvx', args: ['postgres-mcp'], env: { DATABASE_URI: '${POSTGRES_URL}' } }, docs: { type: 'http', url: 'https://mcp.example.com/mcp' } } });
    const read = (p: string): string | undefined => (p === 'mcp/servers.json' ? mcp : undefined);

    const codex = resolveInstallPlan(files, 'codex', read);
    expect(codex.files.map((f) => f.target)).toEqual(['AGENTS.md']);
    expect(codex.manual_steps.map((s) => [s.source, s.path])).toEqual([
      ['mcp/servers.json', '.codex/config.toml'],
      ['rules/r.md', 'AGENTS.md'],
      ['agents/a.md', '.codex/agents/a.toml'],
    ]);
    const toml = codex.manual_steps[0]?.text.split('\n\n').slice(1).join('\n\n') ?? '';
    expect(parseToml(toml)).toEqual({ mcp_servers: { postgres: { command: 'uvx', args: ['postgres-mcp'], env: { DATABASE_URI: '${POSTGRES_URL}' } }, docs: { url: 'https://mcp.example.com/mcp' } } });

    const copilot = resolveInstallPlan(files, 'copilot', read);
    const vscode = JSON.parse(copilot.manual_steps[0]?.text.split('\n\n').slice(1).join('\n\n') ?? '{}') as { servers: Record<string, { type: string }> };
    expect(vscode.servers['postgres']?.type).toBe('stdio');
    expect(vscode.servers['docs']?.type).toBe('http');

    const antigravity = resolveInstallPlan(files, 'antigravity-cli', read);
    const agy = JSON.parse(antigravity.manual_steps[0]?.text.split('\n\n').slice(1).join('\n\n') ?? '{}') as { mcpServers: Record<string, Record<string, unknown>> };
    expect(agy.mcpServers['docs']).toEqual({ serverUrl: 'https://mcp.example.com/mcp' });
  });

  it('still gives the manual step when the MCP file does not parse', () => {
    const plan = resolveInstallPlan([entry('mcp/servers.json', 'mcp')], 'codex', () => '{ not json');
    expect(plan.manual_steps[0]?.text).toMatch(/^Add each server of mcp\/servers\.json to \.codex\/config\.toml[^\n]*$/u);
  });
});
