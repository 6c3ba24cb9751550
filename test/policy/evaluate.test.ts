/**
 * The one judge of a policy (policy/evaluate.ts) over capability lists derived from real files
 * by the layout (layout/capabilities.ts): each rule refusing and allowing, the names it gives
 * (rule, loadout, agent, capability), what counts for which agent, and on a catalogue (no agent).
 */
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src/catalogue/manifest.js';
import { deriveCapabilities } from '../../src/layout/capabilities.js';
import { evaluatePolicy } from '../../src/policy/evaluate.js';
import { parsePolicy } from '../../src/policy/parse.js';
import type { Policy } from '../../src/policy/policy.js';
import type { Capabilities } from '../../src/tree-format/capabilities.js';

const policy = (yaml: string): Policy => {
  const parsed = parsePolicy(yaml);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.policy;
};

/** The capability list of files given as path → [role, text] (a skill's files under skills/<name>/). */
function capabilitiesOf(files: Record<string, [FileEntry['role'], string]>): Capabilities {
  const entries = Object.entries(files).map(([path, [role]]) => ({ path, role, description: path, ...(path.startsWith('skills/') ? { skill: path.split('/')[1] } : {}) }) as FileEntry);
  return deriveCapabilities({ files: entries, text: (p) => files[p]?.[1] });
}

const servers = (value: Record<string, unknown>): [FileEntry['role'], string] => ['mcp', JSON.stringify({ mcpServers: value })];

const DBT = capabilitiesOf({
  'mcp/servers.json': servers({
    postgres: { command: 'uvx', args: ['postgres-mcp'] },
    github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github@2025.4.8'] },
    image: { command: 'docker', args: ['run', '-i', '--rm', `ghcr.io/acme/tool@sha256:${'a'.repeat(64)}`] },
    local: { command: 'node', args: ['./server.js'] },
    remote: { type: 'http', url: 'https://API.Example.com:8443/mcp' },
  }),
  'agents/runner.md': ['subagent', '---\nname: runner\ndescription: Runs.\npermissionMode: acceptEdits\n---\n\nRun.\n'],
});

