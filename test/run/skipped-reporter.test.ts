/**
 * The run ends with one line per group of skipped tests, why and how to run them (issue 57,
 * point 13: `npm test` skipped 108 tests without a word): the grouping by itself, and a real
 * vitest run of the repository's configuration over a fixture file whose tests are declared with
 * requirements (test/fixtures/skipped-run/).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/cli.js';
import { describeSkipped } from './skipped-reporter.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

const chromium = { id: 'chromium', met: false, missing: 'Chromium at /usr/bin/chromium missing', enable: 'apt-get install chromium' };
const postgres = { id: 'postgres', met: false, missing: 'PostgreSQL: TEST_DATABASE_URL unset, and nothing answers at 127.0.0.1:5432 (ECONNREFUSED)', enable: 'start PostgreSQL' };

describe('describeSkipped', () => {
  it('prints a line per requirement not met with its count and how to meet it, in order of first appearance, then the others by file', () => {
    const skipped = [
      { file: 'test/pages/home.test.ts', requires: chromium },
      { file: 'test/storage/stores.test.ts', requires: postgres },
      { file: 'test/pages/home.test.ts', requires: chromium },
      { file: 'test/b.test.ts', requires: undefined },
      { file: 'test/a.test.ts', requires: { ...chromium, met: true } },
      { file: 'test/b.test.ts', requires: undefined },
    ];
    expect(describeSkipped(skipped, false)).toEqual([
      'Skipped tests, by what they need (6 tests):',
      '  Chromium at /usr/bin/chromium missing: 2 tests (apt-get install chromium)',
      '  PostgreSQL: TEST_DATABASE_URL unset, and nothing answers at 127.0.0.1:5432 (ECONNREFUSED): 1 test (start PostgreSQL)',
      '  skipped for no requirement missing here: 3 tests in test/a.test.ts, test/b.test.ts (a failed hook skips its tests; declare what a test needs with test/run/requirements.ts)',
    ]);
  });

  it('leaves out the undeclared ones of a run narrowed by a name pattern, and says nothing when nothing was skipped', () => {
    expect(describeSkipped([{ file: 'test/a.test.ts', requires: chromium }, { file: 'test/a.test.ts', requires: undefined }], true)).toEqual([
      'Skipped tests, by what they need (1 test):',
      '  Chromium at /usr/bin/chromium missing: 1 test (apt-get install chromium)',
    ]);
    expect(describeSkipped([{ file: 'test/a.test.ts', requires: undefined }], true)).toEqual([]);
    expect(describeSkipped([], false)).toEqual([]);
  });
});

describe('a run of the repository\'s configuration', () => {
  it('says which PostgreSQL it uses first, and ends with the skipped tests grouped by what they need', async () => {
    const { TEST_DATABASE_URL: _unset, ...env } = process.env;
    const result = await runProcess(process.execPath, [VITEST, 'run', '--config', 'test/fixtures/skipped-run/vitest.config.ts'], REPO, { ...env, TEST_DATABASE_URL: '', NO_COLOR: '1', FORCE_COLOR: '0' });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('PostgreSQL: TEST_DATABASE_URL is empty: its tests are skipped');
    const summary = result.stdout.indexOf('Tests  2 passed | 5 skipped (7)');
    expect(summary, result.stdout).toBeGreaterThan(0);
    const tail = result.stdout.slice(summary).split('\n').map((line) => line.trimEnd());
    expect(tail).toEqual(
      expect.arrayContaining([
        'Skipped tests, by what they need (5 tests):',
        '  the fixture tool missing: 4 tests (install the fixture tool)',
        '  skipped for no requirement missing here: 1 test in test/fixtures/skipped-run/needs.fixture.ts (a failed hook skips its tests; declare what a test needs with test/run/requirements.ts)',
      ]),
    );
  }, 120_000);
});
