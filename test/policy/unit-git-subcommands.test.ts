// Git subcommands the engine can name (git-subcommands.ts, issue 9, attacked after A.4): a word
// git runs as its own command means what it says; any other word may be an alias in the user's
// ~/.gitconfig (`git r --hard`), which no deny rule can see, unless an allow pattern names it.
// The table is checked against the git on this machine: every command `git --list-cmds=main`
// prints is one the engine knows.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { gitSubcommandsNamed, gitSubcommandUnknown } from '../../src/policy/git-subcommands.ts';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, terminalInput } from './adversarial-harness.ts';

function gitMainCommands(): string[] | null {
  try {
    return execFileSync('git', ['--list-cmds=main'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return null;
  }
}

const NONE: ReadonlySet<string> = new Set();
const words = (s: string): string[] => (s === '' ? [] : s.split(' '));
const main = gitMainCommands();

describe.skipIf(main === null)("issue 9 A.4: every command of this machine's git is a known subcommand", () => {
  it('git --list-cmds=main was read', () => {
    expect(main!).toEqual(expect.arrayContaining(['add', 'status', 'push', 'worktree', 'write-tree']));
  });
  it('none of them asks as an outside alias', () => {
    const unknown = main!.filter((cmd) => gitSubcommandUnknown(['git', cmd], NONE) !== null);
    expect(unknown).toEqual([]);
  });
});

describe('issue 9 A.4: gitSubcommandUnknown', () => {
  const rows: readonly (readonly [string, string | null])[] = [
    // Shipped as separate packages by distributions, or added after git 2.39.
    ...['svn', 'send-email', 'gui', 'citool', 'p4', 'cvsimport', 'cvsserver', 'cvsexportcommit', 'archimport']
      .concat(['credential-netrc', 'replay', 'backfill', 'refs', 'last-modified', 'repo'])
      .map((cmd) => [`git ${cmd}`, null] as const),
    ['git status', null],
    ['git -C x status', null],
    ['/usr/bin/git push', null],
    ['git r --hard', 'git r'],
    ['git pusj', 'git pusj'],
    ['git -C x pusj origin', 'git pusj'],
    ['git lfs pull', 'git lfs'],
    ['/usr/bin/git st', 'git st'],
    ['git', null],
    ['git --version', null],
    ['ls r', null],
    ['', null],
  ];
  for (const [command, expected] of rows) {
    it(`${command || '(empty)'} -> ${expected ?? 'null'}`, () => {
      expect(gitSubcommandUnknown(words(command), NONE)).toBe(expected);
    });
  }

  it('a subcommand an allow pattern names is known', () => {
    expect(gitSubcommandUnknown(words('git lfs pull'), new Set(['lfs']))).toBe(null);
    expect(gitSubcommandUnknown(words('git lfs pull'), new Set(['pull']))).toBe('git lfs');
  });
});

describe('issue 9 A.4: gitSubcommandsNamed reads the subcommand of each git allow pattern', () => {
  const rows: readonly (readonly [string[], string[]])[] = [
    [['git lfs:*'], ['lfs']],
    [['git lfs pull'], ['lfs']],
    [['git lfs pull:*'], ['lfs']],
    [['git -C x lfs:*'], ['lfs']],
    [['/usr/bin/git st'], ['st']],
    [['git lfs:* x'], ['lfs:*']],
    [
      ['git lfs', 'git st:*', 'ls x', 'gitx y'],
      ['lfs', 'st'],
    ],
    [['git'], []],
    [['git --no-pager'], []],
    [['git:*'], []],
    [[''], []],
  ];
  for (const [patterns, expected] of rows) {
    it(`${patterns.map((p) => `Terminal(${p})`).join(' ')} -> ${expected.join(' ') || 'none'}`, () => {
      expect([...gitSubcommandsNamed(patterns.map(words))].sort()).toEqual(expected);
    });
  }
});

describe('issue 9 A.4: decide() with Terminal(git:*) and a deny of git reset --hard', () => {
  const permissions = {
    ...MANUAL.permissions,
    allow: ['Terminal(git:*)', 'Terminal(git lfs:*)'],
    deny: ['Terminal(git reset --hard)'],
  };
  const rows: readonly (readonly [string, string])[] = [
    ['git status', 'auto_approve'],
    ['git range-diff a b c', 'auto_approve'],
    ['git lfs pull', 'auto_approve'],
    ['git r --hard', 'require_approval'],
    ['git pusj', 'require_approval'],
    ['git reset --hard', 'deny'],
  ];
  for (const [command, policy] of rows) {
    it(`${command} -> ${policy}`, () => {
      const decision = decide(terminalInput(MANUAL, { command, permissions }));
      expect(decision.policy, decision.reason).toBe(policy);
    });
  }
});
