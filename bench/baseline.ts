/**
 * Whether a run of `bench/build.ts` measured its baseline on the disk the build ran on (issue 37:
 * the cold build at most 2x `cp -a` of its output, measured in one run).
 */

/**
 * How much more system time than the cold build the baseline may take and still be its
 * baseline. `cp -a` makes the same folders, files and links as the build, and nothing besides, so
 * its system time was 0.8 to 1.2 times the build's in every run on a steady disk
 * (docs/performance.md). Far above that, the disk was slower for the copy than for the build: in
 * the fourteenth session 88.6 s against the build's 24.7 s, on inode groups the benchmark's
 * previous run had just freed (ext4's `recently_deleted`, bench/build.ts), and the run printed a
 * ratio of 0.54x. Such a run's ratio says nothing of the build.
 */
export const BASELINE_SYSTEM_SLACK = 1.5;

/**
 * The verdict on the cold build's `ratio` to its baseline against `target`: `FAIL` over it;
 * `open` when the copy's system time (s) is more than {@link BASELINE_SYSTEM_SLACK} times the
 * build's (a baseline slowed by the disk, which can only flatter the ratio), with the reason to
 * print after the figures; else `pass`. Without system times (no /proc), the ratio alone decides.
 */
export function ratioVerdict(ratio: number, target: number, build: { system: number } | undefined, copy: { system: number } | undefined): { status: 'pass' | 'FAIL' | 'open'; reason: string } {
  if (ratio > target) return { status: 'FAIL', reason: '' };
  if (build !== undefined && copy !== undefined && copy.system > BASELINE_SYSTEM_SLACK * build.system) {
    return { status: 'open', reason: `; the copy took ${copy.system.toFixed(1)} s of system time against the build's ${build.system.toFixed(1)} s for the same entries: the disk was slower for the baseline, whose ratio then says nothing of the build; run again on a quiet disk` };
  }
  return { status: 'pass', reason: '' };
}
