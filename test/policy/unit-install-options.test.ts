// install-options.ts, function by function (issue 9, RN-075): how installers spell their options.
// Each row is a spelling a real installer reads, so a mutant that misreads `--`, a Boolean, a
// destination, an abbreviation or npm's global flag fails here.
import { describe, expect, it } from 'vitest';
import {
  globalFlag,
  npmTrue,
  option,
  optionWords,
  pipTrue,
  plainRelative,
  valueOf,
} from '../../src/policy/install-options.ts';

const w = (line: string): string[] => (line === '' ? [] : line.split(' '));

describe('optionWords and valueOf', () => {
  it('`--` ends the options', () => {
    expect(optionWords(w('i -g x'))).toEqual(['i', '-g', 'x']);
    expect(optionWords(w('i -- -g'))).toEqual(['i']);
    expect(optionWords(w('-- -g'))).toEqual([]);
    expect(optionWords([])).toEqual([]);
  });
  it('the value is what follows the first =', () => {
    expect(valueOf('--global=true')).toBe('true');
    expect(valueOf('--a=b=c')).toBe('b=c');
    expect(valueOf('--a=')).toBe('');
    expect(valueOf('plain')).toBe('plain');
  });
});

describe("npm's and pip's Booleans", () => {
  it.each(['', 'false', 'null', '0', '0.0', '00'])('npm reads %j as false', (v) => {
    expect(npmTrue(v)).toBe(false);
  });
  it.each(['true', '1', 'yes', 'FALSE', 'no', 'x', '2'])('npm reads %j as true', (v) => {
    expect(npmTrue(v)).toBe(true);
  });
  it.each(['', '0', 'false', 'no', 'off', 'n', 'f', 'FALSE', 'No', 'OFF', 'N', 'F'])('pip reads %j as false', (v) => {
    expect(pipTrue(v)).toBe(false);
  });
  it.each(['1', 'true', 'yes', 'on', 'y', 't', 'TRUE', '2', 'nope'])('pip reads %j as true', (v) => {
    expect(pipTrue(v)).toBe(true);
  });
});

describe('plainRelative: a destination the path scope judges as written', () => {
  it.each(['vendor', 'a/b', './env', 'a/./b', 'a..b', 'x-y', '.venv'])('%j is plain and relative', (v) => {
    expect(plainRelative(v)).toBe(true);
  });
  it.each([
    undefined,
    '',
    '/opt',
    '~/x',
    '~',
    '-x',
    '$HOME/x',
    'a$x',
    '`pwd`',
    'a`b',
    '..',
    '../x',
    'a/../../x',
    'a/..',
  ])('%j is not', (v) => {
    expect(plainRelative(v)).toBe(false);
  });
});

describe('option: --name value, --name=value, -xVALUE, and abbreviations', () => {
  it.each([
    ['--target /x', ['--target'], false, { word: '--target', value: '/x' }],
    ['--target=/x', ['--target'], false, { word: '--target=/x', value: '/x' }],
    ['--target', ['--target'], false, { word: '--target', value: undefined }],
    ['a --root r', ['--target', '--root'], false, { word: '--root', value: 'r' }],
    ['-t/x', ['-t'], false, { word: '-t/x', value: '/x' }],
    ['-t /x', ['-t'], false, { word: '-t', value: '/x' }],
    ['--targ /x', ['--target'], true, { word: '--targ', value: '/x' }],
    ['--targ=/x', ['--target'], true, { word: '--targ=/x', value: '/x' }],
    ['--us', ['--user'], true, { word: '--us', value: undefined }],
  ] as const)('%j of %j (abbreviated %s)', (line, names, abbreviated, found) => {
    expect(option(w(line), names, abbreviated)).toEqual(found);
  });

  it.each([
    ['--targ /x', ['--target'], false],
    ['--t /x', ['--target'], true],
    ['--tar', ['-t'], true],
    ['--pre x', ['--prefix'], true],
    ['--proxy x', ['--prefix'], true],
    ['--root-user-action x', ['--root'], true],
    ['--targets x', ['--target'], true],
    ['-x', ['--target'], true],
    ['', ['--target'], true],
    ['--tx', ['--target'], true],
    ['target /x', ['--target'], true],
  ] as const)('%j is none of %j (abbreviated %s)', (line, names, abbreviated) => {
    expect(option(w(line), names, abbreviated)).toBeUndefined();
  });

  it('the first matching word wins, in the order of the words', () => {
    expect(option(w('--root a --target b'), ['--target', '--root'])).toEqual({ word: '--root', value: 'a' });
  });
});

describe("globalFlag: npm's and bun's spellings of global", () => {
  it.each([
    ['-g', '-g'],
    ['i -g x', '-g'],
    ['-gAf', '-gAf'],
    ['-Ag', '-Ag'],
    ['--global', '--global'],
    ['--global=true', '--global=true'],
    ['--global=1', '--global=1'],
    ['-g=true', '-g=true'],
    ['--location global', '--location global'],
    ['--location user', '--location user'],
    ['--location=global', '--location=global'],
    ['--loca user', '--loca user'],
    ['--locat=global', '--locat=global'],
  ])('%j -> %j', (line, flag) => {
    expect(globalFlag(w(line))).toBe(flag);
  });

  it.each([
    '',
    'i x',
    '-- -g',
    '--global=false',
    '-g=false',
    '--global=0',
    '-A',
    '-g1',
    '--location project',
    '--location=project',
    '--location',
    '--loc global',
    '--locations global',
    'location global',
    '--globalx',
  ])('%j is not global', (line) => {
    expect(globalFlag(w(line))).toBeNull();
  });
});
