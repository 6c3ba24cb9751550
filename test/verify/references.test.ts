import { describe, expect, it } from 'vitest';
import { collectAnchors, hasAnchor, slugify } from '../../src/verify/references/anchors.js';
import { findMarkdownReferences, findSkillPaths, isExternal } from '../../src/verify/references/links.js';

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
    const refs = findMarkdownReferences(text).map((r) => `${r.line} ${r.kind} ${r.target}${r.anchor === undefined ? '' : `#${r.anchor}`}`);
    expect(refs.sort()).toEqual(['2 import docs/a.md', '3 link b.md#part', '3 link img/x.png', '4 link ./c.md', '5 link d.md'].sort());
  });

  it('finds a skill\'s own file paths in prose, and in code only when they are run or are references', () => {
    const text = 'Read `references/api.md`.\n\n```sh\npython scripts/convert.py in.xlsx\ncp scripts/project.gd build/\ncat references/notes.md\n```\n';
    expect(findSkillPaths(text).map((r) => `${r.line} ${r.target}`)).toEqual(['1 references/api.md', '4 scripts/convert.py', '6 references/notes.md']);
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
