// Issue 9 A.2/A.3: the paths a command writes, read from its words (write-targets.ts), by exact
// value, and the decisions they change for the protected files (permissions.json, .git/config,
// .git/hooks).
import { describe, expect, it } from 'vitest';
import { isKnownWriter, writeTargets } from '../../src/policy/write-targets.ts';
import type { Permissions } from '../../src/policy/types.ts';
import { MANUAL, ask, auto, c, runCases } from './adversarial-harness.ts';

const words = (command: string): string[] => command.split(' ');
const paths = (...list: string[]) => ({ paths: list, into: null });

describe('issue 9 A.3 writeTargets: every operand of these commands is written', () => {
  it.each([
    ['tee a b', paths('a', 'b')],
    ['tee -a log', paths('log')],
    ['mv a', paths('a')],
    ['ln -s target link', paths('target', 'link')],
    ['truncate -s0 f', paths('f')],
    ['chmod 644 f', paths('644', 'f')],
    ['chown ana f', paths('ana', 'f')],
    ['chgrp staff f', paths('staff', 'f')],
    ['touch f', paths('f')],
    ['rm -rf d', paths('d')],
    ['rmdir d', paths('d')],
    ['unlink f', paths('f')],
    ['shred -u f', paths('f')],
    // `--` ends the options: what follows is an operand even when it starts with `-`.
    ['rm -- -f', paths('-f')],
    ['rm - x', paths('-', 'x')],
    ['rm -f -- a --b', paths('a', '--b')],
  ])('%s', (command, expected) => {
    expect(writeTargets(words(command))).toEqual(expected);
  });
});

describe('writeTargets: sort writes only its output file', () => {
  it.each([
    ['sort -o out in', paths('out')],
    ['sort -oout in', paths('out')],
    ['sort -uo out in', paths('out')],
    ['sort -ruoout in', paths('out')],
    ['sort --output=out in', paths('out')],
    ['sort --output out in', paths('out')],
    ['sort --out=out in', paths('out')],
    ['sort --ou out in', paths('out')],
    ['sort in -o out', paths('out')],
    // Another valued letter first takes the rest: `-to` is the separator o, `-k1o` a key.
    ['sort -to in', paths()],
    ['sort -t o in', paths()],
    ['sort -k 1o in', paths()],
    ['sort -So out', paths()],
    ['sort -T o in', paths()],
    ['sort --parallel=2 in', paths()],
    ['sort -- -o in', paths()],
    ['sort -o', paths()],
    ['sort --output', paths()],
    ['sort in', paths()],
  ])('%s', (command, expected) => {
    expect(writeTargets(words(command))).toEqual(expected);
  });
});

describe('issue 9 A.3 writeTargets: copiers write only their destination', () => {
  it.each([
    ['cp a b c', paths('c')],
    ['install -m 644 a b', paths('b')],
    ['rsync -a a/ b', paths('b')],
    ['cp -t d a b', paths('d')],
    ['cp -td a', paths('d')],
    ['cp --target-directory d a', paths('d')],
    ['cp --target-directory=d a b', paths('d')],
    ['cp', paths()],
    ['cp -t', paths()],
  ])('%s', (command, expected) => {
    expect(writeTargets(words(command))).toEqual(expected);
  });

  it('a -t folder of an all-operands command is written too', () => {
    expect(writeTargets(words('mv -t d a b'))).toEqual(paths('a', 'b', 'd'));
    expect(writeTargets(words('ln -t d a'))).toEqual(paths('a', 'd'));
  });
});

describe('issue 9 A.3 writeTargets: sources that land on a protected name inside the destination', () => {
  it.each([
    ['cp x/permissions.json .', '.', ['permissions.json']],
    ['cp x/.git/ y', 'y', ['.git']],
    ['cp x/HOOKS/ y', 'y', ['hooks']],
    ['cp -r a/config b/hooks d', 'd', ['config', 'hooks']],
    ['cp a/config b/config d', 'd', ['config']],
    ['install -t .git a/hooks', '.git', ['hooks']],
    ['rsync -a x/hooks/ .git', '.git', ['hooks']],
  ])('%s', (command, dir, names) => {
    const targets = writeTargets(words(command));
    expect(targets.into).toEqual({ dir, names });
  });

  it('mv and ln name their sources as written and the folder they land in', () => {
    expect(writeTargets(words('mv a/config .git/'))).toEqual({
      paths: ['a/config', '.git/'],
      into: { dir: '.git/', names: ['config'] },
    });
    expect(writeTargets(words('ln -s a/hooks .git'))).toEqual({
      paths: ['a/hooks', '.git'],
      into: { dir: '.git', names: ['hooks'] },
    });
  });

  it.each(['cp a b d', 'cp x/configs d', 'cp x/permissions.json.bak d', 'tee config', 'rm a/config'])(
    'no landing name: %s',
    (command) => {
      expect(writeTargets(words(command)).into).toBeNull();
    },
  );
});

