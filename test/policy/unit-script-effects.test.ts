// Issue 9 A.3: sed and awk programs that reach past their input (script-effects.ts), by the exact
// reason scriptSideEffect() gives, and the decisions they change.
import { describe, expect, it } from 'vitest';
import { scriptSideEffect } from '../../src/policy/script-effects.ts';
import type { Permissions } from '../../src/policy/types.ts';
import { AUTO, MANUAL, ask, auto, c, runCases } from './adversarial-harness.ts';

const SED_RUNS = 'sed program that writes, reads or runs other files or commands';
const SED_FILE = 'sed reading its program from a file';
const awkRuns = (name: string) => `${name} program that writes, reads or runs other files or commands`;
const awkFile = (name: string) => `${name} reading its program from a file`;

describe('issue 9 A.3 scriptSideEffect: sed commands and flags that reach other files', () => {
  it.each([
    [['sed', '-n', '1w out', 'f']],
    [['sed', '-', 'f']], // '-' as the program is no sed program: read as reaching (sed refuses it)
    [['sed', '-n', '1W out', 'f']],
    [['sed', '1r x', 'f']],
    [['sed', '1R x', 'f']],
    [['sed', '1e', 'f']],
    [['sed', '1e date', 'f']],
    [['sed', '$r x', 'f']],
    [['sed', '/x/w out', 'f']],
    [['sed', '1!w out', 'f']],
    [['sed', '1{w out\n}', 'f']],
    [['sed', 's/a/b/w out', 'f']],
    [['sed', 's/a/b/gw out', 'f']],
    [['sed', 's/a/b/e', 'f']],
    [['sed', 's|a|b|e', 'f']],
    [['sed', 's/a/b/;s/c/d/w out', 'f']],
    [['sed', '-e', '1w out', 'f']],
    [['sed', '-ne', '1w out', 'f']],
    [['sed', '--expression=1w out', 'f']],
    [['sed', '--expression', '1w out', 'f']],
    [['sed', '--expr', '1w out', 'f']],
    [['sed', '--', '1w out', 'f']],
    [['/bin/sed', '-n', '1w out', 'f']],
  ])('%j', (argv) => {
    expect(scriptSideEffect(argv)).toBe(SED_RUNS);
  });

  it.each([
    [['sed', 's/a/b/', 'f']],
    [['sed', 's/a/b/g', 'f']],
    [['sed', '-n', '1p', 'f']],
    [['sed', '-n', '-e', 'p', 'f']],
    [['sed', '/^$/d', 'f']],
    [['sed', '-i', '1d', 'f']],
    [['sed', '--line-length', '5', 'l', 'f']],
    [['sed', '-l', '5', 'l', 'f']],
    [['sed', 's/w//', 'f']],
    [['sed', 'F', 'f']], // F prints the input's file name: GNU sed --sandbox accepts it
    [['sed', '-n', 'p', 'README.md', 'webpack.config.js', 'requirements.txt']], // files, not programs
    [['sed']],
    [[]],
  ])('%j -> null', (argv) => {
    expect(scriptSideEffect(argv)).toBeNull();
  });

  it.each([
    [['sed', '-f', 'prog', 'f']],
    [['sed', '-fprog', 'f']],
    [['sed', '-nf', 'prog', 'f']],
    [['sed', '--file=prog', 'f']],
    [['sed', '--file', 'prog', 'f']],
    [['sed', '--fi=prog', 'f']],
  ])('a program from a file: %j', (argv) => {
    expect(scriptSideEffect(argv)).toBe(SED_FILE);
  });

  it('a program longer than 4096 characters is not read', () => {
    expect(scriptSideEffect(['sed', 'p'.repeat(4097), 'f'])).toBe('sed program too long to read');
    expect(scriptSideEffect(['sed', '-e', 'p'.repeat(4097), 'f'])).toBe(SED_RUNS);
    expect(scriptSideEffect(['sed', 'p;'.repeat(2048), 'f'])).toBeNull();
  });
});

