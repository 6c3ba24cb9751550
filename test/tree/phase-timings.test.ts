/** phaseTimings: one line of the phases in the order they ended when LOADOUT_BUILD_TIMINGS=1, nothing otherwise. */
import { describe, expect, it } from 'vitest';
import { phaseTimings } from '../../src/tree/phase-timings.js';

describe('phaseTimings', () => {
  it('writes one line of the phases as they ended, each with its time since the process started, once', () => {
    const lines: string[] = [];
    const timings = phaseTimings({ LOADOUT_BUILD_TIMINGS: '1' });
    timings.mark('listed');
    timings.mark('done');
    timings.report((line) => lines.push(line));
    timings.report((line) => lines.push(line));
    expect(lines).toHaveLength(1);
    const match = /^loadout build phases \(ms since the process started\): listed (\d+), done (\d+)\n$/u.exec(lines[0] ?? '');
    expect(match).not.toBeNull();
    expect(Number(match?.[2])).toBeGreaterThanOrEqual(Number(match?.[1]));
    expect(Number(match?.[2])).toBeLessThanOrEqual(Math.ceil(performance.now()));
  });

  it('keeps and writes nothing without the variable, or with another value', () => {
    for (const env of [{}, { LOADOUT_BUILD_TIMINGS: '0' }, { LOADOUT_BUILD_TIMINGS: 'yes' }]) {
      const lines: string[] = [];
      const timings = phaseTimings(env);
      timings.mark('listed');
      timings.report((line) => lines.push(line));
      expect(lines).toEqual([]);
    }
  });
});
