import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { guideHref, parseGuide, readGuides, renderGuideHtml, renderGuidePage } from '../../src/pages/guides.js';

const names = new Set(['installing', 'cli']);

describe('guideHref', () => {
  it('leads links between guides, pictures and the README to the pages', () => {
    expect(guideHref('cli.md', names)).toBe('../cli/');
    expect(guideHref('./cli.md#exit-codes', names)).toBe('../cli/#exit-codes');
    expect(guideHref('images/page.png', names)).toBe('../images/page.png');
    expect(guideHref('../README.md', names)).toBe('../');
    expect(guideHref('#here', names)).toBe('#here');
    expect(guideHref('https://example.org/x.md', names)).toBe('https://example.org/x.md');
  });

  it('gives null for files the site does not publish', () => {
    expect(guideHref('../SECURITY.md', names)).toBeNull();
    expect(guideHref('unknown.md', names)).toBeNull();
    expect(guideHref('../src/tree/build.ts', names)).toBeNull();
  });
});

describe('renderGuideHtml', () => {
  it('escapes raw HTML, gives headings GitHub slugs and unlinks unpublished files', () => {
    const guide = parseGuide('installing', '# Install it\n\nThe lead <script>alert(1)</script>.\n\n## Two words\n\n## Two words\n\nSee [the CLI](cli.md) and [security](../SECURITY.md).\n');
    expect(guide.title).toBe('Install it');
    expect(guide.lead).toBe('The lead <script>alert(1)</script>.');
    // Lines of the source paragraph are joined by a space, not glued together.
    expect(parseGuide('signing', '# Signing\n\nWhat they read\nis what the **maintainers**\nsigned, `as it`\ncame through.\n').lead).toBe('What they read is what the maintainers signed, as it came through.');
    const html = renderGuideHtml(guide, names);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<h2 id="two-words">');
    expect(html).toContain('<h2 id="two-words-1">');
    expect(html).toContain('<a href="../cli/">the CLI</a>');
    expect(html).toContain('and security.');
  });

  it('makes code and tables reachable by keyboard', () => {
    const html = renderGuideHtml(parseGuide('cli', '# CLI\n\n```sh\nloadout build\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n'), names);
    expect(html).toContain('<pre tabindex="0">');
    expect(html).toContain('aria-label="Table 1"');
  });

  it('puts a guide in the site layout with every guide in its navigation', () => {
    const guides = [parseGuide('cli', '# The CLI\n\nEvery command.\n'), parseGuide('installing', '# Installing\n\nHow.\n')];
    const page = renderGuidePage('https://catalogue.example', guides[1]!, guides);
    expect(page).toContain('<link rel="canonical" href="https://catalogue.example/docs/installing/">');
    expect(page).toContain('<a href="../cli/">The CLI</a>');
    expect(page).toContain('<a href="../installing/" aria-current="page">Installing</a>');
  });
});

describe('readGuides', () => {
  it('reads docs/*.md by slug and docs/images, and nothing without a docs folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'loadout-guides-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    expect(readGuides(join(dir, 'docs'))).toEqual({ guides: [], images: [] });
    mkdirSync(join(dir, 'docs/images'), { recursive: true });
    writeFileSync(join(dir, 'docs/b-guide.md'), '# B\n\nb.\n');
    writeFileSync(join(dir, 'docs/a.md'), '# A\n\na.\n');
    writeFileSync(join(dir, 'docs/Not A Slug.md'), '# X\n');
    writeFileSync(join(dir, 'docs/images/shot.png'), 'png');
    const { guides, images } = readGuides(join(dir, 'docs'));
    expect(guides.map((g) => g.name)).toEqual(['a', 'b-guide']);
    expect(images.map((i) => i.path)).toEqual(['docs/images/shot.png']);
  });
});
