import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites share one Docker engine and one Postgres; files run in parallel
    // workers but each file owns its labels / schemas.
    pool: 'forks',
    reporters: ['default'],
  },
});
