import { describe, expect, it } from 'vitest';
import { describePathClashes, describePathProblem } from '../../src/catalogue/file-path.js';

/** The rule of DESIGN.md section 3, written out plainly as the oracle. */
function isBad(path: string): boolean {
  const segments = path.split('/');
  return (
    path === '' ||
    /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\\]/u.test(path) ||
    path.startsWith('/') ||
    /^[A-Za-z]:/u.test(path) ||
    segments.some((s) => s === '' || s === '.' || s === '..' || Buffer.byteLength(s, 'utf8') > 255)
  );
}

describe('describePathProblem', () => {
  it('names each kind of bad path', () => {
    expect(describePathProblem('')).toMatch(/is empty/u);
    expect(describePathProblem('rules/a\u0000.md')).toMatch(/control character/u);
    expect(describePathProblem('rules\\a.md')).toMatch(/backslash/u);
    expect(describePathProblem('/etc/passwd')).toMatch(/is absolute/u);
    expect(describePathProblem('C:/x.md')).toMatch(/is absolute/u);
    expect(describePathProblem('rules/../../x.md')).toMatch(/"\.\." segment/u);
    expect(describePathProblem('./rules/x.md')).toMatch(/"\." segment/u);
    expect(describePathProblem('rules//x.md')).toMatch(/empty segment/u);
    expect(describePathProblem('rules/')).toMatch(/empty segment/u);
    expect(describePathProblem('rules/a\u009b.md')).toMatch(/contains U\+009B/u);
    expect(describePathProblem('rules/a\u2029.md')).toMatch(/contains U\+2029/u);
    expect(describePathProblem('rules/a\u2066.md')).toMatch(/contains U\+2066/u);
    expect(describePathProblem(`rules/${'a'.repeat(253)}.md`)).toMatch(/a segment of 256 bytes/u);
    expect(describePathProblem(`rules/${'a'.repeat(252)}.md`)).toBeUndefined();
    expect(describePathProblem(`${'😀'.repeat(63)}/${'😀'.repeat(64)}`)).toMatch(/a segment of 256 bytes/u);
  });

  it('finds paths that cannot all exist in one folder', () => {
    expect(describePathClashes(['AGENTS.md', 'skills/a/SKILL.md', 'skills/a/x.md', 'skills/ab/x.md'])).toEqual([]);
    expect(describePathClashes(['skills/a/x', 'skills/a/x/y.md', 'skills/a/x/z.md']).map((c) => [c.path, c.other])).toEqual([['skills/a/x', 'skills/a/x/y.md']]);
    expect(describePathClashes(['skills/a/x/y.md', 'skills/A']).map((c) => [c.path, c.other])).toEqual([['skills/A', 'skills/a/x/y.md']]);
    expect(describePathClashes(['rules/s.md', 'rules/S.md']).map((c) => c.message)).toEqual(['"rules/S.md" and "rules/s.md" differ only in case (expected names that stay distinct on case-insensitive file systems such as macOS\'s and Windows\')']);
    // One file under two Unicode normalisations (NFC é, NFD e + U+0301) is one name on APFS.
    expect(describePathClashes(['rules/\u00e9.md', 'rules/e\u0301.md'])).toHaveLength(1);
  });

  it('accepts normalised relative paths, dots inside names included', () => {
    for (const path of ['AGENTS.md', 'rules/style.md', '.cursor/rules/a.mdc', 'skills/x/references/a..b.md', '...', 'a/.hidden/b']) expect(describePathProblem(path), path).toBeUndefined();
  });

  it('agrees with the plain rule on random paths', () => {
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const alphabet = ['a', 'b', '.', '/', '\\', 'C', ':', '\u0001', '-', ' ', '\u009b', '\u2028', '\u202e', 'é'.repeat(60)];
    for (let i = 0; i < 5000; i++) {
      const path = Array.from({ length: Math.floor(rnd() * 8) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
      expect(describePathProblem(path) !== undefined, JSON.stringify(path)).toBe(isBad(path));
    }
  });
});
