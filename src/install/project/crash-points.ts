/**
 * The checkpoints of a change to a project, for the install crash test
 * (`test/install/install-crash.test.ts`): one after each step of `transaction.ts` that changes
 * the disk (the journal written, each folder made, the temporary files written, each rename or
 * removal, the journal removed). When the environment variable `LOADOUT_CRASH_AT` is N, the
 * N-th checkpoint kills the process with SIGKILL, as the build's do (`tree/write/crash-points.ts`,
 * which the consumer CLI may not import). Off otherwise (one comparison each).
 */

const CRASH_AT = Number(process.env['LOADOUT_CRASH_AT'] ?? 0);
let passed = 0;

/** Passes one checkpoint (see the module comment). */
export function checkpoint(): void {
  passed++;
  if (CRASH_AT > 0 && passed >= CRASH_AT) process.kill(process.pid, 'SIGKILL');
}

/** Checkpoints passed so far by the process. */
export const checkpointsPassed = (): number => passed;
