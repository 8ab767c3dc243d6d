// The vitest configuration Stryker runs for `npm run test:mutation`: the policy suites only, in
// one fork (Stryker runs its own workers), so a mutant is judged by the tests written for it.
//
// Two things make a mutant cheap to judge here without changing what `npm test` checks:
// - isolate: false: Stryker starts a fresh fork for every mutant anyway, so the files of one
//   mutant's run share that fork and the policy engine is imported once per mutant instead of
//   once per test file (40 spawns and imports were most of a mutant's time).
// - 'fast-check' resolves to mutation/fast-check-capped.ts, which caps each property's runs.
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vitest/config';

const CAPPED_FAST_CHECK = fileURLToPath(new URL('./mutation/fast-check-capped.ts', import.meta.url));

/** Test files get the capped fast-check; the capped module itself gets the real one. */
function cappedFastCheck(): Plugin {
  return {
    name: 'policy-mutation-capped-fast-check',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'fast-check' || importer === undefined) return null;
      if (importer.split('?')[0] === CAPPED_FAST_CHECK) return null;
      return CAPPED_FAST_CHECK;
    },
  };
}

export default defineConfig({
  plugins: [cappedFastCheck()],
  test: {
    include: ['test/policy/**/*.test.ts'],
    testTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 1,
    isolate: false,
  },
});
