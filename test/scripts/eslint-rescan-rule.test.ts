/**
 * The lint rule `loadout/no-rescan` (scripts/eslint-rescan-rule.js; issue 53, point 8) reports
 * the quadratic moves eslint-plugin-regexp does not see: the HTML, angle-bracket and title
 * patterns of `catalogue/markdown-references.ts` as they were (each timed quadratic by
 * test/catalogue/linear-time.test.ts), a definition that runs over `\r`, and MCP variables'
 * defaults; it passes the patterns that replaced them, a quantifier at a pattern's very start
 * (the plugin's case), anchored expressions, and a run that a leading lookbehind keeps matches
 * from starting inside.
 */
import { Linter } from 'eslint';
import regexp from 'eslint-plugin-regexp';
import { describe, expect, it } from 'vitest';
import rescan from '../../scripts/eslint-rescan-rule.js';

const linter = new Linter({ configType: 'flat' });

/** The quantifiers the rule reports in `const re = <literal>;`. */
function reported(literal: string): string[] {
  const messages = linter.verify(`const re = ${literal};\n`, [{ plugins: { loadout: rescan }, rules: { 'loadout/no-rescan': 'error' } }]);
  return messages.map((m) => /quantifier (\S+) can/u.exec(m.message)?.[1] ?? m.message);
}

describe('loadout/no-rescan', () => {
  it('reports the quadratic patterns the plugin let through, naming the quantifier', () => {
    expect(reported(String.raw`/<(?:a|img|link|source)\b[^>]*?\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/dgiu`)).toEqual(['[^>]*?']);
    expect(reported(String.raw`/!?\[(?:[^[\]\n]|\[[^[\]\n]*\])*\]\(\s*(?:(<[^>\n]*>|[^\s()]+))?(?:\s+\([^)\n]*\))?\)/dgu`)).toEqual(['[^>\\n]*', '[^)\\n]*']);
    expect(reported(String.raw`/^ {0,3}\[[^\]\n]+\]:\s*(\S+)/dgmu`)).toEqual(['[^\\]\\n]+']);
    expect(reported(String.raw`/\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/gu`)).toEqual(['[^}]*']);
  });

  it('passes the patterns that replaced them, and what is linear for a reason it can see', () => {
    for (const literal of [
      String.raw`/<(?:a|img|link|source)(?=[\s/>])(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>\x60]+))?)*?\s+(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>\x60]+))/dgiu`,
      String.raw`/!?\[(?:[^[\]\n]|\[[^[\]\n]*\])*\]\(\s*(?:(<[^<>\n]*>|[^\s()]+))?(?:\s+\([^()\n]*\))?\)/dgu`,
      String.raw`/^ {0,3}\[[^\]\n\r\u2028\u2029]+\]:\s*(\S+)/dgmu`,
      String.raw`/\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(:-|\})/gu`,
      String.raw`/\s*a/u`, // the plugin's own case: a quantifier at the very start
      String.raw`/^a[^\n]*b/u`, // tried at the start of the text only
      String.raw`/a[^\n]*b/uy`, // sticky: tried at one position
      String.raw`/(?<![\w./-])(?:\.\/)?(references\/[\w-][\w./-]*\.[A-Za-z0-9]+)\b/gu`, // no match starts after a word character, `.`, `/` or `-`
    ]) {
      expect(reported(literal), literal).toEqual([]);
    }
  });

  it('finds what eslint-plugin-regexp does not: the old HTML pattern passes all its rules with `report: potential`', () => {
    const messages = linter.verify(String.raw`const re = /<(?:a|img|link|source)\b[^>]*?\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/dgiu; re.exec('');` + '\n', [
      { plugins: { regexp }, rules: { 'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }], 'regexp/no-super-linear-move': ['error', { report: 'potential', ignorePartial: false, ignoreSticky: false }] } },
    ]);
    expect(messages).toEqual([]);
  });
});
