import { describe, expect, it } from 'vitest';
import { NeedleSet } from '../../src/verify/text/needles.js';

/** What `findIn` must answer: the needles that `includes` finds in the lower-cased text. */
const naive = (needles: string[], text: string): string[] => [...new Set(needles.map((n) => n.toLowerCase()))].filter((n) => text.toLowerCase().includes(n)).sort();

describe('NeedleSet', () => {
  it('finds overlapping needles, needles inside others and needles that share a prefix', () => {
    const needles = ['http', 'httpx', 'http.client', 'pythonhttpsverify', 'rm ', 'iex', 'invoke-', 'invoke-expression', 'sh'];
    const set = new NeedleSet(needles);
    expect([...set.findIn('httpythonhttpsverify')].sort()).toEqual(['http', 'pythonhttpsverify']);
    expect([...set.findIn('pythonhttpsverify')].sort()).toEqual(['http', 'pythonhttpsverify']);
    expect([...set.findIn('Invoke-Expression')].sort()).toEqual(['invoke-', 'invoke-expression']);
    expect([...set.findIn('import http.client')].sort()).toEqual(['http', 'http.client']);
    expect([...set.findIn('form \u00e9 rm -rf ~ && bash')].sort()).toEqual(['rm ', 'sh']);
    expect([...set.findIn('no needle, only caf\u00e9 and \u{1F600}')]).toEqual([]);
  });

  it('ignores ASCII case only', () => {
    const set = new NeedleSet(['curl', 'Sudo']);
    expect([...set.findIn('CURL and sUDO')].sort()).toEqual(['curl', 'sudo']);
    expect([...set.findIn('\u212Aurl')]).toEqual([]); // KELVIN SIGN lower-cases to "k" in Unicode, not in ASCII
  });

  it('agrees with a substring test on random texts', () => {
    let seed = 42;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    let alphabet = '';
    const pick = (n: number): string => Array.from({ length: n }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
    for (let round = 0; round < 400; round++) {
      // Half the rounds on two letters, where needles overlap and nest all the time.
      alphabet = round % 2 === 0 ? 'abcrsuhtp -.IHTé\n' : 'abA';
      const needles = [...new Set(Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => pick(1 + Math.floor(rnd() * 4)).replace(/é/gu, 'e')))];
      const text = pick(Math.floor(rnd() * 300));
      expect([...new NeedleSet(needles).findIn(text)].sort(), JSON.stringify({ needles, text })).toEqual(naive(needles, text));
    }
  });

  it('refuses empty and non-ASCII needles', () => {
    expect(() => new NeedleSet([])).toThrow(/at least one needle/u);
    expect(() => new NeedleSet(['ok', ''])).toThrow(/non-empty ASCII/u);
    expect(() => new NeedleSet(['caf\u00e9'])).toThrow(/non-empty ASCII/u);
  });
});
