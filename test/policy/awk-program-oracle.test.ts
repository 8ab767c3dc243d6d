// awkProgramReaches() against gawk itself: `gawk --sandbox` refuses, when it runs them, output
// redirections of print/printf, pipes (`|`, `|&`), `getline < file`, `"cmd" | getline` and
// system(). Generated programs run every statement on one input line, so each such construct is
// met; they mix comparisons in patterns and parentheses, `>=`, `||`, strings and regexes holding
// `>` and `|`, and division. Whenever gawk refuses one, the reader must say it reaches (a miss
// would auto-approve a write or a command); whenever gawk runs it, the reader must not (issue 9
// A.5: `awk 'NR > 1' f` and `awk '/x/ || /y/' f` are plain text tools).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { awkProgramReaches } from '../../src/policy/awk-program.ts';
import { gawkSandbox, type GawkVerdict } from './gawk-sandbox.ts';

type Gawk = GawkVerdict;

function gawk(program: string): Gawk {
  return gawkSandbox(program).verdict;
}

const pick = <T>(...values: T[]) => fc.constantFrom(...values);
const valueArb = pick('$1', '$2', 'NR', '1', '"x > y"', '"a|b"', 'length($0)', '(NR > 0)', '(1 >= 2)', '$2 / 2');
const conditionArb = fc
  .tuple(valueArb, pick(' > ', '>', ' >= ', ' < ', ' == ', ' ~ ', ' || ', ' && '), valueArb)
  .map(([a, op, b]) => (op === ' ~ ' ? `${a} ~ /[|>]x/` : `${a}${op}${b}`));
const statementArb = fc.oneof(
  fc.array(valueArb, { minLength: 1, maxLength: 2 }).map((vs) => `print ${vs.join(', ')}`),
  conditionArb.map((c) => `print (${c})`),
  conditionArb.map((c) => `x = ${c}`),
  conditionArb.map((c) => `if (${c}) y = 1`),
  valueArb.map((v) => `printf("%s\\n", ${v})`),
  pick(
    'print > "/dev/null"',
    'print $1 >> "/dev/null"',
    'printf("%s", $1) > "/dev/null"',
    'print $1 | "cat >/dev/null"',
    'print 1 |& "cat"',
    '"echo hi" | getline v',
    'getline v < "/dev/null"',
    'system("true")',
    'print (1 > 0) > "/dev/null"',
    'print 1, 2 > "/dev/null"',
    'print 1 \\\n> "/dev/null"',
    'z = 4 /2/ 1',
    'w = "print > x"',
    'if ($0 ~ /a|b/) q = 1',
  ),
);
const programArb = fc
  .tuple(
    pick('', 'NR > 0 ', '$2 >= 1 ', '/a|b/ ', '/x/ || /a/ ', 'NR == 1 && $1 > "" ', '(NR > 0) || 0 '),
    fc.array(statementArb, { minLength: 1, maxLength: 3 }),
    pick('; ', '\n'),
  )
  .map(([pattern, statements, separator]) => `${pattern}{ ${statements.join(separator)} }`);

describe('issue 9 A.3/A.5: the awk reader agrees with gawk --sandbox', () => {
  it('on generated programs: everything gawk refuses is seen, nothing it runs is', () => {
    let reaching = 0;
    let ran = 0;
    let total = 0;
    fc.assert(
      fc.property(programArb, (program) => {
        const oracle = gawk(program);
        total++;
        if (oracle === 'reaches') reaching++;
        if (oracle === 'ran') ran++;
        if (oracle === 'error') return;
        expect(awkProgramReaches(program), JSON.stringify(program)).toBe(oracle === 'reaches');
      }),
      { numRuns: 250 },
    );
    // Both kinds must be met, or the property shows nothing.
    expect(reaching / total).toBeGreaterThan(0.15);
    expect(ran / total).toBeGreaterThan(0.15);
  });

  it.each([
    ['NR > 1', false],
    ['$3 > 100 { print $1 }', false],
    ['length($0) > 80', false],
    ['/x/ || /y/', false],
    ['{ print (a > b) }', false],
    ['{ print a >= 1 }', false],
    ['{ print "a > b | c" }', false],
    ['{ print > "out" }', true],
    ['{ print $1 | "sh" }', true],
    ['{ printf("%d", 1) > "f" }', true],
    ['{ "date" | getline d; print d }', true],
    ['BEGIN { system("id") }', true],
    ['{ print 1 \\\n> "f" }', true],
  ])('%j: reaches is %s, as gawk says', (program, reaches) => {
    expect(gawk(program)).toBe(reaches ? 'reaches' : 'ran');
    expect(awkProgramReaches(program)).toBe(reaches);
  });
});
