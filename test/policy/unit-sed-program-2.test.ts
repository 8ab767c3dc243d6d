// sedProgramReaches(), second table (issue 9 A.3/A.5): rows chosen from the Stryker survivors of
// src/policy/sed-program.ts, so that each one tells a plausible misreading of the program from the
// right one (the PLAIN commands one by one, b/t/T/q with and without a label or count, blanks after
// `}`, `$`, `~` and in `1 ~2`, the M address flag, y and s parts that must not read brackets as the
// regex part does, bracket expressions with [: [. [= inside, a newline as a delimiter, a/i/c text
// that ends at the newline, addresses with 0 and 9). As in unit-sed-program.test.ts every row is
// first held to GNU sed itself (`sed --sandbox -n -e PROGRAM` on empty input: it refuses exactly
// what writes, reads or runs), then to the reader, so the table stays true to GNU sed. A program
// GNU rejects as a syntax error runs nothing; the reader must still read it as reaching (fail
// closed), so a mutant that reads past the error and finds nothing is caught.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sedProgramReaches } from '../../src/policy/sed-program.ts';

function gnu(program: string): 'reaches' | 'accepted' | 'syntax error' {
  try {
    execFileSync('sed', ['--sandbox', '-n', '-e', program], { input: '', stdio: ['pipe', 'pipe', 'pipe'] });
    return 'accepted';
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '');
    return stderr.includes('disabled in sandbox mode') ? 'reaches' : 'syntax error';
  }
}

const ROWS: Array<[string, boolean]> = [
  // every command without an argument, alone (not only before `;w x`)
  ...['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F'].map((c): [string, boolean] => [c, false]),
  // branches, alone and to a label that exists (the label is not a command)
  ['b', false],
  ['t', false],
  ['T', false],
  [':end\nb end', false],
  [':end\nt end', false],
  [':a;ba', false],
  [':a;T a', false],
  ['b;p', false],
  [':\tp', false],
  // q/Q/l/L with a count, blanks before it
  ['q', false],
  ['Q', false],
  ['q 5', false],
  ['Q 3', false],
  ['l 5', false],
  // blanks after `}` and after an address
  ['{p} ', false],
  ['{p} ;p', false],
  ['$ p', false],
  ['$ ,3p', false],
  ['$!p', false],
  ['1,$ p', false],
  ['1,+2 p', false],
  ['1,~4 p', false],
  ['1,$ w x', true],
  // steps: first~step, blanks on either side of ~
  ['1~2p', false],
  ['1 ~2p', false],
  ['1~ 2p', false],
  ['2~3 p', false],
  ['1~2w x', true],
  ['1 ~ 2 w x', true],
  // line numbers with 0 and 9
  ['0,/x/p', false],
  ['10p', false],
  ['9p', false],
  ['90,99p', false],
  ['9w x', true],
  ['10w x', true],
  // regex addresses: an escaped or bracketed delimiter, the M flag
  ['/[/]/p', false],
  ['/\\//p', false],
  ['/x/Mp', false],
  ['/x/M p', false],
  ['/x/MI p', false],
  ['/x/M w y', true],
  // y reads no bracket expressions
  ['y/[/x/', false],
  ['y/a/[/', false],
  ['y/[/]/;w x', true],
  // s: brackets in the regex hide the delimiter, not in the replacement
  ['s/[/]/x/', false],
  ['s/a/[/', false],
  ['s/a/[/w x', true],
  ['s/a/b/;p', false],
  // bracket expressions
  ['s/[a:]/x/', false],
  ['s/[ab]/x/', false],
  ['s/[[a]/x/', false],
  ['s/[[.].]/]/x/', false],
  ['s/[[=]=]/]/x/', false],
  ['s/[[:alpha:]/]/x/', false],
  ['s/[[.].]/]/x/w f', true],
  ['s/[[=]=]/]/x/e', true],
  // a/i/c text ends at the newline, a backslash escapes one character
  ['a foo\nw x', true],
  ['a xy\nw x', true],
  ['i xyz\nw x', true],
  ['c x\\\\\nw x', true],
  ['a foo\np', false],
];

const SYNTAX_ERRORS: string[] = [
  '{p}p',
  '{p}w x',
  ': ;p',
  's\na\nb\n',
  'y\na\nb\n',
  '\\\np',
  '\\\nw x',
  's/[[:/g',
  's/[[:a/]/x/',
  's/[[.a/]/x/',
  's/[[=a/]/x/',
  's/[[:]/]/x/',
  '/[[:a/]p',
  ',1p',
  ',/x/p',
];

describe('issue 9 A.3/A.5 sedProgramReaches, second table (mutation survivors), as GNU sed reads it', () => {
  it.each(ROWS)('%j -> %s', (program, reaches) => {
    expect(gnu(program), 'GNU sed --sandbox').toBe(reaches ? 'reaches' : 'accepted');
    expect(sedProgramReaches(program)).toBe(reaches);
  });

  it.each(SYNTAX_ERRORS)('a syntax error %j reads as reaching (fail closed)', (program) => {
    expect(gnu(program), 'GNU sed --sandbox').toBe('syntax error');
    expect(sedProgramReaches(program)).toBe(true);
  });
});
