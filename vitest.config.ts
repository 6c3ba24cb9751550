import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A fork for every core: a test file spends much of its time waiting on the processes,
    // servers and git it starts, and vitest's default, one fork fewer than the cores, ran one
    // file at a time on a machine of two (627 s for the suite; 362 s with two forks).
    maxWorkers: availableParallelism(),
    // Each fork runs test file after test file with the modules it loaded kept: a fresh process
    // for every file spent 140 s of the suite's 715 s here loading the same modules again
    // (vitest's "collect"), and 28 s starting forks. So a test must not depend on a module's
    // state being new: it passes what it watches as an argument (server/idle-memory.test.ts),
    // and runs the CLI in a child for what a process takes once (the build threads' environment,
    // verify/budget.test.ts).
    isolate: false,
    // The local PostgreSQL, when it answers and TEST_DATABASE_URL is unset (test/run/postgres-probe.ts).
    globalSetup: ['test/run/global-setup.ts'],
    // A turn of the event loop after each test, so that the worker reads the main process's
    // answers however long a file of synchronous tests runs (test/run/event-loop-turn.ts).
    setupFiles: ['test/run/event-loop-turn.ts'],
    // The JSON report feeds the "N passed, N failed" line that .ci/run prints; the last lines say
    // which tests were skipped, why, and how to run them (test/run/skipped-reporter.ts).
    reporters: ['default', 'json', './test/run/skipped-reporter.ts'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