describe('evaluatePolicy', () => {
  it('says the issue\'s sentence: the rule, the loadout, the package, its registry and the agent', () => {
    const found = evaluatePolicy(policy('mcp: {packages: {allow: [{npm: "@modelcontextprotocol/*"}, {oci: "ghcr.io/acme/*"}, {local: "node ./*.js"}]}}'), { loadout: 'dbt-analytics', agent: 'claude-code', capabilities: DBT });
    expect(found).toEqual([{ rule: 'mcp.packages.allow', loadout: 'dbt-analytics', agent: 'claude-code', capability: 'pypi:postgres-mcp', file: 'mcp/servers.json', server: 'postgres', message: 'mcp.packages.allow: dbt-analytics runs postgres-mcp from PyPI for Claude Code, which is not allowed' }]);
  });

  it('reads names as globs (PyPI as PEP 503 normalises them) and versions as ranges only a pinned release meets', () => {
    const judge = (yaml: string): string[] => evaluatePolicy(policy(yaml), { loadout: 'dbt', agent: 'cursor', capabilities: DBT }).map((v) => v.capability ?? '');
    const rest = '{oci: "ghcr.io/**"}, {local: "**"}';
    expect(judge(`mcp: {packages: {allow: [{pypi: Postgres_MCP}, {npm: "@modelcontextprotocol/server-*", version: ">=2025.1.0"}, ${rest}]}}`)).toEqual([]);
    // The server's version is pinned and inside the range, or not.
    expect(judge(`mcp: {packages: {allow: [{pypi: postgres-mcp}, {npm: "@modelcontextprotocol/server-github", version: "<2025.0.0"}, ${rest}]}}`)).toEqual(['npm:@modelcontextprotocol/server-github']);
    // postgres-mcp names no version: no range is met.
    expect(judge(`mcp: {packages: {allow: [{pypi: postgres-mcp, version: "*"}, {npm: "@modelcontextprotocol/*"}, ${rest}]}}`)).toEqual(['pypi:postgres-mcp']);
    // An OCI entry's version is a glob of the tag or digest.
    expect(judge(`mcp: {packages: {allow: [{pypi: postgres-mcp}, {npm: "@modelcontextprotocol/*"}, {oci: "ghcr.io/acme/tool", version: "sha256:*"}, {local: "**"}]}}`)).toEqual([]);
    expect(judge(`mcp: {packages: {allow: [{pypi: postgres-mcp}, {npm: "@modelcontextprotocol/*"}, {oci: "ghcr.io/acme/tool", version: "v1"}, {local: "**"}]}}`)).toEqual(['oci:ghcr.io/acme/tool']);
    // A local program is no package from a registry: it must be named as local.
    expect(judge('mcp: {packages: {allow: [{pypi: "*"}, {npm: "**"}, {oci: "**"}]}}')).toEqual(['local:node ./server.js']);
  });

  it('judges hosts without case, with their port; pins; and each kind of capability denied', () => {
    const judge = (yaml: string): string[] => evaluatePolicy(policy(yaml), { loadout: 'dbt', agent: 'claude-code', capabilities: DBT }).map((v) => `${v.rule} ${v.capability ?? ''}`);
    expect(judge('mcp: {hosts: {allow: ["*.example.com"]}}')).toEqual(['mcp.hosts.allow host:api.example.com:8443']);
    expect(judge('mcp: {hosts: {allow: ["*.EXAMPLE.com:*"]}}')).toEqual([]);
    expect(judge('mcp: {require_pinned: true}')).toEqual(['mcp.require_pinned pypi:postgres-mcp']);
    expect(judge('deny: [unpinned-packages, permission-bypass]')).toEqual(['deny.unpinned-packages pypi:postgres-mcp', 'deny.permission-bypass permissionMode agents/runner.md']);
  });

  it('judges what the installed agent carries: a subagent\'s permission mode is not Codex\'s', () => {
    const deny = policy('deny: [permission-bypass]');
    expect(evaluatePolicy(deny, { loadout: 'dbt', agent: 'claude-code', capabilities: DBT })).toHaveLength(1);
    expect(evaluatePolicy(deny, { loadout: 'dbt', agent: 'codex', capabilities: DBT })).toEqual([]);
  });

  it('compares catalogues by their base URL, and never allows a folder', () => {
    const allowed = policy('catalogues: ["HTTPS://Loadouts.Example/team/"]');
    expect(evaluatePolicy(allowed, { loadout: 'kit', agent: 'cursor', catalogue: 'https://loadouts.example/team' })).toEqual([]);
    expect(evaluatePolicy(allowed, { loadout: 'kit', agent: 'cursor', catalogue: 'https://loadouts.example/other' }).map((v) => v.message)).toEqual(['catalogues: kit comes from https://loadouts.example/other, which is not a catalogue the policy allows (HTTPS://Loadouts.Example/team/)']);
    expect(evaluatePolicy(allowed, { loadout: 'kit', agent: 'cursor', catalogue: '/home/me/dist' }).map((v) => v.message)).toEqual(['catalogues: kit comes from the folder /home/me/dist, which is not a catalogue the policy allows (HTTPS://Loadouts.Example/team/)']);
  });

  it('judges signing by the keys that verified: none, others, or one it pins', () => {
    const keys = policy(`signing: {require: true, keys: ["${'a'.repeat(64)}"]}`);
    const judge = (signing: { keyids: string[] } | null): string[] => evaluatePolicy(keys, { loadout: 'kit', agent: 'cursor', catalogue: 'https://c.example', signing }).map((v) => v.rule);
    expect(judge(null)).toEqual(['signing.require']);
    expect(judge({ keyids: ['b'.repeat(64)] })).toEqual(['signing.keys']);
    expect(judge({ keyids: ['b'.repeat(64), 'a'.repeat(64)] })).toEqual([]);
    expect(evaluatePolicy(keys, { loadout: 'kit', agent: 'cursor' })).toEqual([]);
  });

  it('on a catalogue (no agent), judges the items of the agents the policy allows and the agents a loadout supports', () => {
    const found = evaluatePolicy(policy('agents: [codex]\ndeny: [permission-bypass]\nloadouts: {deny: ["d*"]}'), { loadout: 'dbt', agent: null, capabilities: DBT, supports: ['claude-code', 'cursor'] });
    // The subagent's mode is not carried to Codex, the one agent allowed: not judged.
    expect(found.map((v) => [v.rule, v.agent])).toEqual([
      ['loadouts.deny', null],
      ['agents', null],
    ]);
    expect(found[1]?.message).toBe('agents: dbt supports claude-code, cursor, none of them an agent the policy allows (codex)');
    const all = evaluatePolicy(policy('deny: [permission-bypass]'), { loadout: 'dbt', agent: null, capabilities: DBT });
    expect(all.map((v) => v.message)).toEqual(['deny.permission-bypass: dbt sets permissionMode: acceptEdits for runner in agents/runner.md for Claude Code, Cursor, Gemini CLI, GitHub Copilot (permissionMode "acceptEdits" lets the subagent act without the user\'s confirmation); the policy denies permission modes and auto-approval that bypass the user']);
  });
});
