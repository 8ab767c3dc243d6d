// The linear line reader (issue 9 A.7) reads every line the pre-pass emits exactly as
// shell-quote 1.12.0 did, so the engine's behaviour is unchanged while its cost stays linear.
import fc from 'fast-check';
import { parse } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { readLine } from '../../src/policy/line-reader.ts';
import { scanCommand } from '../../src/policy/shell-scan.ts';

const shellQuote = (line: string): unknown[] =>
  parse(line, (name) => `$${name}`).map((e) =>
    typeof e === 'object' && e !== null && 'op' in e && e.op === 'glob' ? (e as { pattern: string }).pattern : e,
  );

const RAW = [...'abc019-_./:=*?[]{}~!#$` \t\n&|;<>()', "'", '"', '\\', '$(', '${x}', '2>', '<<(', '>(', '\\\n'];

describe('line reader', () => {
  it('reads every pre-scanned line as shell-quote does (balanced lines)', () => {
    let generated = 0;
    let compared = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...RAW), { maxLength: 30 }), (parts) => {
        generated++;
        const scan = scanCommand(parts.join(''));
        if (scan.findings.some((f) => f.kind === 'unbalanced_quotes')) return;
        for (const line of scan.lines) {
          let expected: unknown[];
          try {
            expected = shellQuote(line);
          } catch {
            continue; // shell-quote throws on a few shapes (`${}`); the reader never does
          }
          compared++;
          expect(readLine(line), JSON.stringify(line)).toEqual(expected);
        }
      }),
      { numRuns: 3000 },
    );
    // Not vacuous: more lines compared than a third of the cases (1 000 of the 3 000 runs; the
    // mutation run caps the runs, test/policy/mutation/fast-check-capped.ts).
    expect(compared).toBeGreaterThan(generated / 3);
  });
  it('splits words, quotes and operators', () => {
    expect(readLine(`a 'b c' "d\\"e" f\\ g h''i && j >>k <<(l`)).toEqual([
      'a',
      'b c',
      'd"e',
      'f g',
      'hi',
      { op: '&&' },
      'j',
      { op: '>>' },
      'k',
      { op: '<' },
      { op: '<(' },
      'l',
    ]);
    expect(readLine(`"x\\qy" '' ""`)).toEqual(['x\\qy', '', '']);
  });
  it('never throws on any line', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (line) => void readLine(line)),
      { numRuns: 2000 },
    );
  });
});
