import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The log capture: every test server's log, scanned for secrets at the end of the run (test/helpers/logs.ts).
    globalSetup: ['test/helpers/logs.global.ts'],
    // Under CI a JSON report as well, from which .ci/run prints its one-line summary.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: process.env.VITEST_JSON_REPORT ?? '.ci/results/vitest.json' },
  },
});
