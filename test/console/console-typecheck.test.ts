// The console's sources have their own tsconfig (DOM lib, bundler resolution), outside the root
// typecheck; vite strips types without checking them. This keeps them checked in the suite.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

it('console/ typechecks (tsc -p console)', async () => {
  const root = resolve(import.meta.dirname, '../..');
  const tsc = resolve(root, 'node_modules/.bin/tsc');
  const result = await promisify(execFile)(tsc, ['--noEmit', '-p', 'console'], { cwd: root }).then(
    () => ({ ok: true, output: '' }),
    (error: { stdout?: string; stderr?: string }) => ({
      ok: false,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
  expect(result.output).toBe('');
  expect(result.ok).toBe(true);
});
