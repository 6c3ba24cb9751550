/**
 * Timing a text rule on pumped inputs (STYLE.md habit 14): `prefix + pump × n + suffix`, where
 * the pump repeats a part of a pattern that a backtracking engine could match in more than one
 * way, or the place where a match starts, and the suffix makes the match fail. A rule that runs
 * in linear time takes about four times as long on four times the input; a quadratic one
 * sixteen times, an exponential one never ends (the test's timeout). The time is the process's
 * CPU time, not the clock's: the outcome must not depend on the machine's speed nor on what else
 * runs on it (a loaded CI machine of two cores took 2 s of the clock for 0.4 s of work). Used by the safety rules' test
 * (test/verify/safety/linear-time.test.ts) and by the catalogue's and the layout's
 * (test/catalogue/linear-time.test.ts, test/layout/linear-time.test.ts).
 */

/** Bytes of the large input. */
export const LARGE = 100_000;
/** Largest ratio of the time at 4n to the time at n. */
export const RATIO = 12;
/** Times under this are noise: the ratio is taken against at least this many milliseconds. */
const FLOOR_MS = 5;

/** One attack string: `prefix + pump × n + suffix`. */
export interface TextPump {
  /** The pattern (or `generic`) it is derived from. */
  rule: string;
  prefix: string;
  pump: string;
  suffix: string;
}

/** Builds the pumps of one rule from `[prefix, pump, suffix]` triples. */
export const pumpsOf = (rule: string, ...triples: [string, string, string][]): TextPump[] => triples.map(([prefix, pump, suffix]) => ({ rule, prefix, pump, suffix }));

/** The pumped text at about `bytes` (at least one repetition). */
export function pumped(p: TextPump, bytes: number): string {
  return p.prefix + p.pump.repeat(Math.max(1, Math.floor(bytes / Math.max(1, p.pump.length)))) + p.suffix;
}

/** The time at n and at 4n, in milliseconds. */
export interface Growth {
  small: number;
  large: number;
}

/** The ratio of the time at 4n to the time at n, the latter taken as at least a few milliseconds. */
export const growthRatio = (t: Growth): number => t.large / Math.max(t.small, FLOOR_MS);

/**
 * The fastest of two runs at `LARGE / 4` and at `LARGE` bytes of `run` (given the size, it
 * returns the milliseconds of CPU time of one run), taken in turns so that a burst of load on
 * the machine slows both sizes alike. Up to three tries: a linear rule passes one of them, where
 * a super-linear one fails them all. A first run at 2,000 bytes compiles the expressions and
 * warms the code up.
 */
export function measureGrowth(run: (bytes: number) => number): Growth {
  run(2_000);
  let best: Growth = { small: Infinity, large: Infinity };
  for (let attempt = 0; attempt < 3; attempt++) {
    const times = { small: Infinity, large: Infinity };
    for (let i = 0; i < 2; i++) {
      times.small = Math.min(times.small, run(LARGE / 4));
      times.large = Math.min(times.large, run(LARGE));
    }
    if (attempt === 0 || growthRatio(times) < growthRatio(best)) best = times;
    if (growthRatio(best) < RATIO) break;
  }
  return best;
}

/**
 * Milliseconds of CPU time (user and system, `process.cpuUsage`) of one call of `work`, which
 * must be synchronous: vitest runs one test file at a time in each of its forked processes, so
 * the process's CPU is this work's (and its garbage collection's), whatever other processes take.
 */
export function timed(work: () => unknown): number {
  const start = process.cpuUsage();
  work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
