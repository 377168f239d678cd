import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const ci = process.env.CI === 'true';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time even on two cores: most of a file's time is spent waiting on its servers and stores,
    // and the default (cores - 1) would run them one by one (docs/testing.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The log capture: every test server's log, scanned for secrets at the end of the run (test/helpers/logs.ts).
    globalSetup: ['test/helpers/logs.global.ts'],
    // Under CI a JSON report, from which .ci/run prints its one-line summary, and a blob report, which keeps the
    // run's coverage until `npm run coverage` merges the runs on both stores.
    reporters: ci ? ['default', 'json', 'blob'] : ['default'],
    outputFile: {
      json: process.env.VITEST_JSON_REPORT ?? '.ci/results/vitest.json',
      blob: process.env.VITEST_BLOB_REPORT ?? '.ci/results/blobs/vitest.json',
    },
    coverage: {
      enabled: ci,
      provider: 'v8',
      include: ['src/**/*.ts'],
      exclude: ['src/contract/generated/**'],
      reporter: ['text-summary'],
      reportsDirectory: '.ci/results/coverage',
    },
  },
});
