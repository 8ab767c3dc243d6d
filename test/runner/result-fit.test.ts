// What the runner sends always fits the frame: any stdout/stderr (ASCII, control characters that
// JSON escapes six-fold, multi-byte and astral characters) is cut to the budget, keeps a prefix of
// each stream, and says `truncated`; a result that fits is sent as it is.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Result } from '../../runner-protocol/index.ts';
import { fitResult, RESULT_FRAME_BUDGET } from '../../src/runner/result-fit.ts';

const size = (r: Result): number => Buffer.byteLength(JSON.stringify(r), 'utf8');
const text = fc.oneof(
  fc.string({ maxLength: 3000 }),
  fc.string({ unit: 'grapheme', maxLength: 3000 }),
  fc.string({ unit: fc.constantFrom('\u0001', '"', '\\', '\n', 'é', '😀', 'a'), maxLength: 5000 }),
);

describe('fitResult', () => {
  it('property: the fitted result is within the budget, keeps prefixes, and is marked truncated when cut', () => {
    fc.assert(
      fc.property(text, text, fc.integer({ min: 600, max: 20_000 }), (stdout, stderr, budget) => {
        const result: Result = { dispatchId: 'd', attempt: 1, status: 'executed', exitCode: 0, stdout, stderr };
        const fitted = fitResult(result, budget);
        expect(size(fitted)).toBeLessThanOrEqual(budget);
        expect(stdout.startsWith(fitted.stdout ?? '')).toBe(true);
        expect(stderr.startsWith(fitted.stderr ?? '')).toBe(true);
        if (fitted !== result) expect(fitted.truncated).toBe(true);
        else expect(size(result)).toBeLessThanOrEqual(budget);
        expect(fitted.exitCode).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('a 4 MiB output of control characters (6 bytes each in JSON) fits the default frame budget', () => {
    const result: Result = {
      dispatchId: 'd',
      attempt: 2,
      status: 'failed',
      exitCode: 1,
      stdout: '\u0001'.repeat(4 * 1024 * 1024),
      stderr: 'e'.repeat(2 * 1024 * 1024),
      reason: { code: 'command_timeout', message: 'timed out' },
    };
    const fitted = fitResult(result);
    expect(size(fitted)).toBeLessThanOrEqual(RESULT_FRAME_BUDGET);
    expect(size(fitted)).toBeGreaterThan(RESULT_FRAME_BUDGET * 0.9); // cut to fit, not emptied
    expect(fitted).toMatchObject({ truncated: true, reason: { code: 'command_timeout' }, attempt: 2 });
  });

  it('a result that fits is returned unchanged', () => {
    const result: Result = { dispatchId: 'd', attempt: 1, status: 'executed', exitCode: 0, stdout: 'ok\n' };
    expect(fitResult(result)).toBe(result);
  });
});
