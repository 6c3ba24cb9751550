import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FileEntry } from '../../src/catalogue/manifest.js';
import { PUBLISHED_AGENTS, type Agent } from '../../src/catalogue/vocabulary.js';
import { layoutInstall, type LoadoutFiles } from '../../src/layout/installed-files.js';
import { rewriteReferences, type RewriteContext } from '../../src/layout/link-rewrite.js';

const RAW = 'https://cat.test/raw/kit/1.0.0';

describe('rewriteReferences', () => {
  const landings: Record<string, { target: string; anchor?: string }> = {
    'rules/a.md': { target: '.cursor/rules/a.mdc' },
    'rules/b.md': { target: 'AGENTS.md', anchor: 'rule-b-kit' },
    'skills/s/SKILL.md': { target: '.agents/skills/s/SKILL.md' },
    'skills/s/references/r.md': { target: '.agents/skills/s/references/r.md' },
  };
  const context: RewriteContext = {
    paths: new Set([...Object.keys(landings), 'agents/x.md', 'AGENTS.md']),
    landing: (p) => landings[p],
    rawUrl: (p) => `${RAW}/${p}`,
  };
  const rewrite = (text: string, source = 'AGENTS.md', target = 'AGENTS.md', imports = true): ReturnType<typeof rewriteReferences> => rewriteReferences(text, { source, target, imports }, context);

  it('points a link where its target landed, to a section, or to the pinned raw address; code is left alone', () => {
    const text = ['See [a](rules/a.md#top "A") and [b](./rules/b.md).', '![img](<skills/s/references/r.md>)', '[def]: agents/x.md', '`[code](rules/a.md)` and [web](https://x.test/a.md) and [here](#top)', '```', '[block](rules/a.md)', '```', ''].join('\n');
    expect(rewrite(text)).toEqual({
      text: ['See [a](.cursor/rules/a.mdc#top "A") and [b](#rule-b-kit).', '![img](<.agents/skills/s/references/r.md>)', `[def]: ${RAW}/agents/x.md`, '`[code](rules/a.md)` and [web](https://x.test/a.md) and [here](#top)', '```', '[block](rules/a.md)', '```', ''].join('\n'),
      unresolved: [],
    });
  });

  it('writes destinations relative to where the file is installed, folders included', () => {
    expect(rewrite('[r](references/r.md) [b](../../rules/b.md) [s](../s/) [self](SKILL.md)', 'skills/s/SKILL.md', '.agents/skills/s/SKILL.md').text).toBe('[r](references/r.md) [b](../../../AGENTS.md#rule-b-kit) [s](./) [self](SKILL.md)');
  });

  it('reports what cannot resolve, and turns an import of a file not installed into a link', () => {
    const result = rewrite('@agents/x.md\n[up](../x.md) [abs](/etc/x.md) [none](rules/zz.md)\n@./rules/a.md\n');
    // Links that leave the loadout point nowhere outside it once installed (issue 53, point 4).
    expect(result.text).toBe(`[agents/x.md](${RAW}/agents/x.md)\n[up](#) [abs](#) [none](rules/zz.md)\n@./.cursor/rules/a.mdc\n`);
    expect(result.unresolved.map((u) => `${u.line} ${u.written}`)).toEqual(['1 agents/x.md', '2 ../x.md', '2 /etc/x.md', '2 rules/zz.md']);
  });

  it('leaves @ tokens alone where the agent expands no imports', () => {
    expect(rewrite('@agents/x.md\n', 'agents/x.md', '.claude/agents/x.md', false)).toEqual({ text: '@agents/x.md\n', unresolved: [] });
  });
});

