// awkProgramReaches(), construct by construct (issue 9 A.3/A.5). Rows that gawk can run are first
// run by gawk itself under --sandbox on one input line (every statement runs): a row expecting
// true is one gawk refuses; a row expecting false is one it runs. The names that only read the
// environment or change the files read (ENVIRON, ARGV, PROCINFO, close, fflush, @include, @load)
// run under --sandbox too, so they are listed apart: the reader asks for them on purpose.
import { describe, expect, it } from 'vitest';
import { awkProgramReaches } from '../../src/policy/awk-program.ts';
import { gawkSandbox } from './gawk-sandbox.ts';

function gawkRefuses(program: string): boolean {
  const { verdict, stderr } = gawkSandbox(program);
  if (verdict === 'error') throw new Error(`gawk could not run ${JSON.stringify(program)}: ${stderr}`);
  return verdict === 'reaches';
}

const ROWS: Array<[string, boolean]> = [
  ['{ print > "/dev/null" }', true],
  ['{ print >> "/dev/null" }', true],
  ['{ print $1 > "/dev/null" }', true],
  ['{ print $1, $2 > "/dev/null" }', true],
  ['{ printf "%s", $1 > "/dev/null" }', true],
  ['{ printf("%s", $1) > "/dev/null" }', true],
  ['{ print (1 > 0) > "/dev/null" }', true],
  ['{ if ($2 > 0) print > "/dev/null" }', true],
  ['{ for (i = 0; i < 1; i++) print > "/dev/null" }', true],
  ['{ print 1 \\\n > "/dev/null" }', true],
  ['{ print | "cat >/dev/null" }', true],
  ['{ print $1 | "cat >/dev/null" }', true],
  ['{ printf("%s\\n", $1) | "cat >/dev/null" }', true],
  ['{ print 1 |& "cat" }', true],
  ['{ "echo x" | getline v }', true],
  ['{ "echo x" | getline }', true],
  ['{ getline v < "/dev/null" }', true],
  ['{ getline < "/dev/null" }', true],
  ['{ while ((getline line < "/dev/null") > 0) n++ }', true],
  ['BEGIN { system("true") }', true],
  ['BEGIN { system ("true") }', true],
  ['{ x = 1; system("true") }', true],
  ['NR > 0 { print > "/dev/null" }', true],
  ['/a|b/ { print > "/dev/null" }', true],
  // nothing reaches
  ['NR > 0', false],
  ['$2 > 0', false],
  ['$2 >= 1', false],
  ['length($0) > 3', false],
  ['/x/ || /a/', false],
  ['NR == 1 && $1 > ""', false],
  ['{ print }', false],
  ['{ print $1 }', false],
  ['{ print ($1 > $2) }', false],
  ['{ print $2 >= 1 }', false],
  ['{ print 1, (2 > 1) }', false],
  ['{ print "a > b | c" }', false],
  ['{ print "x" ; y = $2 > 0 }', false],
  ['{ x = $2 > 0 ? "y" : "n"; print x }', false],
  ['{ if ($2 > 0) print $1 }', false],
  ['{ n = split($0, f, "|"); print n }', false],
  ['$0 ~ /a|b/ { n++ } END { print n }', false],
  ['$0 ~ /[|>]/ { n++ }', false],
  ['/[/]/ { print }', false],
  ['{ a = 4 / 2; print a }', false],
  ['{ print 4 /2/ 1 }', false],
  ['{ x++; print x / 2 }', false],
  ['{ print $1 } # print > "f" | "sh"', false],
  ['BEGIN { s = "system(\\"id\\")"; print s }', false],
  ['{ w = "print > x"; print w }', false],
];

const ASKED_ON_PURPOSE = [
  'BEGIN { print ENVIRON["HOME"] }',
  'BEGIN { print ARGV[0] }',
  'BEGIN { ARGV[1] = "/etc/passwd"; ARGC = 2 }',
  'BEGIN { print PROCINFO["pid"] }',
  '{ close("x") }',
  '{ fflush() }',
];

describe('issue 9 A.3/A.5 awkProgramReaches, construct by construct, as gawk runs it', () => {
  it.each(ROWS)('%j -> %s', (program, reaches) => {
    expect(gawkRefuses(program), 'gawk --sandbox').toBe(reaches);
    expect(awkProgramReaches(program)).toBe(reaches);
  });

  it.each(ASKED_ON_PURPOSE)('%j reads the environment or changes the files read: it asks', (program) => {
    expect(awkProgramReaches(program)).toBe(true);
  });

  it.each(['{ print "unterminated }', 'BEGIN { x = /unterminated }', '{ print "a\nb" }'])(
    'a literal that never closes (%j) is read as reaching rather than guessed',
    (program) => {
      expect(awkProgramReaches(program)).toBe(true);
    },
  );
});
