/**
 * The ALTCHA challenge costs what the configuration says: the secret counter is uniform over
 * 0…`CHALLENGE_MAX_COUNTER`, so no floor lets a solver skip work, and altcha-lib's own solver
 * (searching up from 0, as the widget's workers do) needs `maxCounter / 2` attempts at the
 * median. A small configured difficulty keeps the test fast; the default's solve time is
 * measured in docs/deploying.md.
 */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/cli/config.js';
import { LoadoutError } from '../../src/catalogue/errors.js';
import { ALTCHA_DIFFICULTY, drawChallengeCounter } from '../../src/submissions/altcha.js';
import { resolveChallenge } from '../../src/submissions/setup.js';
import { makeTempDir } from '../helpers/temp.js';

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

describe('the ALTCHA counter', () => {
  it('is drawn over the whole range from 0, with no floor a solver could start at', () => {
    const counters = Array.from({ length: 20_000 }, () => drawChallengeCounter(1000));
    expect(counters.every((counter) => Number.isInteger(counter) && counter >= 0 && counter <= 1000)).toBe(true);
    // 20,000 uniform draws: the chance that none falls below 5 or above 995 is under e^-99.
    expect(Math.min(...counters)).toBeLessThan(5);
    expect(Math.max(...counters)).toBeGreaterThan(995);
    expect(median(counters)).toBeGreaterThan(470);
    expect(median(counters)).toBeLessThan(530);
  });

  it('takes CHALLENGE_MAX_COUNTER, default 10000', () => {
    expect(resolveConfig({}).challengeMaxCounter).toBe(ALTCHA_DIFFICULTY.maxCounter);
    expect(ALTCHA_DIFFICULTY.maxCounter).toBe(10_000);
    expect(resolveConfig({ CHALLENGE_MAX_COUNTER: '5000' }).challengeMaxCounter).toBe(5000);
    for (const bad of ['0', '-1', '1e3', 'many']) expect(() => resolveConfig({ CHALLENGE_MAX_COUNTER: bad }), bad).toThrow(LoadoutError);
  });

  it('makes the configured server\'s challenges cost maxCounter / 2 attempts at the median with altcha-lib\'s solver', async () => {
    const config = { ...resolveConfig({ CHALLENGE_MAX_COUNTER: '60' }), challengeSecret: 'altcha-cost-test-key' };
    const verifier = resolveChallenge(config, makeTempDir('loadout-altcha-'));
    const issue = verifier.issue;
    if (issue === undefined) throw new Error('the ALTCHA verifier issues challenges');
    const attempts: number[] = [];
    for (let index = 0; index < 100; index += 1) {
      const challenge = (await issue(new Date())) as Challenge;
      const solution = await solveChallenge({ challenge, deriveKey });
      if (solution === null) throw new Error('no solution found');
      // Searching up from 0, the solver made counter + 1 attempts.
      attempts.push(solution.counter + 1);
    }
    expect(Math.max(...attempts)).toBeLessThanOrEqual(61);
    // 100 uniform counters over 0…60: none under 4 has a chance of about e^-7.
    expect(Math.min(...attempts)).toBeLessThanOrEqual(4);
    // The median of 100 such draws is 31 ± 3 (one standard deviation): allow four.
    expect(median(attempts)).toBeGreaterThanOrEqual(19);
    expect(median(attempts)).toBeLessThanOrEqual(43);
  });
});
