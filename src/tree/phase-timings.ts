/**
 * Where a build's time goes, phase by phase, for whoever measures it (`bench/build.ts`,
 * docs/performance.md): with `LOADOUT_BUILD_TIMINGS=1` in the environment, the build writes to
 * standard error one line as it ends, `loadout build phases (ms since the process started): …`,
 * each phase with the time it ended; without it, nothing is kept or written.
 */

/** The environment variable that asks for the phases. */
export const BUILD_TIMINGS_VARIABLE = 'LOADOUT_BUILD_TIMINGS';
/** What the line of phases starts with; the phases follow, `<phase> <ms>` separated by ", ". */
export const PHASES_LINE_START = 'loadout build phases (ms since the process started): ';

/** A build's phases as they end (see the module's comment); a no-op unless asked for in `env`. */
export interface PhaseTimings {
  /** Notes that `phase` ended now (`performance.now()`: ms since the process started). */
  mark(phase: string): void;
  /** Writes the line to `write` (standard error by default), once. */
  report(write?: (line: string) => void): void;
}

/** The phase timings of one build: recording when `env` has `LOADOUT_BUILD_TIMINGS=1`, else a no-op. */
export function phaseTimings(env: NodeJS.ProcessEnv = process.env): PhaseTimings {
  if (env[BUILD_TIMINGS_VARIABLE] !== '1') return { mark: () => undefined, report: () => undefined };
  const marks: [string, number][] = [];
  let reported = false;
  return {
    mark: (phase) => void marks.push([phase, performance.now()]),
    report(write = (line) => void process.stderr.write(line)) {
      if (reported) return;
      reported = true;
      write(`${PHASES_LINE_START}${marks.map(([phase, at]) => `${phase} ${Math.round(at)}`).join(', ')}\n`);
    },
  };
}
