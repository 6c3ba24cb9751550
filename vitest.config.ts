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
    // The JSON report feeds the "N passed, N failed" line that .ci/run prints.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
