import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src/catalogue/manifest.js';
import { PUBLISHED_AGENTS, ROLES, type Agent } from '../../src/catalogue/vocabulary.js';
import { isDiscoverable } from '../../src/layout/discovery.js';
import { resolveInstallTarget } from '../../src/layout/layout.js';
import { resolveInstallPlan } from '../../src/layout/plan.js';

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

  it('places rules where each agent reads them: a section of AGENTS.md for Codex, a file imported by GEMINI.md for Gemini CLI', () => {
    expect(targets(entry('rules/api-style.md', 'rules'))).toEqual({
      'claude-code': '.claude/rules/api-style.md',
      codex: null,
      cursor: '.cursor/rules/api-style.mdc',
      'gemini-cli': '.gemini/rules/api-style.md',
      copilot: '.github/instructions/api-style.instructions.md',
      'antigravity-cli': '.agents/rules/api-style.md',
    });
    expect(resolveInstallTarget(entry('rules/api-style.md', 'rules'), 'codex')).toMatchObject({ composed: { into: 'instructions', as: 'section' }, manual: { kind: 'append-instructions', path: 'AGENTS.md' } });
    expect(resolveInstallTarget(entry('rules/api-style.md', 'rules'), 'gemini-cli')).toMatchObject({ composed: { into: 'adapter', as: 'import' } });
  });

  it('composes a rule into the planned file it goes into, and leaves the manual step only when the loadout has no such file', () => {
    const rule = entry('rules/r.md', 'rules');
    const gemini = { ...entry('GEMINI.md', 'adapter'), agent: 'gemini-cli' as const };
    const full = [entry('AGENTS.md', 'instructions'), gemini, rule];
    expect(resolveInstallPlan(full, 'codex', () => undefined)).toMatchObject({ files: [{ target: 'AGENTS.md' }], manual_steps: [], composed: [{ entry: rule, into: 'AGENTS.md', as: 'section' }] });
    expect(resolveInstallPlan(full, 'gemini-cli', () => undefined)).toMatchObject({ manual_steps: [], composed: [{ entry: rule, into: 'GEMINI.md', as: 'import' }] });
    expect(resolveInstallPlan([rule], 'codex', () => undefined)).toMatchObject({ files: [], composed: [], manual_steps: [{ kind: 'append-instructions', path: 'AGENTS.md', source: 'rules/r.md' }] });
    const alone = resolveInstallPlan([entry('AGENTS.md', 'instructions'), rule], 'gemini-cli', () => undefined);
    expect(alone).toMatchObject({ composed: [], manual_steps: [{ kind: 'append-instructions', path: 'GEMINI.md', source: 'rules/r.md' }] });
    expect(alone.files.map((f) => f.target)).toEqual(['AGENTS.md', '.gemini/rules/r.md']);
  });

  it('places MCP configuration and subagents per agent', () => {
    expect(targets(entry('mcp/servers.json', 'mcp'))).toEqual({ 'claude-code': '.mcp.json', codex: '.codex/config.toml', cursor: '.cursor/mcp.json', 'gemini-cli': '.gemini/settings.json', copilot: '.vscode/mcp.json', 'antigravity-cli': '.agents/mcp_config.json' });
    expect(targets(entry('agents/reviewer.md', 'subagent'))).toEqual({
      'claude-code': '.claude/agents/reviewer.md',
      codex: '.codex/agents/reviewer.toml',
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

  it('gives every null default a manual step (but rules composed into AGENTS.md), and MCP files only the steps no file can do', () => {
    const files = [entry('AGENTS.md', 'instructions'), entry('mcp/servers.json', 'mcp'), entry('rules/r.md', 'rules'), entry('agents/a.md', 'subagent')];
    const mcp = JSON.stringify({ mcpServers: { postgres: { command: 'uvx', args: ['postgres-mcp'], env: { DATABASE_URI: '${POSTGRES_URL}' } }, docs: { type: 'http', url: 'https://mcp.example.com/mcp' } } });
    const read = (p: string): string | undefined => (p === 'mcp/servers.json' ? mcp : undefined);

    const codex = resolveInstallPlan(files, 'codex', read);
    expect(codex.files.map((f) => f.target)).toEqual(['AGENTS.md', '.codex/config.toml', '.codex/agents/a.toml']);
    expect(codex.manual_steps.map((s) => [s.kind, s.source, s.path])).toEqual([['set-env', 'mcp/servers.json', '.codex/config.toml']]);
    expect(codex.manual_steps[0]?.text).toBe('Set DATABASE_URI in your environment to the value of POSTGRES_URL: Codex passes DATABASE_URI to the MCP server "postgres" (env_vars) and does not expand variables in .codex/config.toml.');
    // VS Code asks for the connection string (an input): nothing to set by hand for .vscode/mcp.json; Copilot CLI
    // expands ${POSTGRES_URL} in .github/mcp.json from the environment (issue 57 point 12).
    const copilot = resolveInstallPlan(files, 'copilot', read);
    expect(copilot.files.map((f) => f.target)).toEqual(['AGENTS.md', '.vscode/mcp.json', '.github/mcp.json', '.github/instructions/r.instructions.md', '.github/agents/a.agent.md']);
    expect(copilot.manual_steps.filter((s) => s.source === 'mcp/servers.json')).toEqual([{ kind: 'set-env', source: 'mcp/servers.json', path: '.github/mcp.json', text: 'Set POSTGRES_URL in your environment: the MCP server "postgres" reads it.' }]);
    expect(resolveInstallPlan(files, 'claude-code', read).manual_steps).toEqual([{ kind: 'set-env', source: 'mcp/servers.json', path: '.mcp.json', text: 'Set POSTGRES_URL in your environment: the MCP server "postgres" reads it.' }]);
  });

  it('gives an MCP file that does not parse no step (the parse check refuses it)', () => {
    const plan = resolveInstallPlan([entry('mcp/servers.json', 'mcp')], 'codex', () => '{ not json');
    expect(plan.files.map((f) => f.target)).toEqual(['.codex/config.toml']);
    expect(plan.manual_steps).toEqual([]);
  });
});
