// Exact patterns and mutating forms: token-prefix matching made the read-anchored presets
// (Terminal(git branch -v), git remote -v, git worktree list, git config --get) approve the
// mutating siblings `git branch -v -D main`, `git branch -v newname` (git 2.39 creates the
// branch: -v does not make it list), `git remote -v add x url`, and Terminal(git tag v1.0)
// approve `git tag v1.0 -f`. An exact pattern now covers a longer fragment of a subcommand with
// destructive forms only when the pattern's own tokens have every mutating form the fragment has.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, auto, c, runCases, terminalInput } from './adversarial-harness.ts';
import type { Case } from './adversarial-harness.ts';

const ALLOWED = auto('permissions_allow');
const not = (command: string, extra: Omit<Case, 'command' | 'expect'> = {}): Case =>
  c(command, 'never auto_approve', extra);

const EXACT = {
  ...MANUAL,
  label: 'DEV preset plus exact tag, stash, clean and docker patterns',
  permissions: {
    ...MANUAL.permissions,
    allow: [
      ...MANUAL.permissions.allow,
      'Terminal(git tag v1.0)',
      'Terminal(git stash list)',
      'Terminal(docker ps)',
      'Terminal(git tag -l)',
      'Terminal(git checkout main)',
      'Terminal(git reset HEAD)',
      'Terminal(git restore --staged)',
      'Terminal(git gc)',
    ],
  },
};

runCases('an exact pattern never covers a mutating form its own tokens lack', EXACT, [
  not('git branch -v -D main'),
  not('git branch -v -d main'),
  not('git branch -v --delete main'),
  not('git branch -vD main', { note: 'a cluster' }),
  not('git branch -v newname', { note: 'creates newname' }),
  not('git branch -vv newname'),
  not('git branch -v -m old new'),
  not('git branch -v -M main'),
  not('git branch -v -f main HEAD~3'),
  not('git branch -v -u origin/x'),
  not('git branch -v --set-upstream-to=origin/x'),
  not('git branch -v -c main copy'),
  not('git branch -a -D main'),
  not('git branch --show-current -D main'),
  not('git remote -v add x https://example.invalid/r.git'),
  not('git remote -v remove origin'),
  not('git remote -v rename origin up'),
  not('git remote -v set-url origin x'),
  not('git remote -v prune origin'),
  not('git remote show origin -- ; git remote -v rm origin'),
  not('git worktree list add ../x'),
  not('git config --get --unset user.name'),
  not('git config --get --replace-all user.name x'),
  not('git tag v1.0 -f'),
  not('git tag v1.0 --force'),
  not('git tag v1.0 -d'),
  not('git tag -l -d v1.0'),
  not('git remote -v update', { note: 'fetches every remote: moves refs' }),
  not('git checkout main -f'),
  not('git checkout main --force'),
  not('git reset HEAD --hard'),
  not('git restore --staged --worktree .'),
  not('git restore --staged -W .'),
  not('git gc --prune=now'),
]);

runCases('reads beyond the exact pattern stay allowed', EXACT, [
  c('git branch -v', ALLOWED),
  c('git branch -v --no-color', ALLOWED),
  c('git branch -a --contains HEAD', ALLOWED),
  c('git branch --list "feat*"', ALLOWED, { note: 'with --list a word is a pattern' }),
  c('git branch -r -v', ALLOWED),
  c('git remote -v', ALLOWED),
  c('git remote show origin', ALLOWED),
  c('git worktree list --porcelain', ALLOWED),
  c('git config --get user.name', ALLOWED),
  c('git config --get remote.origin.url x', ALLOWED, { note: 'a value pattern: still a read' }),
  c('git tag v1.0 HEAD~1', ALLOWED, { note: 'the same form as the pattern: create v1.0' }),
  c('git tag -l "v1*"', ALLOWED),
  c('git stash list --stat', ALLOWED),
  c('git stash list drop', ALLOWED, { note: 'git stash list hands drop to git log as a revision: a read' }),
  c('git checkout main --quiet', ALLOWED),
  c('git reset HEAD src/a.ts', ALLOWED),
  c('git gc --auto', ALLOWED),
  c('docker ps -a', ALLOWED),
  c('git log --oneline -5', ALLOWED),
]);

describe('property: the DEV read anchors never approve a fragment with a delete, force, move or create', () => {
  const ANCHORS = ['git branch -v', 'git branch -a', 'git branch -r', 'git branch --list', 'git branch --show-current'];
  const FLAGS = ['', ' -v', ' -vv', ' --no-color', ' -q', ' --abbrev=7'];
  const MUTATORS = [
    ' -D main',
    ' -d x',
    ' --delete x',
    ' -m a b',
    ' -M x',
    ' -f x',
    ' -c a b',
    ' -C a b',
    ' --force x',
  ];
  it('in manual mode with the DEV preset', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ANCHORS),
        fc.constantFrom(...FLAGS),
        fc.constantFrom(...MUTATORS),
        fc.constantFrom(...FLAGS),
        (anchor, before, mutator, after) => {
          const command = `${anchor}${before}${mutator}${after}`;
          const decision = decide(terminalInput(MANUAL, { command }));
          expect(decision.policy, `${command}: ${decision.reason}`).not.toBe('auto_approve');
        },
      ),
      { numRuns: 300 },
    );
  });
});

// Exact patterns written with assignments first (RN-675 keeps `CI=1 git branch -a` exact, found by
// m4): the forms were read from `CI=1` as the CLI, so Terminal(CI=1 git branch -a) covered
// `CI=1 git branch -a -D main`. The command starts after its assignments, in both.
const ASSIGNED = {
  ...MANUAL,
  label: 'exact patterns that start with assignments',
  permissions: {
    allow: [
      'Terminal(CI=1 git branch -a)',
      'Terminal(CI=1 git tag v1.0)',
      'Terminal(A=1 B=2 git remote -v)',
      'Terminal(GIT_AUTHOR_NAME=me git stash list)',
      'Terminal(CI=1 git stash)',
    ],
    deny: [],
    ask: [],
  },
};
runCases('an exact pattern after assignments never covers a mutating form it lacks', ASSIGNED, [
  not('CI=1 git branch -a -D main'),
  not('CI=1 git branch -a -d old'),
  not('CI=1 git branch -a --delete old'),
  not('CI=1 git branch -a -m new'),
  not('CI=1 git tag v1.0 -f'),
  not('CI=1 git tag v1.0 -d'),
  not('A=1 B=2 git remote -v add x https://example.invalid/r.git'),
  not('A=1 B=2 git remote -v remove origin'),
  c('CI=1 git branch -a --no-color', ALLOWED),
  c('CI=1 git tag v1.0 HEAD~1', ALLOWED),
  c('A=1 B=2 git remote -v', ALLOWED),
  not('CI=1 git stash drop'),
  not('CI=1 git stash clear'),
]);
