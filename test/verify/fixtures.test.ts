/**
 * The fixture corpus: every `pass-*` catalogue passes every check, and every `fail-*` catalogue
 * fails exactly the check it was written for, with a detail line naming the file and line given
 * in its `expected.txt`. A `pass-*` catalogue with an `expected.txt` passes with exactly those
 * notices (docs/authoring.md "What the checks look for"): one `notice:` detail line starting
 * with each of its lines, and no other; one without has no notice at all.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHECK_IDS } from '../../src/catalogue/vocabulary.js';
import { checkCatalogue } from '../../src/verify/catalogue.js';

const ROOT = fileURLToPath(new URL('../fixtures/checks', import.meta.url));

const dirs = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

describe('fixture corpus', () => {
  it('has a folder per check, each with at least one passing and three failing fixtures', () => {
    expect(dirs(ROOT)).toEqual([...CHECK_IDS].sort());
    for (const check of CHECK_IDS) {
      const cases = dirs(join(ROOT, check));
      expect(cases.filter((c) => c.startsWith('pass-')).length, check).toBeGreaterThanOrEqual(1);
      expect(cases.filter((c) => c.startsWith('fail-')).length, check).toBeGreaterThanOrEqual(3);
    }
  });

  for (const check of CHECK_IDS) {
    describe(check, () => {
      for (const name of existsSync(join(ROOT, check)) ? dirs(join(ROOT, check)) : []) {
        const root = join(ROOT, check, name);
        it(name, async () => {
          const [run] = await checkCatalogue({ root }, []);
          if (run === undefined) throw new Error(`${root}: no loadout`);
          const failing = run.results.filter((r) => r.status === 'fail');
          if (name.startsWith('pass-')) {
            expect(failing.map((r) => `${r.id}: ${r.details.join(' | ')}`)).toEqual([]);
            expect(run.results.find((r) => r.id === check)?.status).toBe('pass');
            const notices = run.results.flatMap((r) => r.details.filter((d) => d.startsWith('notice: ')).map((d) => d.slice('notice: '.length)));
            const file = join(root, 'expected.txt');
            const expected = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '') : [];
            expect(notices.length, `notices:\n${notices.join('\n')}`).toBe(expected.length);
            for (const line of expected) expect(notices.filter((n) => n.startsWith(line)), `notices:\n${notices.join('\n')}\nexpected one starting with:\n${line}`).toHaveLength(1);
            return;
          }
          expect(failing.map((r) => r.id)).toEqual([check]);
          const expected = readFileSync(join(root, 'expected.txt'), 'utf8').trim();
          expect(expected).toMatch(/^loadouts\/[^:]+:\d+: /u);
          expect(failing[0]?.details.some((d) => d.startsWith(expected)), `details:\n${failing[0]?.details.join('\n')}\nexpected a line starting with:\n${expected}`).toBe(true);
        });
      }
    });
  }
});
