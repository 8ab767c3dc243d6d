// Skipping a program's options to find what follows them (mutation testing of options.ts; the
// wrappers and the external-effect CLIs read argv with it). Exact steps for concrete argv, then
// what a step changes in a decision.
import { describe, expect, it } from 'vitest';
import { optionTable, stepOption } from '../../src/policy/options.ts';
import { allowing, term } from './unit-fixtures.ts';

// A sudo-like table: -u and --user take a value, -E and -n do not.
const TABLE = optionTable('-u --user', '-E -n --preserve-env');

describe('optionTable', () => {
  it('splits on spaces and drops empty words', () => {
    expect(optionTable(' -u  --user ', '-E')).toEqual({ valued: new Set(['-u', '--user']), flags: new Set(['-E']) });
    expect(optionTable('', '')).toEqual({ valued: new Set(), flags: new Set() });
  });
});

describe('stepOption', () => {
  it.each([
    // Not an option: the options are over.
    [['sudo', 'ls'], 1, { kind: 'end' }],
    [['sudo', '-'], 1, { kind: 'end' }],
    [['sudo'], 1, { kind: 'end' }],
    // `--` ends the options and is skipped itself.
    [['sudo', '--', '-u'], 1, { kind: 'skip', next: 2 }],
    // A known option with its value, glued or not; a known flag.
    [['sudo', '-u', 'root', 'ls'], 1, { kind: 'skip', next: 3 }],
    [['sudo', '--user', 'root', 'ls'], 1, { kind: 'skip', next: 3 }],
    [['sudo', '-E', 'ls'], 1, { kind: 'skip', next: 2 }],
    [['sudo', '--preserve-env', 'ls'], 1, { kind: 'skip', next: 2 }],
    // `--name=value` never takes the next word, known or not.
    [['sudo', '--user=root', 'ls'], 1, { kind: 'skip', next: 2 }],
    [['sudo', '--frob=1', 'ls'], 1, { kind: 'skip', next: 2 }],
    [['sudo', '-x=1', 'ls'], 1, { kind: 'skip', next: 2 }],
    // Clusters: the first valued letter takes the rest of the word, or the next word.
    [['sudo', '-uroot', 'ls'], 1, { kind: 'skip', next: 2 }],
    [['sudo', '-Eu', 'root', 'ls'], 1, { kind: 'skip', next: 3 }],
    [['sudo', '-Euroot', 'ls'], 1, { kind: 'skip', next: 2 }],
    [['sudo', '-nE', 'ls'], 1, { kind: 'skip', next: 2 }],
    [['sudo', '-nEu', 'root', 'ls'], 1, { kind: 'skip', next: 3 }],
    // An unknown option is reported, never guessed.
    [['sudo', '-x', 'ls'], 1, { kind: 'unknown', option: '-x' }],
    [['sudo', '-Ex', 'ls'], 1, { kind: 'unknown', option: '-Ex' }],
    [['sudo', '-xu', 'root'], 1, { kind: 'unknown', option: '-xu' }],
    [['sudo', '--frob', 'ls'], 1, { kind: 'unknown', option: '--frob' }],
    [['sudo', '--', 'x'], 2, { kind: 'end' }],
  ])('%j at %i -> %j', (argv, i, step) => {
    expect(stepOption(argv, i, TABLE)).toEqual(step);
  });
});

describe('what a step changes in a decision (RN-418: the command behind sudo is still judged)', () => {
  // The container floor starts every command at auto_approve; only a ceiling lowers it.
  const TOOLS = {
    ...allowing('Terminal(sudo)', 'Terminal(timeout)', 'Terminal(nice)', 'Terminal(git)'),
    containerRunning: true,
  };
  it.each([
    ['sudo -u root git push', 'ceiling_privileged'],
    ['sudo -uroot git push', 'ceiling_privileged'],
    ['timeout -s KILL 5 git push', 'ceiling_external_effect'],
    ['timeout -sKILL 5 git push', 'ceiling_external_effect'],
    ['timeout --signal=KILL 5 git push', 'ceiling_external_effect'],
    ['nice -n 5 git push', 'ceiling_external_effect'],
    ['git -C sub push', 'ceiling_external_effect'],
    ['timeout -s KILL 5 ls', 'permissions_allow'],
  ])('%s -> %s', (command, code) => {
    expect(term(command, TOOLS).reasonCode).toBe(code);
  });
});
