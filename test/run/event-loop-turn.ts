/**
 * A setup file of every test file (vitest `setupFiles`): after each test, one turn of the event
 * loop. vitest's worker reports test results to the main process over IPC with a 60 s timeout
 * (birpc's default) measured by a timer; between two tests it awaits only promises, so a file of
 * many synchronous tests (the linear-time tests: 112 of them, 90 s on a loaded machine of two
 * cores) never lets the worker read the main process's answers, and once it does, the timers
 * fire first: "[vitest-worker]: Timeout calling onTaskUpdate", an unhandled error that fails the
 * run although every test passed. A `setImmediate` after each test lets the answers in.
 */
import { afterEach } from 'vitest';

afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)));
