import { describe, expect, it } from 'vitest';
import { describePathProblem } from '../../src/catalogue/file-path.js';

/** The rule of DESIGN.md section 3, written out plainly as the oracle. */
function isBad(path: string): boolean {
  const segments = path.split('/');
  return path === '' || /[\u0000-\u001f\u007f\\]/u.test(path) || path.startsWith('/') || /^[A-Za-z]:/u.test(path) || segments.some((s) => s === '' || s === '.' || s === '..');
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
  });

  it('accepts normalised relative paths, dots inside names included', () => {
    for (const path of ['AGENTS.md', 'rules/style.md', '.cursor/rules/a.mdc', 'skills/x/references/a..b.md', '...', 'a/.hidden/b']) expect(describePathProblem(path), path).toBeUndefined();
  });

  it('agrees with the plain rule on random paths', () => {
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const alphabet = ['a', 'b', '.', '/', '\\', 'C', ':', '\u0001', '-', ' '];
    for (let i = 0; i < 5000; i++) {
      const path = Array.from({ length: Math.floor(rnd() * 8) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
      expect(describePathProblem(path) !== undefined, JSON.stringify(path)).toBe(isBad(path));
    }
  });
});
