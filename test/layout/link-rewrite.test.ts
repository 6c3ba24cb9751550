import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { proseOf } from '../../src/catalogue/markdown.js';
import { scanReferences } from '../../src/catalogue/markdown-references.js';
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

/**
 * A rewritten link resolves, by RFC 3986's rules (Node's WHATWG `URL` as the resolver), to the
 * file its target landed at (issue 53, point 9): whatever the names of the files and of their
 * install targets (`javascript:alert(1)`, `%2e%2e`, `q?.md`, blanks, parentheses, quotes…), a
 * link in any form (inline, image, angle brackets, definition, HTML with any quoting), with a
 * query and a fragment, read from the installed file's address, names the landed file's
 * address, on the same origin, with the same query and fragment.
 */
describe('rewritten links resolve to the same file (RFC 3986)', () => {
  /** A segment's name as an author would percent-encode it in a link: everything but unreserved characters. */
  const encodeSegment = (segment: string): string => encodeURIComponent(segment).replace(/[!'()*~]/gu, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const encodePath = (path: string): string => path.split('/').map(encodeSegment).join('/');
  const BASE = 'https://project.invalid/';
  const FORMS: ((dest: string) => string)[] = [(d) => `[x](${d})`, (d) => `![x](${d})`, (d) => `[x](<${d}>)`, (d) => `[x]: ${d}`, (d) => `<a href="${d}">x</a>`, (d) => `<img alt='x' src='${d}'>`, (d) => `<a href=${d}>x</a>`];

  const hostile = fc.constantFrom('javascript:alert(1)', 'data:text', '%2e%2e', '%252e', 'q?.md', 'a#b.md', 'a b.md', '(x).md', 'x)', '<x>', 'a&amp;b', "it's", 'x"y', '~', '~x', 'mailto:x', '..x', '.x', '@x', 'é.md', 'a%20b', ':', 'a=b', 'a`b', 'x\u00a0y');
  const plain = fc.stringMatching(/^[a-z][a-z0-9._-]{0,6}$/u).filter((s) => s !== '.' && s !== '..');
  const segment = fc.oneof(hostile, plain);
  const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((segments) => segments.join('/'));

  it('holds for every file name, target, link form, query and fragment', () => {
    fc.assert(
      fc.property(path, path, path, path, fc.integer({ min: 0, max: FORMS.length - 1 }), fc.option(fc.constantFrom('?v', '?a%20b'), { nil: undefined }), fc.option(fc.constantFrom('#part', '#a%20b'), { nil: undefined }), (source, file, sourceTarget, fileTarget, form, query, fragment) => {
        fc.pre(source !== file && sourceTarget !== fileTarget && !fileTarget.startsWith(`${sourceTarget}/`) && !sourceTarget.startsWith(`${fileTarget}/`) && !file.startsWith(`${source}/`) && !source.startsWith(`${file}/`));
        const from = `${source}.md`;
        const to = `${file}.md`;
        const landed = { [from]: `${sourceTarget}.md`, [to]: `${fileTarget}.md` };
        const written = `./${encodePath(posix.relative(posix.dirname(from), to))}${query ?? ''}${fragment ?? ''}`;
        const text = `# Doc\n\n${(FORMS[form] as (d: string) => string)(written)}\n`;
        const context: RewriteContext = { paths: new Set([from, to]), landing: (p) => (landed[p] === undefined ? undefined : { target: landed[p] as string }), rawUrl: (p) => `${RAW}/${p}` };
        const result = rewriteReferences(text, { source: from, target: landed[from] as string, imports: false }, context);
        expect(result.unresolved, text).toEqual([]);
        const sites = scanReferences(proseOf(result.text), false).filter((s) => s.loose !== true);
        expect(sites, result.text).toHaveLength(1);
        const raw = sites[0]?.raw ?? '';
        const destination = raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw;
        const url = new URL(destination, `${BASE}${encodePath(landed[from] as string)}`);
        expect({ origin: url.origin, file: decodeURIComponent(url.pathname), search: url.search, hash: url.hash }, `${text} → ${result.text}`).toEqual({
          origin: 'https://project.invalid',
          file: `/${landed[to]}`,
          search: query ?? '',
          hash: fragment ?? '',
        });
      }),
      { numRuns: 1500 },
    );
  });

  it('writes a raw address as a destination that keeps its meaning: parentheses, blanks and quotes encoded', () => {
    const context: RewriteContext = { paths: new Set(['AGENTS.md', "x) it's.md"]), landing: (p) => (p === 'AGENTS.md' ? { target: p } : undefined), rawUrl: (p) => `${RAW}/${p}` };
    expect(rewriteReferences('[a](x%29%20it%27s.md) <a href="x%29%20it%27s.md">a</a>\n', { source: 'AGENTS.md', target: 'AGENTS.md', imports: false }, context).text).toBe(`[a](${RAW}/x%29%20it%27s.md) <a href="${RAW}/x%29%20it%27s.md">a</a>\n`);
  });

  it('writes the issue\'s file names as files: ./ before a first segment with a colon, % and ? encoded', () => {
    const context: RewriteContext = { paths: new Set(['AGENTS.md', 'javascript:alert(1)', '%2e%2e/x.md', 'q?.md']), landing: (p) => ({ target: p }), rawUrl: (p) => `${RAW}/${p}` };
    const text = '[a](./javascript:alert(1)) ![i](<./javascript:alert(1)>) <a href="./javascript:alert(1)">a</a>\n[d]: ./javascript:alert(1)\n[b](./%252e%252e/x.md) [c](q%3F.md)\n';
    expect(rewriteReferences(text, { source: 'AGENTS.md', target: 'AGENTS.md', imports: false }, context)).toEqual({
      text: '[a](./javascript:alert%281%29) ![i](<./javascript:alert%281%29>) <a href="./javascript:alert%281%29">a</a>\n[d]: ./javascript:alert%281%29\n[b](%252e%252e/x.md) [c](q%3F.md)\n',
      unresolved: [],
    });
  });
});
