// eslint (typescript-eslint) for the whole repository: `npm run lint`. The linters live in
// tools/lint/ with their own lockfile: typescript-eslint needs TypeScript's JS API (5.x), which
// the project's native typescript 7 compiler does not have. Style is prettier's (width 120).
import { createRequire } from 'node:module';
import importBoundaries from './tools/lint/rules/import-boundaries.js';

const require = createRequire(new URL('./tools/lint/package.json', import.meta.url));
const tseslint = require('typescript-eslint');
const root = import.meta.dirname;

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'build/**',
      'coverage/**',
      'reports/**',
      '.stryker-tmp/**',
      'tools/lint/node_modules/**',
      '.toolchain/**',
      'test-results/**',
    ],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    plugins: { brabo: { rules: { 'import-boundaries': importBoundaries } } },
    rules: {
      'brabo/import-boundaries': ['error', { root }],
      // Correctness checks that hold on this code base today; each one a real bug when it fires.
      'no-debugger': 'error',
      'no-dupe-keys': 'error',
      'no-duplicate-case': 'error',
      'no-self-assign': 'error',
      'no-unreachable': 'error',
      'no-unsafe-finally': 'error',
      'no-unsafe-negation': 'error',
      'no-sparse-arrays': 'error',
      'no-cond-assign': ['error', 'except-parens'],
      'no-constant-binary-expression': 'error',
      'no-unused-private-class-members': 'error',
      'use-isnan': 'error',
      'valid-typeof': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/no-misused-new': 'error',
      '@typescript-eslint/no-namespace': 'error',
      '@typescript-eslint/no-non-null-asserted-optional-chain': 'error',
      '@typescript-eslint/no-unsafe-declaration-merging': 'error',
      '@typescript-eslint/prefer-as-const': 'error',
    },
  },
);
