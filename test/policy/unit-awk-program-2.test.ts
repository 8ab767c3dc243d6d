// awkProgramReaches(), the rows its Stryker survivors asked for (issue 9 A.3/A.5): each row makes
// one branch of the reader tell (a bracket expression in a regex, an escaped quote, a comment, a
// line continuation, `/` read as a regex or as division after each token, what starts or goes on
// a word, where a print statement ends, the parts of the blanked text). Rows gawk runs are
// asserted both ways, as in unit-awk-program.test.ts: the reader says true exactly when
// `gawk --sandbox` refuses the program. `print@f(x) > "f"` (gawk: print and an indirect call) was
// read as one word and missed a write: isWordPart no longer takes `@`.
import { describe, expect, it } from 'vitest';
import { awkProgramReaches } from '../../src/policy/awk-program.ts';
import { gawkSandbox } from './gawk-sandbox.ts';

function gawkRefuses(program: string): boolean {
  const { verdict, stderr } = gawkSandbox(program);
  if (verdict === 'error') throw new Error(`gawk could not run ${JSON.stringify(program)}: ${stderr}`);
  return verdict === 'reaches';
}

const ROWS: Array<[string, boolean]> = [
  // bracket expressions hide `/` in a regex, and only in a regex
  ['/[/]>/ { print }', false],
  ['/[]/]>/ { print }', false],
  ['/[^]/]>/ { print }', false],
  ['{ print "[" > "/dev/null"; x = "]" }', true],
  // an escaped quote does not close a string
  ['{ print "\\" > " }', false],
  // after a string or a regex, `/` divides
  ['{ x = "4" / 2; print x }', false],
  // a comment ends at the end of its line, and only what it holds is dropped
  ['{ n++ } # system("id")', false],
  ['# c\n{ print > "/dev/null" }', true],
  // a newline, `}` and `;` end a print statement
  ['{ print 1\n x = 2 > 1 }', false],
  ['{ print 1;\n x = 2 > 1 }', false],
  ['{ print 1 } NR > 0', false],
  // after `||`, `>`, `>=`, print, printf, return, `-`, a tab, `/` starts a regex
  ['$0 ~ /x/ || /system(1)/ { n++ }', false],
  ['NR > /a|b/ { n++ }', false],
  ['NR >= /a|b/ { n++ }', false],
  ['{ print /a|b/ }', false],
  ['{ printf /a|b/ }', false],
  ['function f() { return /a|b/ } { f() }', false],
  ['{ x = 4 - /a|b/ }', false],
  ['{ x = 4 + /a|b/ }', false],
  ['{ print\t/a|b/ }', false],
  // after `++` and `--`, `/` divides
  ['{ x = 4; print x++ / 2 }', false],
  ['{ x = 4; print x-- / 2 }', false],
  // a subscript does not hide a redirection: `[` and `]` count as parentheses do
  ['{ a[1] = 1; print a[1] > "/dev/null" }', true],
  // what makes a word: letters of both cases, `_` and digits go on one; `>` does not
  ['{ aprint = 2; x = aprint > 1 }', false],
  ['{ zprint = 2; x = zprint > 1 }', false],
  ['{ Aprint = 2; x = Aprint > 1 }', false],
  ['{ Zprint = 2; x = Zprint > 1 }', false],
  ['{ _print = 2; x = _print > 1 }', false],
  ['{ x0print = 2; y = x0print > 1 }', false],
  ['{ x9print = 2; y = x9print > 1 }', false],
  ['{ print> "/dev/null" }', true],
  // gawk reads `print@f(...)` as print and an indirect call: the redirection is print's
  ['BEGIN { f = "length"; print@f("ab") > "/dev/null" }', true],
  ['BEGIN { f = "length"; printf@f("ab") > "/dev/null" }', true],
  // close( is the name; a function named closer is not
  ['function closer(a) { return a } { closer(1) }', false],
];

// Names the reader asks for on purpose though gawk --sandbox runs them (see unit-awk-program).
const ASKED_ON_PURPOSE = [
  'ENVIRON["HOME"] != "" { n++ }', // the name starts the program
  'BEGIN { delete ARGV# c\n}', // the name ends the text before a comment
  '{ close ("/dev/null") }', // a space before the parenthesis
];

// Programs gawk rejects (a syntax error), so no row of theirs can be checked against it: they pin
// the reader's reading alone. Each is safe either way, as gawk runs none of them.
const READER_ONLY: Array<[string, boolean]> = [
  ['/a\n{ n++ }', true], // a newline in a regex: unterminated
  ['{ x = "a\n1 }', true], // a newline in a string: unterminated
  ['/[a\n/ { print > "/dev/null" } ]/', true], // a bracket expression ends at a newline
  ['{ print 1 \\> "/dev/null" }', true], // a backslash not before a newline continues nothing
  ['BEGIN { x = 1 >> 2 }', true], // only a redirection is spelled >>
  ['BEGIN { x = 1) > 0 }', false], // outside print, an unbalanced `)` does not make `>` one
  ['BEGIN { x = (print 1) + (2 > 0) }', false], // print ended with its parenthesis
  ['BEGIN { printf { x = 2 > 1 } }', false], // `{` ends a print statement
  ['{ x = 1 in /a|b/ }', false], // after `in`, `/` starts a regex
];

describe('issue 9 A.3/A.5 awkProgramReaches, the branches its mutants asked for', () => {
  it.each(ROWS)('%j -> %s (as gawk --sandbox)', (program, reaches) => {
    expect(gawkRefuses(program), 'gawk --sandbox').toBe(reaches);
    expect(awkProgramReaches(program)).toBe(reaches);
  });

  it.each(ASKED_ON_PURPOSE)('%j reads the environment or the files read: it asks', (program) => {
    expect(gawkRefuses(program), 'gawk --sandbox').toBe(false);
    expect(awkProgramReaches(program)).toBe(true);
  });

  it.each(READER_ONLY)('%j -> %s (gawk rejects it: the reader alone)', (program, reaches) => {
    expect(gawkSandbox(program).verdict, 'gawk rejects it').toBe('error');
    expect(awkProgramReaches(program)).toBe(reaches);
  });

  it('a bracket expression that never closes is unterminated, and the read ends', () => {
    expect(awkProgramReaches('BEGIN { x = /[a }')).toBe(true);
  });
});
