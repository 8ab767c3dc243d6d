import { defineConfig } from 'vitest/config';

// `npm run test:dist`: the built packages, installed with npx as a user would (slow: npm installs).
export default defineConfig({
  test: {
    include: ['test/dist/**/*.test.ts'],
    // Builds and packs both packages once for every file.
    globalSetup: ['test/dist/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
    pool: 'forks',
    maxWorkers: 1,
    reporters: ['default'],
  },
});
