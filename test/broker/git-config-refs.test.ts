// The config reader behind the protection of hooksPath / include targets (unit).
import { describe, expect, it } from 'vitest';
import { gitConfigRefs, gitConfigTargets, placeOf, refPath } from '../../broker/git-config-refs.ts';

describe('gitConfigRefs', () => {
  it.each([
    ['[core]\n\thooksPath = .husky\n', ['.husky'], []],
    ['[CORE]\n\tHOOKSPATH=.githooks', ['.githooks'], []],
    ['[core] hooksPath = "tools/hooks" ; trailing comment\n', ['tools/hooks'], []],
    ['[core]\n\thooksPath = "with space/h" # c\n', ['with space/h'], []],
    ['[include]\n\tpath = ../shared.gitconfig\n', [], ['../shared.gitconfig']],
    ['[includeIf "gitdir:~/work/"]\n\tpath = extra.inc\n', [], ['extra.inc']],
    ['[core]\n\t# hooksPath = commented\n\tbare = false\n[user]\n\tpath = not-an-include\n', [], []],
    ['[core]\n\thooksPath = a\n[core]\n\thooksPath = b\n', ['a', 'b'], []],
    ['[remote "origin"]\n\turl = x\n[include]\n\tpath = "/work/cfg/inc"\n', [], ['/work/cfg/inc']],
    ['', [], []],
  ])('%j', (text, hooksPaths, includes) => {
    expect(gitConfigRefs(text)).toEqual({ hooksPaths, includes });
  });
});

describe('refPath / gitConfigTargets / placeOf: a value as a path, the rules git uses', () => {
  const context = {
    worktree: '/home/ana/shop',
    configDir: '/home/ana/shop/.git',
    home: '/home/ana',
    homeOf: (user: string) => (user === 'bob' ? '/home/bob' : null),
  };
  it.each([
    ['.husky', '/home/ana/shop', '/home/ana/shop/.husky'],
    ['./.husky/', '/home/ana/shop', '/home/ana/shop/./.husky/'],
    ['~/shop/.husky', '/x', '/home/ana/shop/.husky'],
    ['~', '/x', '/home/ana'],
    ['~bob/hooks', '/x', '/home/bob/hooks'],
    ['~carol/hooks', '/x', null],
    ['/abs/hooks', '/x', '/abs/hooks'],
    ['../team.gitconfig', '/home/ana/shop/.git', '/home/ana/shop/.git/../team.gitconfig'],
  ])('%s (from %s) -> %s', (value, base, expected) => {
    expect(refPath(value, base, context)).toBe(expected);
  });

  it('hooksPath starts at the work tree, include.path at the config file; ~ not followed without a home; absolute values mapped', () => {
    const text = '[core]\n\thooksPath = .husky\n[include]\n\tpath = team.inc\n\tpath = ~/x.inc\n\tpath = /work/y.inc\n';
    expect(gitConfigTargets(text, context)).toEqual({
      hooksPaths: ['/home/ana/shop/.husky'],
      includes: ['/home/ana/shop/.git/team.inc', '/home/ana/x.inc', '/work/y.inc'],
    });
    expect(
      gitConfigTargets(text, {
        worktree: '/srv/p',
        configDir: '/srv/p/.git',
        home: null,
        absolute: (v) => v.replace(/^\/work/, '/srv/p'),
      }),
    ).toEqual({ hooksPaths: ['/srv/p/.husky'], includes: ['/srv/p/.git/team.inc', '/srv/p/y.inc'] });
  });

  it.each([
    ['/p', '/p/', 'project'],
    ['/p', '/p/./', 'project'],
    ['/p', '/p/a/..', 'project'],
    ['/p', '/p/.husky', 'inside'],
    ['/p', '/p/../q', 'outside'],
    ['/p', '/pq', 'outside'],
  ] as const)('placeOf(%s, %s) = %s', (project, target, expected) => {
    expect(placeOf(project, target)).toBe(expected);
  });
});
