/**
 * Every field rule of the spec's "POST /api/v1/submissions body" table, one failing case
 * each, checked through `validateSubmission` (pure). The HTTP tests check that a 422 carries
 * these errors.
 */
import { describe, expect, it } from 'vitest';
import { slugify, validateSubmission } from '../../src/submissions/validate.js';
import { validBody } from './harness.js';

const agentsMd = { path: 'AGENTS.md', content: '# Rules\n\nBe careful.\n' };

/** The errors for `overrides` applied to a valid body. */
function errorsOf(overrides: Record<string, unknown>): { pointer: string; message: string }[] {
  const result = validateSubmission(validBody(overrides));
  return result.ok ? [] : result.errors;
}

/** Asserts exactly one error, at `pointer`, whose message contains `expected`. */
function expectOne(overrides: Record<string, unknown>, pointer: string, expected: string | RegExp): void {
  const errors = errorsOf(overrides);
  expect(errors, JSON.stringify(errors)).toHaveLength(1);
  expect(errors[0]?.pointer).toBe(pointer);
  expect(errors[0]?.message).toMatch(expected);
}

describe('validateSubmission', () => {
  it('accepts the valid body and derives the id from the name', () => {
    const result = validateSubmission(validBody());
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.submission.id).toBe('rust-cli-helpers');
    expect(slugify('Ünïcode & Next.js  App!')).toBe('unicode-next-js-app');
  });

  it.each([
    ['name missing', { name: undefined }, '/name', /missing.*3 to 60/],
    ['name too short', { name: 'ab' }, '/name', /2 characters \(expected 3 to 60\)/],
    ['name too long', { name: 'x'.repeat(61) }, '/name', /expected 3 to 60/],
    ['name not a string', { name: 42 }, '/name', /number 42.*expected a string/],
    ['summary too short', { summary: 'short' }, '/summary', /expected 20 to 200/],
    ['summary too long', { summary: 's'.repeat(201) }, '/summary', /expected 20 to 200/],
    ['description too short', { description: 'short' }, '/description', /expected 20 to 4000/],
    ['description too long', { description: 'd'.repeat(4001) }, '/description', /expected 20 to 4000/],
    ['highlights empty', { highlights: [] }, '/highlights', /0 items \(expected 1 to 8/],
    ['highlights too many', { highlights: Array(9).fill('h') }, '/highlights', /9 items/],
    ['highlight not a string', { highlights: ['ok', 3] }, '/highlights/1', /expected a non-empty string/],
    ['category unknown', { category: 'games' }, '/category', /expected one of web-app, gamedev/],
    ['stacks missing', { stacks: undefined }, '/stacks', /missing/],
    ['stacks empty', { stacks: [] }, '/stacks', /expected 1 to 8 slugs/],
    ['stacks too many', { stacks: Array.from({ length: 9 }, (_, i) => `s${i}`) }, '/stacks', /9 items/],
    ['stack not a slug', { stacks: ['Rust Lang'] }, '/stacks/0', /lowercase hyphenated slug/],
    ['agents missing', { agents: undefined }, '/agents', /missing/],
    ['agents empty', { agents: [] }, '/agents', /0 items/],
    ['agent unknown', { agents: ['codex', 'vim'] }, '/agents/1', /expected one of claude-code, codex/],
    ['agent twice', { agents: ['codex', 'codex'] }, '/agents', /twice/],
    ['licence unknown', { licence: 'GPL-3.0' }, '/licence', /expected one of MIT, Apache-2.0/],
    ['author not an object', { author: 'Ada' }, '/author', /expected an object/],
    ['author without name', { author: { url: 'https://example.org' } }, '/author/name', /missing/],
    ['author unknown key', { author: { name: 'Ada', email: 'a@b.c' } }, '/author/email', /unknown field/],
    ['author url not a URL', { author: { name: 'Ada', url: 'not a url' } }, '/author/url', /http or https URL/],
    ['contact_email invalid', { contact_email: 'ada@' }, '/contact_email', /e-mail address/],
    ['contact_email without domain dot', { contact_email: 'ada@localhost' }, '/contact_email', /e-mail address/],
    ['source_url not https', { source_url: 'http://github.com/ada/x' }, '/source_url', /https URL/],
    ['notes too long', { notes: 'n'.repeat(4001) }, '/notes', /expected 0 to 4000/],
    ['rights_confirmed false', { rights_confirmed: false }, '/rights_confirmed', /expected true/],
    ['rights_confirmed missing', { rights_confirmed: undefined }, '/rights_confirmed', /missing \(expected true/],
    ['rights_confirmed a string', { rights_confirmed: 'true' }, '/rights_confirmed', /expected true/],
    ['id not a slug', { id: 'My_Loadout' }, '/id', /expected a slug/],
    ['name gives no id', { name: '!!!' }, '/name', /gives no id/],
    ['unknown field', { tags: ['x'] }, '/tags', /unknown field/],
  ])('reports %s', (_label, overrides, pointer, expected) => {
    expectOne(overrides, pointer, expected);
  });

  describe('files', () => {
    const withFiles = (files: unknown): Record<string, unknown> => ({ files });
    it.each([
      ['missing', undefined, '/files', /missing.*AGENTS.md/],
      ['not an array', { path: 'AGENTS.md' }, '/files', /an object \(expected an array/],
      ['no AGENTS.md', [{ path: 'rules/a.md', content: 'x' }], '/files', /has no AGENTS\.md/],
      ['an entry not an object', [agentsMd, 'CLAUDE.md'], '/files/1', /expected an object \{path, content\}/],
      ['unknown key in an entry', [{ ...agentsMd, role: 'instructions' }], '/files/0/role', /unknown field/],
      ['content missing', [agentsMd, { path: 'rules/a.md' }], '/files/1/content', /missing/],
      ['absolute path', [agentsMd, { path: '/etc/passwd', content: 'x' }], '/files/1/path', /is absolute/],
      ['".." in path', [agentsMd, { path: 'rules/../../x.md', content: 'x' }], '/files/1/path', /"\.\." segment/],
      ['"./" in path', [agentsMd, { path: './rules/a.md', content: 'x' }], '/files/1/path', /"\." segment/],
      ['backslash in path', [agentsMd, { path: 'rules\\a.md', content: 'x' }], '/files/1/path', /backslash/],
      ['NUL in path', [agentsMd, { path: 'rules/a\u0000.md', content: 'x' }], '/files/1/path', /NUL/],
      ['doubled slash', [agentsMd, { path: 'rules//a.md', content: 'x' }], '/files/1/path', /empty segment/],
      ['duplicate path', [agentsMd, { ...agentsMd }], '/files/1/path', /listed twice/],
      ['a file that is also a folder', [agentsMd, { path: 'skills/a/x', content: 'x' }, { path: 'skills/a/x/y.md', content: 'y' }], '/files/1/path', /^"skills\/a\/x" is a file, but "skills\/a\/x\/y\.md" needs a folder of that name/],
      ['a file that is a folder on case-insensitive file systems', [agentsMd, { path: 'skills/a/x/y.md', content: 'y' }, { path: 'skills/a/X', content: 'x' }], '/files/2/path', /"skills\/a\/X" is a file, but "skills\/a\/x\/y\.md" needs a folder of that name on case-insensitive file systems/],
      ['two paths differing only in case', [agentsMd, { path: 'rules/style.md', content: 'x' }, { path: 'rules/Style.md', content: 'y' }], '/files/2/path', /"rules\/Style\.md" and "rules\/style\.md" differ only in case/],
      ['a segment over 255 bytes', [agentsMd, { path: `skills/a/${'é'.repeat(127)}.md`, content: 'x' }], '/files/1/path', /has a segment of 257 bytes \(expected at most 255 bytes/],
      ['C1 CSI in path', [agentsMd, { path: 'rules/a\u009b2J.md', content: 'x' }], '/files/1/path', /contains U\+009B, a control, bidirectional or line-separator character/],
      ['line separator in path', [agentsMd, { path: 'rules/a\u2028b.md', content: 'x' }], '/files/1/path', /contains U\+2028/],
      ['bidi override in path', [agentsMd, { path: 'rules/a\u202edm.md', content: 'x' }], '/files/1/path', /contains U\+202E/],
      ['path outside the layout', [agentsMd, { path: 'docs/readme.md', content: 'x' }], '/files/1/path', /not in the loadout layout \(expected one of: AGENTS\.md/],
      ['loadout.yaml', [agentsMd, { path: 'loadout.yaml', content: 'x' }], '/files/1/path', /not in the loadout layout/],
      ['skill folder not a slug', [agentsMd, { path: 'skills/My Skill/SKILL.md', content: 'x' }], '/files/1/path', /not a slug/],
      ['NUL in content', [{ path: 'AGENTS.md', content: 'a\u0000b' }], '/files/0/content', /NUL character/],
      ['content not UTF-8 (lone surrogate)', [{ path: 'AGENTS.md', content: 'a\ud800b' }], '/files/0/content', /unpaired surrogate/],
      ['a file over 32 KB', [{ path: 'AGENTS.md', content: 'é'.repeat(16 * 1024 + 1) }], '/files/0/content', /32770 bytes \(expected at most 32768/],
    ])('reports %s', (_label, files, pointer, expected) => {
      expectOne(withFiles(files), pointer, expected);
    });

    it('reports an empty list, and that AGENTS.md is missing', () => {
      expect(errorsOf({ files: [] }).map((e) => e.message)).toEqual([expect.stringMatching(/0 entries \(expected 1 to 30\)/), expect.stringMatching(/has no AGENTS\.md/)]);
    });

    it('reports more than 30 files', () => {
      const files = [agentsMd, ...Array.from({ length: 30 }, (_, i) => ({ path: `rules/r${i}.md`, content: 'x' }))];
      expectOne({ files }, '/files', /31 entries \(expected 1 to 30\)/);
    });

    it('reports more than 128 KB in total', () => {
      const files = [agentsMd, ...Array.from({ length: 5 }, (_, i) => ({ path: `rules/r${i}.md`, content: 'x'.repeat(30 * 1024) }))];
      expectOne({ files }, '/files', /bytes in total \(expected at most 131072/);
    });

    it('accepts the whole layout', () => {
      const files = [
        agentsMd,
        { path: 'CLAUDE.md', content: '@AGENTS.md\n' },
        { path: 'GEMINI.md', content: '@AGENTS.md\n' },
        { path: 'rules/style.md', content: 'x' },
        { path: 'skills/add-route/SKILL.md', content: 'x' },
        { path: 'skills/add-route/references/guide.md', content: 'x' },
        { path: 'agents/reviewer.md', content: 'x' },
        { path: 'mcp/servers.json', content: '{"mcpServers": {}}' },
        { path: '.mcp.json', content: '{"mcpServers": {"x": {"command": "node"}}}' },
      ];
      const result = validateSubmission(validBody({ files }));
      expect(result.ok ? [] : result.errors).toEqual([]);
      if (!result.ok) return;
      expect(result.submission.files.map((f) => [f.path, f.inferred.role, f.inferred.agent ?? f.inferred.skill ?? null])).toEqual([
        ['AGENTS.md', 'instructions', null],
        ['CLAUDE.md', 'adapter', 'claude-code'],
        ['GEMINI.md', 'adapter', 'gemini-cli'],
        ['rules/style.md', 'rules', null],
        ['skills/add-route/SKILL.md', 'skill', 'add-route'],
        ['skills/add-route/references/guide.md', 'reference', 'add-route'],
        ['agents/reviewer.md', 'subagent', null],
        ['mcp/servers.json', 'mcp', null],
        ['.mcp.json', 'mcp', null],
      ]);
    });
  });

  it('reports every violation at once, each with a pointer and what was expected', () => {
    const result = validateSubmission({ name: 'x', summary: 3, category: 'nope', stacks: [], agents: ['vim'], files: [{ path: '../x', content: 'a' }], licence: 'GPL', rights_confirmed: false, extra: 1 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.pointer)).toEqual(['/name', '/summary', '/category', '/stacks', '/agents/0', '/files/0/path', '/files', '/licence', '/rights_confirmed', '/extra']);
    for (const error of result.errors) expect(error.message).toMatch(/\(expected /);
  });

  it('reports a body that is not an object', () => {
    for (const body of [[], 'text', null, 3]) {
      const result = validateSubmission(body);
      expect(result.ok ? [] : result.errors).toEqual([{ pointer: '', message: expect.stringMatching(/expected a JSON object/) as unknown }]);
    }
  });
});
