/** The build benchmark's verdict on its ratio to `cp -a` (bench/baseline.ts). */
import { describe, expect, it } from 'vitest';
import { BASELINE_SYSTEM_SLACK, ratioVerdict } from '../../bench/baseline.js';

describe('the verdict on the cold build against its baseline', () => {
  it('passes a ratio within the target when the copy spent about the build\'s system time', () => {
    expect(ratioVerdict(1.68, 2, { system: 22.6 }, { system: 27.8 })).toEqual({ status: 'pass', reason: '' });
    expect(ratioVerdict(2, 2, { system: 10 }, { system: 10 * BASELINE_SYSTEM_SLACK })).toEqual({ status: 'pass', reason: '' });
    expect(ratioVerdict(1.2, 2, undefined, undefined).status).toBe('pass');
  });

  it('fails a ratio over the target, whatever the disk did', () => {
    expect(ratioVerdict(2.05, 2, { system: 24.4 }, { system: 24.1 }).status).toBe('FAIL');
    expect(ratioVerdict(2.9, 2, { system: 12.3 }, { system: 40 }).status).toBe('FAIL');
  });

  it('leaves open a ratio whose baseline the disk slowed, and says why (the fourteenth session\'s run: 0.54x)', () => {
    const verdict = ratioVerdict(0.54, 2, { system: 24.7 }, { system: 88.6 });
    expect(verdict.status).toBe('open');
    expect(verdict.reason).toContain('88.6 s of system time against the build\'s 24.7 s');
  });
});
