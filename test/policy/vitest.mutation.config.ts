// The vitest configuration Stryker runs for `npm run test:mutation`: the policy suites only, in
// one fork (Stryker runs its own workers), so a mutant is judged by the tests written for it.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/policy/**/*.test.ts'],
    testTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