describe('issue 9 A.3 writeTargets: find, dd, sed and perl', () => {
  it.each([
    ['find . -fprint out', paths('out')],
    ['find . -fprint0 out', paths('out')],
    ['find . -fprintf out %p', paths('out')],
    ['find . -fls out -fprint two', paths('out', 'two')],
    ['find . -fls', paths()],
    ['find . -print', paths()],
    ['dd if=a of=b', paths('b')],
    ['dd of=x of=y', paths('x', 'y')],
    ['dd if=a', paths()],
    ['cat a', paths()],
    ['mkdir x', paths()],
  ])('%s', (command, expected) => {
    expect(writeTargets(words(command))).toEqual(expected);
  });

  it.each([
    [
      ['sed', '-i', 's/a/b/', 'f'],
      ['s/a/b/', 'f'],
    ],
    [
      ['sed', '-Ei', '1d', 'f'],
      ['1d', 'f'],
    ],
    [
      ['sed', '-ni', '1p', 'f'],
      ['1p', 'f'],
    ],
    [
      ['sed', '--in-place=.bak', '1d', 'f'],
      ['1d', 'f'],
    ],
    [
      ['sed', '--in', '1d', 'f'],
      ['1d', 'f'],
    ],
    [
      ['sed', '--i=.bak', '1d', 'f'],
      ['1d', 'f'],
    ],
    [
      ['sed', '-i', '1w side', 'f'],
      ['1w side', 'f', 'side'],
    ],
    [
      ['perl', '-pi', '-e', '1', 'f'],
      ['1', 'f'],
    ],
    [
      ['perl', '-i.bak', '-pe', '1', 'f'],
      ['1', 'f'],
    ],
    [['perl', '-Mstrict', '-i', 'f'], ['f']],
    [['perl', '-i', 'f'], ['f']],
    [
      ['perl', '-0777pi', '-e', '1', 'f'],
      ['1', 'f'],
    ],
    [['perl', '-lpi', 'f'], ['f']],
    [['perl', '-l0pi', 'f'], ['f']],
  ])('in place: %j', (argv, expected) => {
    expect(writeTargets(argv)).toEqual(paths(...expected));
  });

  it.each([
    // The letter after a valued option is its value, not -i.
    ['sed', '-ei', 'f'],
    ['sed', '-fi', 'f'],
    ['sed', '-li', 'f'],
    ['sed', '-e', '1d', '--', '-i'],
    ['sed', '--expression=1d', 'f'],
    ['sed', '--ignore', 'f'],
    ['sed', '-n', '1p', 'f'],
    ['perl', '-pei', 'f'],
    ['perl', '-Mi', 'f'],
    ['perl', '-e', '1', '--', '-i'],
    ['perl', '-n', 'f'],
    ['perl', '-0ne', '1', 'f'],
    ['perl', '-l012e', '1', 'f'],
  ])('not in place: %j', (...argv) => {
    expect(writeTargets(argv)).toEqual(paths());
  });

  it.each([
    [['sed', '-n', '1w out', 'f'], ['out']],
    [['sed', '-n', '1W out', 'f'], ['out']],
    [['sed', '-n', 'w out', 'f'], ['out']],
    [['sed', '-n', '1 w out', 'f'], ['out']],
    [['sed', '-n', '/x/w out', 'f'], ['out']],
    [['sed', '-n', 's/a/b/w out', 'f'], ['out']],
    [['sed', '-n', 's/a/b/gw out', 'f'], ['out']],
    [['sed', '-n', '1p;2w out', 'f'], ['out']],
    [
      ['sed', '-n', '1p\n2w out\n3w two', 'f'],
      ['out', 'two'],
    ],
    [['sed', '-n', '1{p}w out', 'f'], ['out']],
    [['sed', '-n', '1w  out  ', 'f'], ['out']],
  ])('sed w FILE: %j', (argv, expected) => {
    expect(writeTargets(argv)).toEqual(paths(...expected));
  });

  it.each([
    ['sed', '-n', 'xw out', 'f'],
    ['sed', '-n', '1w ', 'f'],
    ['sed', '-n', '1wout', 'f'],
    ['sed', '-n', 's/a/b/', 'f'],
  ])('no sed w FILE: %j', (...argv) => {
    expect(writeTargets(argv)).toEqual(paths());
  });
});

