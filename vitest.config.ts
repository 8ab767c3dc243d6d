import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites share one Docker engine and one Postgres; files run in parallel
    // workers but each file owns its labels / schemas.
    pool: 'forks',
    // Two workers on these 2-core machines: the suite takes about half the time of one worker
    // (102 s vs 221 s measured), and that time goes to the chaos suite (test/chaos).
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      // Every suite, on the embedded SQLite store. The packages' tests (npm installs) run in
      // `npm run test:dist` (vitest.dist.config.ts).
      {
        extends: true,
        test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, 'test/dist/**'] },
      },
      // The http, execution and e2e suites once more on Postgres (test/support/store-mode.ts):
      // every app, server and store they open gets a fresh schema on 127.0.0.1:5432/test.
      // test/execution/outcomes.test.ts already runs on both stores itself.
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['test/http/**/*.test.ts', 'test/execution/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          exclude: ['test/execution/outcomes.test.ts'],
          env: { BRABO_TEST_STORE: 'postgres' },
        },
      },
    ],
  },
});
