// The line reader (issue 9 A.7) against two independent readings: shell-quote 1.12.0 (which it
// replaces, so every line must read the same) and JavaScript's own \s (what shell-quote splits
// words on). The pre-pass has escaped `$`, `#`, `{`, `}` before a line gets here, so the alphabet
// below has those only escaped.
import fc from 'fast-check';
import { parse } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { operatorAt, readLine } from '../../src/policy/line-reader.ts';

const shellQuote = (line: string): unknown[] =>
  parse(line, (name) => `$${name}`).map((e) =>
    typeof e === 'object' && e !== null && 'op' in e && e.op === 'glob' ? (e as { pattern: string }).pattern : e,
  );

// Every blank JavaScript's \s matches, and the code units right around them that are not blanks.
const BLANKS = [...'\t\n\u000b\u000c\r ', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a', '\u2028', '\u2029'];
const MORE_BLANKS = ['\u202f', '\u205f', '\u3000', '\ufeff'];
const NOT_BLANKS = ['\u0008', '\u000e', '\u001f', '!', '\u0085', '\u009f', '\u00a1', '\u167f', '\u1fff', '\u200b'];
const NEAR = ['\u2027', '\u202a', '\u202e', '\u2030', '\u205e', '\u2060', '\u2fff', '\u3001', '\ufefe', '\uffff'];
const WORDS = [...'ab09-_./:=*?[]~!%@,+', '\\$', '\\#', '\\{', '\\}', 'é'];
const ESCAPES = ['\\"', "\\'", '\\\\', '\\a', '\\ ', '\\\t'];
const BARE = [...BLANKS, ...MORE_BLANKS, ...NOT_BLANKS, ...NEAR, ...WORDS, ...'&|;<>()', ...ESCAPES];
// Quotes come in pairs (the pre-pass closes an unbalanced one before the reader sees it).
const INSIDE = [...BLANKS, ...NOT_BLANKS, ...WORDS, ...'&|;<>()', ...ESCAPES];
const piece = fc.oneof(
  fc.constantFrom(...BARE),
  fc.array(fc.constantFrom(...INSIDE, '"'), { maxLength: 4 }).map((p) => `'${p.join('').replaceAll("'", '')}'`),
  fc.array(fc.constantFrom(...INSIDE, "'"), { maxLength: 4 }).map((p) => `"${p.join('')}"`),
);

describe('line reader: reads any line as shell-quote 1.12.0 does', () => {
  it('words, every kind of blank, escapes before blanks, quotes and operators', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (parts) => {
        const line = parts.join('');
        expect(readLine(line), JSON.stringify(line)).toEqual(shellQuote(line));
      }),
      { numRuns: 3000 },
    );
  });
  it.each([
    ...[...BLANKS, ...MORE_BLANKS].map((b) => `a\\${b}b`),
    ...[...BLANKS, ...MORE_BLANKS].map((b) => `"a\\${b}b"`),
    ...NOT_BLANKS.map((c) => `a\\${c}b`),
    "'abc",
    '"abc',
    '"a\\',
    'a\\',
    '\\',
    "''",
    '""',
    'a"b\\$c\\\\d\\"e\\xf"g',
    `a'b'"c"d`,
    `'a"b' "c'd"`,
    '"a b"c\'d e\'',
  ])('%j', (line) => {
    expect(readLine(line)).toEqual(shellQuote(line));
  });
});

describe('line reader: a word splits exactly on what JavaScript\u2019s \\s matches', () => {
  it('every UTF-16 code unit between two letters', () => {
    const wrong: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      if ('&|;<>()\'"\\'.includes(c)) continue;
      const expected = /\s/.test(c) ? ['a', 'b'] : [`a${c}b`];
      if (JSON.stringify(readLine(`a${c}b`)) !== JSON.stringify(expected)) wrong.push(code.toString(16));
    }
    expect(wrong).toEqual([]);
  });
});

describe('line reader: operators, longest first', () => {
  it.each([
    ['|', '|'],
    ['||', '||'],
    ['|&', '|&'],
    ['|x', '|'],
    ['&', '&'],
    ['&&', '&&'],
    ['&>', '&>'],
    ['&>>', '&>>'],
    ['&>|', '&>'],
    [';', ';'],
    [';;', ';;'],
    [';;&', ';;&'],
    [';;;', ';;'],
    [';&', ';&'],
    [';|', ';'],
    ['>', '>'],
    ['>>', '>>'],
    ['>&', '>&'],
    ['>|', '>|'],
    ['>(', '>('],
    ['>x', '>'],
    ['<', '<'],
    ['<(', '<('],
    ['<<', '<<'],
    ['<<<', '<<<'],
    ['<<-', '<<-'],
    ['<<(', '<'],
    ['<<x', '<<'],
    ['<&', '<&'],
    ['<>', '<>'],
    ['<|', '<'],
    ['(', '('],
    [')', ')'],
  ])('operatorAt(%j, 0) is %j', (line, op) => {
    expect(operatorAt(line, 0)).toBe(op);
    expect(operatorAt(`x${line}`, 1)).toBe(op);
    // shell-quote reads the same operator there.
    expect(shellQuote(`x${line}`)[1]).toEqual({ op });
  });
  it('a line made of operators reads as their sequence', () => {
    expect(readLine('a|&b;;&c<<<d<<-e&>>f')).toEqual([
      'a',
      { op: '|&' },
      'b',
      { op: ';;&' },
      'c',
      { op: '<<<' },
      'd',
      { op: '<<-' },
      'e',
      { op: '&>>' },
      'f',
    ]);
  });
});