describe('issue 9 A.3 isKnownWriter: whose named sources are reads', () => {
  it.each([
    ['dd if=a of=b', true],
    ['sed -n 1p f', true],
    ['perl -ne 1 f', true],
    ['cp a b', true],
    ['install a b', true],
    ['tee a', true],
    ['rm a', true],
    ['FOO=1 BAR=2 cp a b', true],
    ['/bin/cp a b', true],
    ['rsync a b', false],
    ['find . -delete', false],
    ['cat a', false],
    ['FOO=1', false],
  ])('%s -> %s', (command, known) => {
    expect(isKnownWriter(words(command))).toBe(known);
  });

  it('an empty argv names no writer', () => {
    expect(isKnownWriter([])).toBe(false);
    expect(writeTargets([])).toEqual(paths());
  });
});

const WRITERS: Permissions = {
  allow: ['cp', 'install', 'rsync', 'dd', 'sed', 'perl', 'tee', 'chmod', 'unlink', 'mv', 'find'].map(
    (verb) => `Terminal(${verb}:*)`,
  ),
  deny: [],
  ask: [],
};
const WRITE = ask('protected_file_write');
const ALLOWED = auto('permissions_allow');
runCases(
  'issue 9 A.3 a known writer reads its sources; an unknown writer does not',
  { ...MANUAL, permissions: WRITERS, label: 'writers allowed' },
  [
    c('cp .git/config backup.cfg', ALLOWED),
    c('install .git/config backup.cfg', ALLOWED),
    c('dd if=.git/config of=backup', ALLOWED),
    c('sed -n 1p .git/config', ALLOWED),
    c('perl -ne print .git/config', ALLOWED),
    c('rsync .git/config backup.cfg', WRITE, { note: 'rsync options write files of their own' }),
    c('cp backup.cfg .git/config', WRITE),
    c('cp x/permissions.json .', WRITE),
    c('cp -t .git/hooks a', WRITE),
    c('install a .git/hooks/pre-commit', WRITE),
    c('mv a/config .git/', WRITE),
    c('tee permissions.json', WRITE),
    c('chmod 644 .git/config', WRITE),
    c('unlink permissions.json', WRITE),
    c('dd of=permissions.json', WRITE),
    c('find . -fprint permissions.json', WRITE),
    c('sed -i 1d permissions.json', WRITE),
    c('perl -pi -e 1 permissions.json', WRITE),
    c('cp a b', ALLOWED),
    c('dd of=out', ALLOWED),
  ],
);

// Found by this suite: perl's -0[octal] and -l[octal] take only digits and the cluster goes on,
// so `perl -0pi` and `perl -lpi` edit in place; they were read as stopping at 0 / l, and with
// Terminal(perl:*) allowed `perl -0pi -e … permissions.json` was auto-approved.
runCases(
  'issue 9 A.3 perl -0 and -l clusters still edit in place',
  { ...MANUAL, permissions: WRITERS, label: 'writers allowed' },
  [
    c('perl -0pi -e s/a/b/ permissions.json', WRITE),
    c('perl -00pi -e s/a/b/ permissions.json', WRITE),
    c('perl -0777pi -e s/a/b/ permissions.json', WRITE),
    c('perl -0777 -pi -e s/a/b/ permissions.json', WRITE),
    c('perl -lpi -e s/a/b/ permissions.json', WRITE),
    c('perl -l012pi -e s/a/b/ .git/config', WRITE),
    c('perl -0lpi -e 1 .git/config', WRITE),
    c('perl -l0pi -e 1 .git/hooks/pre-commit', WRITE),
    c('perl -w0pi -e 1 permissions.json', WRITE),
    c('perl -0ni -e print permissions.json', WRITE),
    c('perl -0pi.bak -e 1 permissions.json', WRITE),
    c('perl -0ne print permissions.json', ALLOWED),
    c('perl -lne print .git/config', ALLOWED),
    c('perl -0777pi -e 1 notes.txt', ALLOWED),
  ],
);
