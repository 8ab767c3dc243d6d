// RN-675 / issue 15.7: "Always allow" on a subcommand that has destructive forms keeps the exact
// fragment. The unit `Terminal(git branch)`, written for `git branch -a`, would also let
// `git branch -D main` through (token prefix); the pre-seed section warns about this pattern.
import { describe, expect, it } from 'vitest';
import { patternsForAction } from '../../src/policy/index.ts';
import { allowing, term } from './unit-fixtures.ts';

const written = (command: string): string[] => {
  const plan = patternsForAction('terminal', { command });
  if (plan.kind !== 'patterns') throw new Error(`${command}: refused (${plan.message})`);
  return plan.patterns;
};

// [clicked, what the click writes, a destructive form the written pattern must not allow]
const CASES: Array<[string, string, string]> = [
  ['git branch -a', 'Terminal(git branch -a)', 'git branch -D main'],
  ['git branch --list', 'Terminal(git branch --list)', 'git branch -M main old'],
  ['git tag --list', 'Terminal(git tag --list)', 'git tag -d v1.0'],
  ['git tag v1.0', 'Terminal(git tag v1.0)', 'git tag -f v2.0'],
  ['git remote show origin', 'Terminal(git remote show origin)', 'git remote remove origin'],
  ['git stash list', 'Terminal(git stash list)', 'git stash clear'],
  ['git stash show', 'Terminal(git stash show)', 'git stash drop'],
  ['git worktree list', 'Terminal(git worktree list)', 'git worktree remove ../wt'],
  ['git config user.name', 'Terminal(git config user.name)', 'git config --unset-all user.name'],
  ['git reflog show', 'Terminal(git reflog show)', 'git reflog expire --expire=now --all'],
  ['git notes list', 'Terminal(git notes list)', 'git notes prune'],
  ['git checkout feature/x', 'Terminal(git checkout feature/x)', 'git checkout -- .'],
  ['git clean -n', 'Terminal(git clean -n)', 'git clean -fdx'],
  ['docker image ls', 'Terminal(docker image ls)', 'docker image prune -af'],
  ['docker volume ls', 'Terminal(docker volume ls)', 'docker volume rm data'],
  ['docker system df', 'Terminal(docker system df)', 'docker system prune -af --volumes'],
  ['docker network ls', 'Terminal(docker network ls)', 'docker network prune -f'],
  ['docker ps -a', 'Terminal(docker ps -a)', 'docker rm -f web'],
  ['kubectl config view', 'Terminal(kubectl config view)', 'kubectl config delete-context prod'],
  ['kubectl config current-context', 'Terminal(kubectl config current-context)', 'kubectl config unset users.admin'],
  ['npm cache ls', 'Terminal(npm cache ls)', 'npm cache clean --force'],
  ['npm config list', 'Terminal(npm config list)', 'npm config delete registry'],
  ['npm pkg get name', 'Terminal(npm pkg get name)', 'npm pkg delete scripts'],
  ['pnpm store path', 'Terminal(pnpm store path)', 'pnpm store prune'],
  ['yarn cache dir', 'Terminal(yarn cache dir)', 'yarn cache clean'],
  ['pip cache list', 'Terminal(pip cache list)', 'pip cache purge'],
  ['go env GOPATH', 'Terminal(go env GOPATH)', 'go env -w GOPROXY=off'],
  ['brew services list', 'Terminal(brew services list)', 'brew services stop postgresql'],
];

describe('RN-675 always-allow keeps the exact fragment of subcommands with destructive forms (issue 15.7)', () => {
  it.each(CASES)('RN-675 %s writes %s, which does not allow %s', (clicked, pattern, destructive) => {
    expect(written(clicked)).toEqual([pattern]);
    expect(term(destructive, allowing(pattern)).policy).not.toBe('auto_approve');
  });

  it.each(CASES.filter(([clicked]) => !clicked.startsWith('docker') && !clicked.startsWith('kubectl')))(
    'RN-675 %s: the written pattern still lets the clicked command through next time',
    (clicked, pattern) => {
      expect(term(clicked, allowing(pattern)).policy).toBe('auto_approve');
    },
  );

  it.each(['git branch', 'git tag', 'git stash', 'git worktree', 'git remote', 'docker image', 'npm cache'])(
    'RN-675 the bare unit "%s" writes nothing (it would be the prefix of its destructive forms)',
    (clicked) => {
      expect(written(clicked)).toEqual([]);
    },
  );

  it.each([
    ['git status', 'Terminal(git status)'],
    ['git log --oneline', 'Terminal(git log)'],
    ['npm test', 'Terminal(npm test)'],
    ['cargo test --all', 'Terminal(cargo test)'],
    ['go test ./...', 'Terminal(go test)'],
  ])('RN-675 %s still gets its unit %s (no destructive forms)', (clicked, pattern) => {
    expect(written(clicked)).toEqual([pattern]);
  });

  it('RN-675 in a compound, only the fragment with destructive forms stays exact', () => {
    expect(written('cd src/app && git branch -a && npm test')).toEqual([
      'Terminal(cd)',
      'Terminal(git branch -a)',
      'Terminal(npm test)',
    ]);
  });
});