describe('issue 9 A.3 scriptSideEffect: awk', () => {
  it.each([
    ['awk', '{system("x")}'],
    ['awk', '{system ("x")}'],
    ['awk', '{print > "x"}'],
    ['awk', '{print >> "x"}'],
    ['awk', '{printf "%s", $0 > "x"}'],
    ['awk', '{print | "sh"}'],
    ['awk', '{"date" | getline d}'],
    ['awk', '{getline l < "x"}'],
    ['awk', '{print ARGV[1]}'],
    ['awk', '{close("x")}'],
    ['awk', '{fflush()}'],
    ['awk', '{print ENVIRON["HOME"]}'],
    ['gawk', '{print PROCINFO["pid"]}'],
    ['gawk', '@load "x"'],
    ['gawk', '@include "x"'],
    ['mawk', '{system("x")}'],
    ['nawk', '{system("x")}'],
  ])('%s %s', (name, program) => {
    expect(scriptSideEffect([name, program, 'f'])).toBe(awkRuns(name));
  });

  it.each([
    [['awk', '-e', 'BEGIN{system("x")}']],
    [['awk', '--source=BEGIN{system("x")}']],
    [['awk', '--so', 'BEGIN{system("x")}']],
    [['awk', '-v', 'x=1', '{system("x")}']],
  ])('a program option: %j', (argv) => {
    expect(scriptSideEffect(argv)).toBe(awkRuns('awk'));
  });

  it.each([
    [['awk', '-f', 'prog', 'f']],
    [['awk', '-fprog', 'f']],
    [['gawk', '-E', 'prog']],
    [['gawk', '-i', 'lib']],
    [['gawk', '-l', 'ext']],
    [['awk', '--file=prog']],
    [['awk', '--exec=prog']],
    [['awk', '--include=lib']],
    [['awk', '--load=ext']],
    // An ambiguous prefix (--f: --file, --field-separator) reads as a file.
    [['awk', '--f', 'x']],
    [['awk', '--in', 'x']],
    // The bundled in-place library too: gawk looks in AWKPATH, the working directory first.
    [['gawk', '-i', 'inplace', '{print}', 'f']],
    [['gawk', '--include', 'inplace', '{print}', 'f']],
  ])('a program or library from a file: %j', (argv) => {
    const name = argv[0]!;
    expect(scriptSideEffect(argv)).toBe(awkFile(name));
  });

  it.each([
    [['awk', '{print $1}', 'f']],
    [['awk', '-F', ':', '{print $1}', 'f']],
    [['awk', '-F:', '{print $1}', 'f']],
    [['awk', '-v', 'n=1', '{print n}', 'f']],
    [['awk', '--field-separator', ':', '{print}']],
    [['awk', '--assign', 'a=1', '{print}']],
    [['awk', '--', '{print}', 'f']],
    [['cat', '{system("x")}']],
  ])('%j -> null', (argv) => {
    expect(scriptSideEffect(argv)).toBeNull();
  });
});

const SED_ALLOWED: Permissions = { allow: ['Terminal(sed:*)', 'Terminal(awk:*)'], deny: [], ask: [] };
const UNSAFE = ask('unsafe_shell_construct');
runCases(
  'issue 9 A.3 sed and awk programs that reach other files ask',
  { ...MANUAL, permissions: SED_ALLOWED, label: 'sed allowed' },
  [
    c("sed -n '1w out' f", UNSAFE),
    c("sed 's/a/b/e' f", UNSAFE),
    c('awk \'{system("id")}\' f', UNSAFE),
    c('sed -f prog f', UNSAFE),
    c("sed 's/a/b/' f", auto('permissions_allow')),
    c("awk '{print $1}' f", auto('permissions_allow')),
  ],
);

// Found by this suite: GNU sed takes a w/r file name right after the letter (`1wout`), and the
// word scan wanted a blank there, so `sed -n 1wpermissions.json x` rewrote a protected file
// auto-approved, even in auto mode. The program (first operand or -e value) is now parsed.
runCases('issue 9 A.3 sed w/r/e with the file name right after the letter', AUTO, [
  c('sed -n 1wpermissions.json x', UNSAFE),
  c("sed -n '$w.git/config' x", UNSAFE),
  c("sed -n '/url/w.git/config' x", UNSAFE),
  c("sed -n '1!wpermissions.json' x", UNSAFE),
  c("sed -n '1,3wpermissions.json' x", UNSAFE),
  c("sed -n '1~2wpermissions.json' x", UNSAFE),
  c("sed -n '/x/Iwpermissions.json' x", UNSAFE),
  c("sed -n '\\%x%wpermissions.json' x", UNSAFE),
  c("sed 's/a/b/wpermissions.json' x", UNSAFE),
  c("sed 's/a/b/gwpermissions.json' x", UNSAFE),
  c("sed -n 'p;wpermissions.json' x", UNSAFE),
  c('sed -n -e 1wpermissions.json x', UNSAFE),
  c('sed -n --expression=1wpermissions.json x', UNSAFE),
  c('sed 1r/etc/shadow x', UNSAFE),
  c("sed '$R../secret' x", UNSAFE),
  c("sed -n '1{wpermissions.json\n}' x", UNSAFE),
  c("sed -n ':a;N;$!ba;p' x", auto('agent_autonomy_auto_approve')),
  c("sed 's/foo/write/' x", auto('agent_autonomy_auto_approve')),
  c("sed 's/x/return/g;y/abc/wre/' x", auto('agent_autonomy_auto_approve')),
  c("sed '1i hello world' x", auto('agent_autonomy_auto_approve')),
  c('sed -e 1d README.md', auto('agent_autonomy_auto_approve')),
  c('sed 1d README.md', auto('agent_autonomy_auto_approve')),
]);
