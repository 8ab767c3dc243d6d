// The config reader behind the protection of hooksPath / include targets (unit).
import { describe, expect, it } from 'vitest';
import {
  commandWords,
  gitConfigPrograms,
  gitConfigProgramTargets,
  gitConfigRefs,
  gitConfigTargets,
  placeOf,
  refPath,
} from '../../broker/git-config-refs.ts';

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

describe('gitConfigPrograms / commandWords / gitConfigProgramTargets: the programs config values run', () => {
  it('the keys that name a command, with their values as git runs them', () => {
    const text = [
      '[core]',
      '\tfsmonitor = ./x',
      '\tfsmonitor = true',
      '\tpager = less -R',
      '\tsshCommand = ./ssh.sh -v',
      '[sequence]\n\teditor = ./seq',
      '[diff "py"]\n\ttextconv = python3 t.py\n\tcommand = ./d',
      '[diff]\n\texternal = ./ext',
      '[filter "lfs"]\n\tsmudge = git-lfs smudge -- %f\n\tclean = ./clean %f\n\tprocess = ./proc',
      '[merge "m"]\n\tdriver = ./merge %O %A %B',
      '[credential]\n\thelper = store\n\thelper = !./cred\n\thelper = /abs/helper',
      '[credential "https://x"]\n\thelper = ./relative-means-git-credential-dot',
      '[gpg]\n\tprogram = ./gpg',
      '[gpg "ssh"]\n\tprogram = ./ssh-keygen',
      '[alias]\n\tst = status\n\tx = !./run',
      '[uploadpack]\n\tpackObjectsHook = ./pack',
      '[pager]\n\tlog = false\n\tdiff = ./dp',
      '[diff.old]\n\ttextconv = ./dotted',
      '[user]\n\tname = ./not-a-program',
      '',
    ].join('\n');
    expect(gitConfigPrograms(text).map((entry) => `${entry.key}=${entry.command}`)).toEqual([
      'core.fsmonitor=./x',
      'core.pager=less -R',
      'core.sshcommand=./ssh.sh -v',
      'sequence.editor=./seq',
      'diff.py.textconv=python3 t.py',
      'diff.py.command=./d',
      'diff.external=./ext',
      'filter.lfs.smudge=git-lfs smudge -- %f',
      'filter.lfs.clean=./clean %f',
      'filter.lfs.process=./proc',
      'merge.m.driver=./merge %O %A %B',
      'credential.helper=./cred',
      'credential.helper=/abs/helper',
      'gpg.program=./gpg',
      'gpg.ssh.program=./ssh-keygen',
      'alias.x=./run',
      'uploadpack.packobjectshook=./pack',
      'pager.diff=./dp',
      'diff.old.textconv=./dotted',
    ]);
  });

  it.each([
    ['./x', ['./x'], []],
    ['tools/watch', ['tools/watch'], []],
    ['touch /var/tmp/P; false', ['touch', 'false'], ['/var/tmp/P']],
    ['echo hi && ./evil arg', ['echo', './evil'], ['hi', 'arg']],
    ['LESS=FRX ./pager -R', ['./pager'], []],
    ['exec ./a > out.txt', ['./a'], []],
    ['python3 tools/conv.py %f', ['python3'], ['tools/conv.py']],
    ['$HOME/bin/x', ['~/bin/x'], []],
    ['"./with space/x" a', ['./with space/x'], ['a']],
    ["'~/x'", ['./~/x'], []],
    ['sh -c "$(cat x)"', ['sh'], []],
    ['$TOOL run', [], ['run']],
    ['a | ./b; (./c) # ./d', ['a', './b', './c'], []],
  ])('commandWords(%j)', (command, programs, words) => {
    expect(commandWords(command)).toEqual({ programs, words });
  });

  it('programs resolve from the work tree; a bare name is looked up on PATH, not followed', () => {
    const context = { worktree: '/p', configDir: '/p/.git', home: '/h' };
    expect(
      gitConfigProgramTargets(
        '[core]\n\tfsmonitor = ./w\n\teditor = vim\n[alias]\n\tx = !~/bin/x tools/s.sh\n',
        context,
      ),
    ).toEqual({ programs: ['/p/./w', '/h/bin/x'], scripts: ['/p/tools/s.sh'] });
  });
});