const entry = (path: string, role: FileEntry['role'], more: Partial<FileEntry> = {}): FileEntry => ({ path, role, description: path, ...more });
const FILES: FileEntry[] = [
  entry('AGENTS.md', 'instructions'),
  entry('CLAUDE.md', 'adapter', { agent: 'claude-code' }),
  entry('GEMINI.md', 'adapter', { agent: 'gemini-cli' }),
  entry('rules/style.md', 'rules'),
  entry('skills/s/SKILL.md', 'skill', { skill: 's' }),
  entry('agents/rev.md', 'subagent'),
];
const TEXTS: Record<string, string> = {
  'AGENTS.md': '# Kit\n\nStyle: [style](rules/style.md). Skill: [s](skills/s/SKILL.md). Reviewer: [rev](agents/rev.md).\n',
  'CLAUDE.md': '@AGENTS.md\n',
  'GEMINI.md': '@AGENTS.md\n',
  'rules/style.md': '---\nglobs: ["**/*.ts"]\n---\n\nSee [the skill](../skills/s/SKILL.md).\n',
  'skills/s/SKILL.md': '---\nname: s\ndescription: S.\n---\n\nFollow [style](../../rules/style.md).\n',
  'agents/rev.md': '---\nname: rev\ndescription: R.\n---\n\nReview.\n',
};
const KIT: LoadoutFiles = { id: 'kit', version: '1.0.0', files: FILES, text: (p) => TEXTS[p], rawUrl: (p) => `${RAW}/${p}` };

describe('layoutInstall', () => {
  it('composes Codex rules into AGENTS.md as sections that links point to', () => {
    const codex = layoutInstall(KIT, 'codex');
    expect(codex.plan.manual_steps).toEqual([]);
    expect(codex.text('AGENTS.md')).toBe(
      `# Kit\n\nStyle: [style](#rule-style-kit). Skill: [s](.agents/skills/s/SKILL.md). Reviewer: [rev](.codex/agents/rev.toml).\n\n## Rule style (kit)\n\nScope: apply this rule only to files matching \`**/*.ts\`.\n\nSee [the skill](.agents/skills/s/SKILL.md).\n`,
    );
    expect(codex.text('skills/s/SKILL.md')).toContain('Follow [style](../../../AGENTS.md#rule-style-kit).');
  });

  it('writes Gemini CLI rules as files imported by the GEMINI.md block', () => {
    const gemini = layoutInstall(KIT, 'gemini-cli');
    expect(gemini.plan.manual_steps).toEqual([]);
    expect(gemini.text('GEMINI.md')).toBe('@AGENTS.md\n\n@./.gemini/rules/style.md\n');
    expect(gemini.text('rules/style.md')).toBe('Scope: apply this rule only to files matching `**/*.ts`.\n\nSee [the skill](../../.agents/skills/s/SKILL.md).\n');
  });

  it('renders a shared file once for all its readers, whichever agent writes it, with links every reader can follow', () => {
    fc.assert(
      fc.property(fc.subarray([...PUBLISHED_AGENTS], { minLength: 1 }), (sharing: Agent[]) => {
        const texts = sharing.map((agent) => layoutInstall(KIT, agent, { sharing }).text('AGENTS.md'));
        expect(new Set(texts).size).toBe(1);
        const text = texts[0] ?? '';
        // Codex's sections are there exactly when Codex is; a skill link is local only when every reader has the skill at one place.
        expect(text.includes('## Rule style (kit)')).toBe(sharing.includes('codex'));
        const local = !sharing.includes('claude-code') || sharing.length === 1;
        expect(text.includes('[s](.agents/skills/s/SKILL.md)') || text.includes('[s](.claude/skills/s/SKILL.md)')).toBe(local);
        if (!local) expect(text).toContain(`[s](${RAW}/skills/s/SKILL.md)`);
        for (const agent of sharing) {
          const skill = layoutInstall(KIT, agent, { sharing }).plan.files.find((f) => f.entry.path === 'skills/s/SKILL.md')?.target ?? '';
          const others = sharing.filter((a) => layoutInstall(KIT, a, { sharing }).plan.files.some((f) => f.target === skill));
          expect(new Set(others.map((a) => layoutInstall(KIT, a, { sharing }).text('skills/s/SKILL.md'))).size).toBe(1);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('reports an import that no agent can follow, naming the file and line', () => {
    const broken: LoadoutFiles = { ...KIT, text: (p) => (p === 'CLAUDE.md' ? '@AGENTS.md\n@agents/rev.md\n' : TEXTS[p]) };
    expect(layoutInstall(broken, 'claude-code').unresolved).toEqual([]);
    expect(layoutInstall(broken, 'cursor').unresolved).toEqual([]);
    const codexBroken: LoadoutFiles = { ...KIT, text: (p) => (p === 'AGENTS.md' ? '@agents/rev.md\n' : TEXTS[p]) };
    expect(layoutInstall(codexBroken, 'antigravity-cli').unresolved).toEqual([expect.objectContaining({ file: 'AGENTS.md', line: 1, written: 'agents/rev.md' })]);
  });
});
