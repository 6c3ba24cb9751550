import { describe, expect, it } from 'vitest';
import { collectAnchors, hasAnchor, slugify, splitAttributeBlock } from '../../src/verify/references/anchors.js';
import { expandsImports, findMarkdownReferences, findSkillPaths, isExternal } from '../../src/verify/references/links.js';
import { growthRatio, measureGrowth, pumped, pumpsOf, RATIO, timed } from '../helpers/linear-time.js';

describe('reference extraction', () => {
  it('finds links, images, definitions, HTML links and @ imports with their lines, not those in code', () => {
    const text = [
      '# T', // 1
      '@docs/a.md', // 2
      'See [b](b.md#part "title") and ![img](img/x.png).', // 3
      '[ref]: ./c.md', // 4
      '<a href="d.md">d</a> and `[e](e.md)` and user@example.com and @types/node', // 5
      '```md', // 6
      '[f](f.md) @g.md', // 7
      '```', // 8
    ].join('\n');
    const refs = findMarkdownReferences(text).map((r) => `${r.line} ${r.kind}${r.loose === true ? ' (loose)' : ''} ${r.target}${r.anchor === undefined ? '' : `#${r.anchor}`}`);
    // An `@` token that is no document import (an npm scope) is there too, to be judged only for where it leads.
    expect(refs.sort()).toEqual(['2 import docs/a.md', '3 link b.md#part', '3 link img/x.png', '4 link ./c.md', '5 link d.md', '5 import (loose) types/node'].sort());
  });

  it('finds a skill\'s own file paths in prose, and in code only when they are run or are references', () => {
    const text = 'Read `references/api.md`.\n\n```sh\npython scripts/convert.py in.xlsx\ncp scripts/project.gd build/\ncat references/notes.md\n```\n';
    expect(findSkillPaths(text).map((r) => `${r.line} ${r.target}`)).toEqual(['1 references/api.md', '4 scripts/convert.py', '6 references/notes.md']);
  });

  it('reads @ imports only where asked, and not npm scopes that prose names as packages', () => {
    const text = [
      'Documented by the @acme/tokens.md package.', // 1: a package
      'Run the @acme/setup.md CLI, or @acme/lib.md@1.2.3 and @acme/next.md@^2.', // 2: a CLI, versions
      'Tokens: `@acme/tokens.md`.', // 3: a code span
      '@acme/tokens.md', // 4: an import (a scoped path with nothing after it)
      '@docs/missing.md and @./local.md', // 5: imports
      'See @docs/guide.md, the guide.', // 6: an import
    ].join('\n');
    const imports = (options?: { imports?: boolean }): string[] => findMarkdownReferences(text, undefined, options).filter((r) => r.kind === 'import' && r.loose !== true).map((r) => `${r.line} ${r.target}`);
    expect(imports()).toEqual(['4 acme/tokens.md', '5 docs/missing.md', '5 ./local.md', '6 docs/guide.md']);
    expect(imports({ imports: false })).toEqual([]);
    expect(findMarkdownReferences('[a](a.md) @b.md', undefined, { imports: false }).map((r) => `${r.target}${r.loose === true ? ' (loose)' : ''}`)).toEqual(['a.md', 'b.md (loose)']);
  });

  it('expands imports in CLAUDE.md, GEMINI.md and AGENTS.md only', () => {
    for (const path of ['CLAUDE.md', 'GEMINI.md', 'AGENTS.md', 'docs/AGENTS.md']) expect(expandsImports(path), path).toBe(true);
    for (const path of ['agents/reviewer.md', 'skills/a/SKILL.md', 'skills/a/references/x.md', 'rules/style.md', 'README.md', 'NOT-CLAUDE.md']) expect(expandsImports(path), path).toBe(false);
  });

  it('treats URLs and placeholders as external', () => {
    expect(isExternal('https://x.dev')).toBe(true);
    expect(isExternal('mailto:a@b.c')).toBe(true);
    expect(isExternal('{{link}}')).toBe(true);
    expect(isExternal('docs/a.md')).toBe(false);
    expect(isExternal('')).toBe(false);
  });
});

describe('anchors', () => {
  it('slugs headings as GitHub does, numbering repeats', () => {
    expect(slugify('Error handling for `APIs`')).toBe('error-handling-for-apis');
    expect(slugify('Fixtures & helpers')).toBe('fixtures--helpers');
    expect(slugify('[Link](x.md) **bold**')).toBe('link-bold');
    expect(slugify('  Error Handling - 2 ')).toBe('error-handling---2');
    expect(slugify('Naïve café')).toBe('naïve-café');
    const anchors = collectAnchors('# Setup\n\n## Setup\n\nTitle\n=====\n\n<a id="custom"></a>\n\n```md\n# Not a heading\n```\n');
    expect([...anchors].sort()).toEqual(['custom', 'setup', 'setup-1', 'title']);
    expect(hasAnchor(anchors, 'Setup')).toBe(true);
    expect(hasAnchor(anchors, 'not-a-heading')).toBe(false);
  });

  it('reads explicit heading ids and HTML anchors', () => {
    const text = [
      '## Components with state only {#state-only}',
      '## Pandoc style {#pandoc .unnumbered lang=en}',
      '## Kramdown style {: #kramdown}',
      'Setext with id {#setext-id}',
      '===',
      'A paragraph',
      '{: #block-ial}',
      '<a id="html-id"></a><a name="legacy-name"></a><span id=\'span-id\'>x</span>',
      '## Not attributes {curly words}',
      '## Braces in text {#a b c}',
      '`## Title {#in-code}`',
    ].join('\n');
    const anchors = collectAnchors(text);
    for (const id of ['state-only', 'pandoc', 'kramdown', 'setext-id', 'block-ial', 'html-id', 'legacy-name', 'span-id', 'components-with-state-only']) expect(anchors.has(id), id).toBe(true);
    // GitHub shows the block as text: its slug stays.
    expect(anchors.has('components-with-state-only-state-only')).toBe(true);
    expect(anchors.has('not-attributes-curly-words')).toBe(true);
    for (const id of ['curly', 'a', 'in-code', 'state-onl']) expect(hasAnchor(anchors, id), id).toBe(false);
  });

  it('splits a trailing attribute block from a heading', () => {
    expect(splitAttributeBlock('Title {#id}')).toEqual({ text: 'Title', id: 'id' });
    expect(splitAttributeBlock('Title {: #id .c}')).toEqual({ text: 'Title', id: 'id' });
    expect(splitAttributeBlock('Title {.c}')).toEqual({ text: 'Title {.c}', id: undefined });
    expect(splitAttributeBlock('Title {#a b}')).toEqual({ text: 'Title {#a b}', id: undefined });
    expect(splitAttributeBlock('Title')).toEqual({ text: 'Title', id: undefined });
  });

  it.each(pumpsOf('slug', ['# ', '[a](', ''], ['# ', '![a](b', ''], ['# ', '<a', ''], ['# ', '_', 'x']))('slugs a heading in linear time: $prefix + $pump×n (issue 53: `[a](` repeated was quadratic)', (pump) => {
    const growth = measureGrowth((bytes) => timed(() => collectAnchors(pumped(pump, bytes))));
    expect(growthRatio(growth), `${growth.small.toFixed(1)} ms at 25 KB, ${growth.large.toFixed(1)} ms at 100 KB`).toBeLessThan(RATIO);
  });

  it('does not read front matter as a setext heading', () => {
    expect([...collectAnchors('---\ndescription: Rules for tests\n---\n\n# Testing\n')]).toEqual(['testing']);
  });

  it('reads ATX and setext headings as CommonMark does, with CRLF line breaks', () => {
    const text = [
      '   ### Three spaces ###   ',
      '    # Four spaces is code',
      '#No space is not a heading',
      '####### Seven is not a heading',
      '#',
      'Dashed',
      '---',
      '- a list item',
      '---',
      '> a quote',
      '===',
      'Plain paragraph',
      '',
      '## Windows\r',
      'Underlined\r',
      '==\r',
    ].join('\n');
    expect([...collectAnchors(text)]).toEqual(['three-spaces', '', 'dashed', 'windows', 'underlined']);
  });
});
