// The config reader behind the protection of hooksPath / include targets (unit).
import { describe, expect, it } from 'vitest';
import { gitConfigRefs } from '../../broker/git-config-refs.ts';

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
