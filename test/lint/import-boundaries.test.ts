// The import boundaries as the linter enforces them (eslint rule brabo/import-boundaries), tried
// on sources given on stdin under each layer's file name: what each layer may and may not import.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const ESLINT = resolve(ROOT, 'tools/lint/node_modules/.bin/eslint');

interface LintResult {
  messages: Array<{ ruleId: string | null; message: string }>;
}
let eslint: { lintText(code: string, options: { filePath: string }): Promise<LintResult[]> };

beforeAll(() => {
  if (!existsSync(ESLINT))
    execFileSync('npm', ['ci', '--prefix', 'tools/lint', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  // The ESLint API from tools/lint, with the repository's eslint.config.js: one process, one config load.
  const { ESLint } = createRequire(resolve(ROOT, 'tools/lint/package.json'))('eslint') as {
    ESLint: new (options: { cwd: string }) => typeof eslint;
  };
  eslint = new ESLint({ cwd: ROOT });
}, 300_000);

/** The boundary messages eslint reports for `source` as if it were the file `file`. */
async function boundaryErrors(file: string, source: string): Promise<string[]> {
  const [report] = await eslint.lintText(source, { filePath: resolve(ROOT, file) });
  return (report?.messages ?? []).filter((m) => m.ruleId === 'brabo/import-boundaries').map((m) => m.message);
}

describe('brabo/import-boundaries', () => {
  it.each([
    ["import { z } from 'zod';", 0],
    ["import { parse } from 'shell-quote';", 0],
    ["import { decide } from './decide.ts';", 0],
    ["import { readFileSync } from 'node:fs';", 1],
    ["import pino from 'pino';", 1],
    ["import type { Store } from '../store/types.ts';", 1],
    ["export { x } from '../actions/index.ts';", 1],
    ["const m = await import('../http/server.ts');", 1],
  ])('src/policy: %s -> %i error(s)', async (source, count) => {
    expect(await boundaryErrors('src/policy/probe.ts', source)).toHaveLength(count);
  });

  it.each(['gateway/probe.ts', 'broker/probe.ts', 'runner-protocol/probe.ts'])(
    '%s imports nothing from src/',
    async (file) => {
      expect(await boundaryErrors(file, "import { decide } from '../src/policy/index.ts';")).toHaveLength(1);
      expect(await boundaryErrors(file, "import type { Logger } from '../src/logger.ts';")).toHaveLength(1);
      expect(
        await boundaryErrors(
          file,
          "import WebSocket from 'ws';\nimport { RUNNER_EVENTS } from '../runner-protocol/index.ts';",
        ),
      ).toEqual([]);
    },
  );

  it.each([
    ['src/actions/probe.ts', "import type { Role } from '../policy/types.ts';", 1],
    ['src/actions/probe.ts', "import { decide } from '../policy/decide.ts';", 1],
    ['src/actions/probe.ts', "import { decide, type Role } from '../policy/index.ts';", 0],
    ['test/http/probe.test.ts', "import { tokenize } from '../../src/policy/tokenizer.ts';", 1],
    ['test/policy/probe.test.ts', "import { tokenize } from '../../src/policy/tokenizer.ts';", 0],
    ['bench/policy.bench.ts', "import { tokenize } from '../src/policy/tokenizer.ts';", 0],
  ])('%s: %s -> %i error(s)', async (file, source, count) => {
    expect(await boundaryErrors(file, source)).toHaveLength(count);
  });
});
