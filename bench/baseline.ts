/**
 * Whether a run of `bench/build.ts` measured its baseline on the disk the build ran on (issue 37:
 * the cold build at most 2x `cp -a` of its output, measured in one run).
 */

/**
 * How much more system time than the other the build or its baseline may take and still be
 * measured on the same disk. `cp -a` makes the same folders, files and links as the build, and
 * nothing besides, so its system time was 0.8 to 1.2 times the build's in every run on a steady
 * disk (docs/performance.md). Far from that, the disk was slower for one of the two: in the
 * fourteenth session the copy took 88.6 s against the build's 24.7 s, on inode groups the
 * benchmark's previous run had just freed (ext4's `recently_deleted`, bench/build.ts), and the run
 * printed a ratio of 0.54x; in the fifteenth, the build took 69.0 s against the copy's 26.5 s, four
 * minutes after another run's deletion. Such a run's ratio says nothing of the build.
 */
export const BASELINE_SYSTEM_SLACK = 1.5;

/** A timed step of the benchmark: wall-clock seconds, and its processes' user and system seconds (undefined without /proc). */
export interface TimedStep {
  seconds: number;
  used: { user: number; system: number } | undefined;
}

/**
 * The verdict on the cold build's ratio to its baseline (`build.seconds / copy.seconds`) against
 * `target`, both measured in one run, and the reason to print after the figures when the run
 * cannot say:
 * - over the target, `FAIL`; but `open` when the build took more than
 *   {@link BASELINE_SYSTEM_SLACK} times the copy's system time for the same entries (the disk was
 *   slower for the build) and its user time alone, spread over `cores`, would have stayed within
 *   the target: then the disk, not the build, decided. When even that floor is over the target,
 *   no disk could have saved the run, and it fails;
 * - within the target, `pass`; but `open` when the copy took more than
 *   {@link BASELINE_SYSTEM_SLACK} times the build's system time (a baseline slowed by the disk,
 *   which can only flatter the ratio).
 * Without system times (no /proc), the ratio alone decides.
 */
export function ratioVerdict(build: TimedStep, copy: TimedStep, target: number, cores: number): { status: 'pass' | 'FAIL' | 'open'; reason: string } {
  const ratio = build.seconds / copy.seconds;
  const b = build.used;
  const c = copy.used;
  if (ratio > target) {
    const floor = b === undefined ? Infinity : b.user / cores / copy.seconds;
    if (b !== undefined && c !== undefined && b.system > BASELINE_SYSTEM_SLACK * c.system && floor <= target) {
      return { status: 'open', reason: `; the build took ${b.system.toFixed(1)} s of system time against the copy's ${c.system.toFixed(1)} s for the same entries, and its user time alone over ${cores} cores is ${floor.toFixed(2)}x the copy: the disk was slower for the build, and the run says nothing of it; run again on a quiet disk` };
    }
    return { status: 'FAIL', reason: '' };
  }
  if (b !== undefined && c !== undefined && c.system > BASELINE_SYSTEM_SLACK * b.system) {
    return { status: 'open', reason: `; the copy took ${c.system.toFixed(1)} s of system time against the build's ${b.system.toFixed(1)} s for the same entries: the disk was slower for the baseline, whose ratio then says nothing of the build; run again on a quiet disk` };
  }
  return { status: 'pass', reason: '' };
}
