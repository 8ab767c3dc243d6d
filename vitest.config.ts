import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites share one Docker engine and one Postgres; files run in parallel
    // workers but each file owns its labels / schemas.
    pool: 'forks',
    // Two workers on these 2-core machines: the suite takes about half the time of one worker
    // (102 s vs 221 s measured), and that time goes to the chaos suite (test/chaos).
    maxWorkers: 2,
    reporters: ['default'],
  },
});
