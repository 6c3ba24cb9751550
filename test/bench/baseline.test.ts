/** The build benchmark's verdict on its ratio to `cp -a` (bench/baseline.ts). */
import { describe, expect, it } from 'vitest';
import { BASELINE_SYSTEM_SLACK, ratioVerdict, type TimedStep } from '../../bench/baseline.js';

/** A timed step: wall seconds, user and system seconds. */
const step = (seconds: number, user: number, system: number): TimedStep => ({ seconds, used: { user, system } });

describe('the verdict on the cold build against its baseline', () => {
  it("passes a ratio within the target when the copy spent about the build's system time", () => {
    expect(ratioVerdict(step(52.03, 72.8, 22.6), step(31.03, 2.2, 27.8), 2, 2)).toEqual({ status: 'pass', reason: '' });
    expect(ratioVerdict(step(20, 20, 10), step(10, 1, 10 * BASELINE_SYSTEM_SLACK), 2, 2)).toEqual({ status: 'pass', reason: '' });
    expect(ratioVerdict({ seconds: 12, used: undefined }, { seconds: 10, used: undefined }, 2, 2).status).toBe('pass');
  });

  it('fails a ratio over the target when the disk was the same for both, or when the user time alone misses it', () => {
    // The fourteenth session's run 2: 2.05x on a steady disk.
    expect(ratioVerdict(step(52.57, 71.2, 24.4), step(25.64, 2.0, 24.1), 2, 2).status).toBe('FAIL');
    // The thirteenth session's quiet disk: the copy's system time was the lower, 2.90x.
    expect(ratioVerdict(step(37.6, 57.3, 12.3), step(12.95, 1.0, 10.1), 2, 2).status).toBe('FAIL');
    // This session's third run: the build's system time was inflated by the disk (69.0 s against
    // 26.5 s), but its user time alone over two cores, 60.65 s, is already over twice the copy's 30.26 s.
    expect(ratioVerdict(step(99.46, 121.3, 69.0), step(30.26, 2.4, 26.5), 2, 2).status).toBe('FAIL');
    expect(ratioVerdict({ seconds: 25, used: undefined }, { seconds: 10, used: undefined }, 2, 2).status).toBe('FAIL');
  });

  it("leaves open a ratio whose baseline the disk slowed, and says why (the fourteenth session's run: 0.54x)", () => {
    const verdict = ratioVerdict(step(51.03, 69.1, 24.7), step(94.49, 2.5, 88.6), 2, 2);
    expect(verdict.status).toBe('open');
    expect(verdict.reason).toContain("88.6 s of system time against the build's 24.7 s");
  });

  it('leaves open a ratio over the target whose build the disk slowed, when its user time alone would have met it', () => {
    const verdict = ratioVerdict(step(70, 60, 60), step(30, 2, 25), 2, 2);
    expect(verdict.status).toBe('open');
    expect(verdict.reason).toContain("60.0 s of system time against the copy's 25.0 s");
    expect(verdict.reason).toContain('1.00x the copy');
    // The same run with one core: the user time alone is 2x the copy's wall time, at the target, still open; more, and it fails.
    expect(ratioVerdict(step(70, 60, 60), step(30, 2, 25), 2, 1).status).toBe('open');
    expect(ratioVerdict(step(70, 61, 60), step(30, 2, 25), 2, 1).status).toBe('FAIL');
  });
});
