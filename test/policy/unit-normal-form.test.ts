// Issue 9 A.4: the pieces deny/ask matching reads a command with: npm's command resolution
// (aliases, camelCase, abbreviations), subcommand aliases per CLI, kubectl resource names, and a
// pattern's normal form (verb, positional words, option set).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { matchNormalForm, normalFormOf } from '../../src/policy/normal-form.ts';
import { canonicalPositional, npmCommand, subcommandReadings } from '../../src/policy/subcommand-aliases.ts';
import { dataWords } from '../../src/policy/argument-roles.ts';

describe('npmCommand: what npm runs for a word', () => {
  it.each([
    ['publish', ['publish'], true],
    ['pub', ['publish'], true],
    ['rm', ['uninstall'], true],
    ['r', ['uninstall'], true],
    ['distTag', ['dist-tag'], true],
    ['dist-tags', ['dist-tag'], true],
    ['run-script', ['run'], true],
    ['isntall', ['install'], true],
    ['exe', ['exec'], true],
    ['zzz', ['zzz'], true],
    ['--json', ['--json'], true],
  ])('%s -> %j (certain %s)', (word, names, certain) => {
    expect(npmCommand(word)).toEqual({ names, certain });
  });
  it('an abbreviation of several names lists them all and is not certain', () => {
    const ex = npmCommand('ex');
    expect(ex.certain).toBe(false);
    expect([...ex.names].sort()).toEqual(['exec', 'explain', 'explore']);
    expect(npmCommand('p').names).toContain('publish');
  });
  it('property: every unambiguous prefix of publish of length >= 3 reads as publish', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 7 }), (n) => {
        expect(npmCommand('publish'.slice(0, n))).toEqual({ names: ['publish'], certain: true });
      }),
    );
  });
});

describe('subcommandReadings and canonicalPositional', () => {
  it('two-word docker aliases win over one-word ones and say how many words they read', () => {
    expect(subcommandReadings('docker', ['docker', 'container', 'remove', 'x'], 1)).toEqual([
      { words: ['rm'], consumed: 2, certain: true },
    ]);
    expect(subcommandReadings('docker', ['docker', 'remove', 'x'], 1)).toEqual([
      { words: ['rm'], consumed: 1, certain: true },
    ]);
    expect(subcommandReadings('docker', ['docker', 'ps'], 1)).toEqual([]);
    expect(subcommandReadings('docker', ['docker'], 1)).toEqual([]);
    expect(subcommandReadings('gh', ['gh', 'pr', 'new'], 1)).toEqual([
      { words: ['pr', 'create'], consumed: 2, certain: true },
    ]);
    expect(subcommandReadings('git', ['git', 'rm'], 1)).toEqual([]);
    expect(subcommandReadings('npm', ['npm', 'test'], 1)).toEqual([]);
  });
  it('kubectl resource names have one spelling; other CLIs keep the word', () => {
    expect(canonicalPositional('kubectl', 'PO')).toBe('pod');
    expect(canonicalPositional('kubectl', 'deployments')).toBe('deployment');
    expect(canonicalPositional('kubectl', 'api')).toBe('api');
    expect(canonicalPositional('docker', 'po')).toBe('po');
  });
});

describe('normalFormOf / matchNormalForm', () => {
  it('a pattern reads as verb, positional words and an option set', () => {
    expect(normalFormOf(['rm', '-rf:*'])).toEqual({
      verb: 'rm',
      words: [[]],
      lastIsPrefix: false,
      options: ['-r', '-f'],
    });
    expect(normalFormOf(['/usr/bin/git', 'reset', '--hard'])).toEqual({
      verb: 'git',
      words: [['reset']],
      lastIsPrefix: false,
      options: ['--hard'],
    });
    expect(normalFormOf(['pnpm', 'test:*'])).toEqual({
      verb: 'pnpm',
      words: [['test']],
      lastIsPrefix: true,
      options: [],
    });
    expect(normalFormOf(['kubectl', 'delete', 'po/api'])?.words).toEqual([['delete', 'pod', 'api']]);
    expect(normalFormOf(['docker', 'container', 'rm'])?.words).toEqual([['rm']]);
    expect(normalFormOf(['ls'])).toBeNull();
    expect(normalFormOf(['curl:*', 'x'])).toBeNull();
  });
  it('matches, with certainty, only what the CLI would read as the pattern', () => {
    const form = normalFormOf(['pnpm', 'test:*'])!;
    expect(matchNormalForm(form, ['pnpm', 'test:unit'])).toBe('certain');
    expect(matchNormalForm(form, ['pnpm', '--filter', 'x', 'test'])).toBe('certain');
    expect(matchNormalForm(form, ['pnpm', 'testing'])).toBeNull();
    expect(matchNormalForm(form, ['npm', 'test'])).toBeNull();
    expect(matchNormalForm(normalFormOf(['npm', 'run', 'deploy'])!, ['npm', 'run-script', 'deploy'])).toBe('certain');
    expect(matchNormalForm(normalFormOf(['npm', 'run-script', 'deploy'])!, ['npm', 'rum', 'deploy'])).toBe('certain');
    const npmExec = normalFormOf(['npm', 'exec'])!;
    expect(matchNormalForm(npmExec, ['npm', 'ex', 'x'])).toBe('uncertain');
    expect(matchNormalForm(npmExec, ['npm', 'exe', 'x'])).toBe('certain');
    const reset = normalFormOf(['git', 'reset', '--hard', 'HEAD'])!;
    expect(matchNormalForm(reset, ['git', 'reset', 'HEAD', '--hard'])).toBe('certain');
    expect(matchNormalForm(reset, ['git', 'reset', '--hard', 'main'])).toBeNull();
    expect(matchNormalForm(reset, ['git', 'reset', '--hard', '--', 'HEAD'])).toBe('certain');
    expect(matchNormalForm(reset, ['git', 'reset', '--', '--hard', 'HEAD'])).toBeNull();
    expect(matchNormalForm(reset, ['git', 'reset', '--h', 'HEAD'])).toBe('certain');
    expect(matchNormalForm(reset, ['git', 'reset', '-', 'HEAD'])).toBeNull();
  });
});

describe('dataWords', () => {
  it.each([
    [['grep', '-rn', 'pat', 'src'], [2]],
    [
      ['grep', '-e', 'a', '-e', 'b', 'f'],
      [2, 4],
    ],
    [['grep', '-epat', 'f'], [1]],
    [['grep', '-f', 'pats', 'f'], []],
    [['grep', '-A', '3', 'pat', 'f'], [3]],
    [['grep', '--', '-x', 'f'], [2]],
    [['sed', '-n', '-e', 's', 'f'], [3]],
    [
      ['awk', '-F', '/', 'prog', 'f'],
      [2, 3],
    ],
    [['awk', '-f', 'p.awk', 'f'], []],
    [
      ['echo', 'a', 'b'],
      [1, 2],
    ],
    [['A=1', 'echo', 'a'], [2]],
    [['cat', 'a'], []],
  ])('%j -> %j', (argv, indexes) => {
    const verbAt = argv[0] === 'A=1' ? 1 : 0;
    expect([...dataWords(argv, verbAt)].sort()).toEqual(indexes);
  });
});
