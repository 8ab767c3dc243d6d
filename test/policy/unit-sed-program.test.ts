// sedProgramReaches(), construct by construct (issue 9 A.3/A.5): every row is first checked
// against GNU sed itself (`sed --sandbox` refuses exactly what writes, reads or runs), then against
// the reader. A row expecting false is a program GNU accepts or refuses as a syntax error (then
// sed runs nothing); a row expecting true is one GNU refuses as reaching.
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
  // commands that reach, at every kind of address
  ['w out', true],
  ['W out', true],
  ['r x', true],
  ['R x', true],
  ['e', true],
  ['e id', true],
  ['1w out', true],
  ['$w out', true],
  ['0~3w x', true],
  ['/x/w out', true],
  ['/x/I w out', true],
  ['/x/IM w out', true],
  ['\\%x%w out', true],
  ['\\%x\\%y%w out', true],
  ['/a\\/b/w out', true],
  ['/[/]/w out', true],
  ['/[]/]/w out', true],
  ['/[^]/]/w out', true],
  ['/[[:alpha:]/]/w out', true],
  ['1,3w out', true],
  ['1 , 3 w out', true],
  ['1,+2w out', true],
  ['1,~4w out', true],
  ['1,+w x', true],
  ['1,~w x', true],
  ['0,/x/w out', true],
  ['/a/,/b/w out', true],
  ['1,$w out', true],
  ['1!w out', true],
  ['1 ! w out', true],
  ['$!{$!N;w x\n}', true],
  // after every other command
  ...['=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F', 'q', 'Q', 'l', 'l 5', 'v', 'v 4.2'].map(
    (command): [string, boolean] => [`${command};w x`, true],
  ),
  [':a;w x', true],
  [': a;w x', true],
  [':a\nw x', true],
  ['b;w x', true],
  ['b end;w x', true],
  ['ba\nw x', true],
  ['t;w x', true],
  ['T x;w y', true],
  ['{w x\n}', true],
  ['{p;w x}', true],
  ['1{p};w x', true],
  ['p\nw x', true],
  ['  ;; w x', true],
  // s and y
  ['s/a/b/w out', true],
  ['s/a/b/gw out', true],
  ['s/a/b/ w out', true],
  ['s/a/b/ 2 w out', true],
  ['s/a/b/e', true],
  ['s/a/b/ge', true],
  ['s/a/b/;w x', true],
  ['s/a\\/b/c/w x', true],
  ['s/a/b\\/c/w x', true],
  ['s|a|b|w x', true],
  ['s,a,b,e', true],
  ['s/[/]/x/w f', true],
  ['s/[]/]/x/w f', true],
  ['y/abc/xyz/;w x', true],
  ['y/a\\/b/c\\/d/;w x', true],
  // nothing reaches
  ['', false],
  ['p', false],
  ['p;p', false],
  ['p\np', false],
  [' p ', false],
  [';;p;;', false],
  ['#n\np', false],
  ['# w x', false],
  ['p # w x', false],
  ['/start/,/end/p', false],
  ['/west/,/east/d', false],
  ['/^end/,$p', false],
  ['\\,/usr/e,p', false],
  ['s/a/b/', false],
  ['s/a/b/g', false],
  ['s/a/b/gp', false],
  ['s/a/b/2', false],
  ['s/a/b/I', false],
  ['s/a/b/M', false],
  ['s/a/b/m', false],
  ['s/a/b/ i', false],
  ['s/a/b/ ; p', false],
  ['s|/usr/local|/opt|g', false],
  ['s/\\(w\\)/e/g', false],
  ['y/abc/xyz/', false],
  ['y/ew/we/', false],
  ['a text; w x', false],
  ['a foo\\\nw x\np', false],
  ['i\\\nw x', false],
  ['c x;w y', false],
  [':a;N;$!ba;s/\\n/ /g', false],
  ['$!N;P;D', false],
  ['L', false],
  ['q5', false],
  ['{p}', false],
];

const SYNTAX_ERRORS: Array<[string, boolean]> = [
  ['s/a/b', true],
  ['s/a', true],
  ['s', true],
  ['s/a/[/]/w f', true],
  ['s/a/b/x', true],
  ['s/a/b/}', false],
  ['y/a/b', true],
  ['/[[:alpha:]/w out', true],
  ['/x', true],
  [':', true],
  ['p x', true],
  ['k', true],
  ['}', false],
  ['1,', true],
  ['1{p', false],
];

describe('issue 9 A.3/A.5 sedProgramReaches, construct by construct, as GNU sed reads it', () => {
  it.each(ROWS)('%j -> %s', (program, reaches) => {
    expect(gnu(program), 'GNU sed --sandbox').toBe(reaches ? 'reaches' : 'accepted');
    expect(sedProgramReaches(program)).toBe(reaches);
  });

  // Programs sed refuses run nothing. What the reader cannot follow reads as reaching (a click,
  // never a missed write); a few it reads to the end and finds nothing in.
  it.each(SYNTAX_ERRORS)('a syntax error %j -> %s', (program, reaches) => {
    expect(gnu(program), 'GNU sed --sandbox').toBe('syntax error');
    expect(sedProgramReaches(program)).toBe(reaches);
  });
});
