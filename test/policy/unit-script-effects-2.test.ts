// scriptSideEffect(), rows from the Stryker survivors of script-effects.ts (86.08% at e962915):
// which words an option takes (so the program is found where sed and awk find it), the names a
// long option is matched by, the bound on a program's length, and the libraries gawk loads.
import { describe, expect, it } from 'vitest';
import { MAX_PROGRAM, scriptSideEffect } from '../../src/policy/script-effects.ts';

const SED_RUNS = 'sed program that writes, reads or runs other files or commands';
const SED_FILE = 'sed reading its program from a file';
const SED_LONG = 'sed program too long to read';
const AWK_RUNS = 'awk program that writes, reads or runs other files or commands';
const AWK_FILE = 'awk reading its program from a file';
const AWK_LONG = 'awk program too long to read';

const sideEffectRows = (rows: ReadonlyArray<readonly [argv: string[], expected: string | null]>): void => {
  it.each(rows)('%j -> %s', (argv, expected) => {
    expect(scriptSideEffect(argv)).toBe(expected);
  });
};

describe('issue 9 A.3: a value option takes the next word, so the program is the word after it', () => {
  sideEffectRows([
    // sed's program is its first operand: after `--line-length 5` it is `w out`.
    [['sed', '--line-length', '5', 'w out', 'f'], SED_RUNS],
    [['sed', '--line-len', '5', 'e id', 'f'], SED_RUNS],
    [['sed', '-l', '5', 'w out', 'f'], SED_RUNS],
    [['sed', '--line-length=5', 's/a/b/', 'w out'], null],
    // awk reads every operand as a program; a separator or an assignment taken by its option is not one.
    [['awk', '--field-separator', '|', '{print $1}', 'f'], null],
    [['awk', '--field-sep', '|', '{print $1}', 'f'], null],
    [['awk', '--assign', 'x=|', '{print x}'], null],
    [['awk', '--assi', 'x=|', '{print x}'], null],
    [['awk', '-F', '|', '{print $1}', 'f'], null],
    [['awk', '-v', 'x=|', '{print x}'], null],
  ]);
});

describe('issue 9 A.3: a long option is its whole name before `=`', () => {
  sideEffectRows([
    // A longer word is no option of the table: the value is not a program.
    [['awk', '--sourcex', '{print}', 'f'], null],
    [['awk', '--filex', '{print}', 'f'], null],
    [['sed', '--expressionx', 'p', 'f'], null],
    // `--name=value` carries its value: the next word is an operand (sed: a file).
    [['sed', '--expression=p', 'w out'], null],
    [['sed', '--expression=w out', 'f'], SED_RUNS],
    [['sed', '--expression', 'w out', 'f'], SED_RUNS],
    [['awk', '--source=BEGIN{}', 'f'], null],
    // `--` alone with a value, and an ambiguous prefix, read as a program file.
    [['sed', '--=x', 'p', 'f'], SED_FILE],
    [['awk', '--=x', '{print}'], AWK_FILE],
    [['awk', '--fi', 'x', '{print}'], AWK_FILE],
  ]);
});

describe('issue 9 A.3: a cluster', () => {
  sideEffectRows([
    // sed's -i takes the rest of its cluster as a suffix: `-if` is -i with suffix f, not -f.
    [['sed', '-if', 's/a/b/', 'f'], null],
    [['sed', '-ie', 's/a/b/', 'w out'], null],
    [['sed', '-ie', 'w out', 'f'], SED_RUNS],
    [['sed', '-nif', 's/a/b/', 'f'], null],
    // awk has no -i suffix: `-if` is -i with the value f.
    [['gawk', '-if', '{print}'], 'gawk reading its program from a file'],
    // The value is the rest of the cluster after the letter.
    [['sed', '-new out', 'f'], SED_RUNS],
    [['sed', '-nes/i/x/w out', 'f'], SED_RUNS],
    [['sed', '-nep', 'w out'], null],
    [['sed', '-ne', 'p', 'w out'], null],
    [['awk', '-ve=1', '{print e}'], null],
  ]);
});

describe('issue 9 A.3: operands', () => {
  sideEffectRows([
    // `-` is an operand (standard input), not an option: as sed's first operand it is the program,
    // one sed cannot read (so it fails closed), and `s/a/b/` after it is a file.
    [['sed', '-', 's/a/b/'], SED_RUNS],
    [['sed', '-n', '-', 's/a/b/'], SED_RUNS],
    [['awk', '-', '{system("x")}'], AWK_RUNS],
    // An option missing its value at the end of the command: nothing to read.
    [['sed', '-n', '-e'], null],
    [['awk', '-e'], null],
    [['sed', '--expression'], null],
  ]);
});

describe('issue 9 A.3: gawk loads every library it is given from a file, the bundled ones too', () => {
  // gawk searches AWKPATH, whose default starts with ".", so `-i inplace` runs ./inplace.awk.
  it.each([
    [['gawk', '-i', 'inplace', '{print}', 'f']],
    [['gawk', '-iinplace', '{print}', 'f']],
    [['gawk', '--include=inplace', '{print}', 'f']],
    [['gawk', '--include', 'inplace', '{print}', 'f']],
    [['gawk', '-f', 'inplace', 'f']],
    [['gawk', '-i', 'ordchr', '{print}', 'f']],
    [['gawk', '-l', 'filefuncs', '{print}', 'f']],
  ])('%j', (argv) => {
    expect(scriptSideEffect(argv)).toBe('gawk reading its program from a file');
  });
});

describe('issue 9 A.7: a program over the bound is one that reaches', () => {
  const plainSed = (length: number): string => 'p;'.repeat(length).slice(0, length);
  const reachingSed = (length: number): string => `w out\n${'#'.repeat(length - 6)}`;
  const plainAwk = (length: number): string => `{print}${' '.repeat(length - 7)}`;
  const reachingAwk = (length: number): string => `BEGIN{system("x")}${' '.repeat(length - 18)}`;
  const bound = MAX_PROGRAM;
  it.each([
    ['sed first operand at the bound, plain', ['sed', plainSed(bound), 'f'], null],
    ['sed first operand over the bound, plain', ['sed', plainSed(bound + 1), 'f'], SED_LONG],
    ['sed first operand at the bound, reaching', ['sed', reachingSed(bound), 'f'], SED_RUNS],
    ['sed -e over the bound, plain', ['sed', '-e', plainSed(bound + 1), 'f'], SED_RUNS],
    ['sed -e at the bound, plain', ['sed', '-e', plainSed(bound), 'f'], null],
    ['awk operand at the bound, plain', ['awk', plainAwk(bound), 'f'], null],
    ['awk operand over the bound, plain', ['awk', plainAwk(bound + 1), 'f'], AWK_LONG],
    ['awk operand at the bound, reaching', ['awk', reachingAwk(bound), 'f'], AWK_RUNS],
    ['awk -e over the bound, plain', ['awk', '-e', plainAwk(bound + 1)], AWK_RUNS],
  ])('%s', (_name, argv, expected) => {
    expect(argv.some((w) => w.length === bound || w.length === bound + 1)).toBe(true);
    expect(scriptSideEffect(argv)).toBe(expected);
  });
});
