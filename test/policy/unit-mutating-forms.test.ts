// exactPatternCovers (mutating-forms.ts), spelling by spelling: an exact allow pattern covers a
// longer fragment of a subcommand with destructive forms only when every mutating form of the
// fragment is also a form of the pattern's own tokens (issue 9, attacked after A; the spec's
// pre-seed anchors `git branch -v`, `git remote -v`, `git worktree list`, `git config --get`).
// Each row is a pattern, a fragment it is a token prefix of, and whether the pattern covers it.
// Rows that pair two spellings of one form (`-d` and `--delete`) show that the table reads both
// as the same form: the pattern with one spelling covers the fragment that adds the other.
import { describe, expect, it } from 'vitest';
import { exactPatternCovers } from '../../src/policy/mutating-forms.ts';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, terminalInput } from './adversarial-harness.ts';

type Row = readonly [pattern: string, fragment: string, covers: boolean];

const words = (s: string): string[] => s.split(' ');

function table(title: string, rows: readonly Row[]): void {
  describe(title, () => {
    for (const [pattern, fragment, covers] of rows) {
      it(`Terminal(${pattern}) ${covers ? 'covers' : 'does not cover'} ${fragment}`, () => {
        expect(exactPatternCovers(words(pattern), words(fragment))).toBe(covers);
      });
    }
  });
}

table('issue 9 A: git branch reads -d/-D, -m/-M, -c/-C, -f, -u/-t and list options as forms', [
  // Two spellings of one form: the pattern's spelling covers the other one.
  ['git branch --delete', 'git branch --delete -d old', true],
  ['git branch --delete', 'git branch --delete -D old', true],
  ['git branch -d', 'git branch -d --delete old', true],
  ['git branch --move', 'git branch --move -m a b', true],
  ['git branch --move', 'git branch --move -M a b', true],
  ['git branch -m', 'git branch -m --move a b', true],
  ['git branch --copy', 'git branch --copy -c a b', true],
  ['git branch --copy', 'git branch --copy -C a b', true],
  ['git branch -c', 'git branch -c --copy a b', true],
  ['git branch --force', 'git branch --force -f', true],
  ['git branch -f', 'git branch -f --force', true],
  ['git branch --track', 'git branch --track -u origin/x', true],
  ['git branch --track', 'git branch --track -t origin/x', true],
  ['git branch -u', 'git branch -u --set-upstream-to origin/x', true],
  ['git branch -u', 'git branch -u --set-upstream-to=origin/x', true],
  ['git branch -u', 'git branch -u --set-upstream origin/x', true],
  ['git branch -u', 'git branch -u --unset-upstream', true],
  ['git branch -u', 'git branch -u --track origin/x', true],
  ['git branch -u', 'git branch -u --no-track origin/x', true],
  // A form the pattern lacks.
  ['git branch -v', 'git branch -v -d old', false],
  ['git branch -v', 'git branch -v --move a b', false],
  ['git branch -v', 'git branch -v -c a b', false],
  ['git branch -v', 'git branch -v --unset-upstream', false],
  ['git branch -v', 'git branch -v --edit-description', false],
  ['git branch -v', 'git branch -v --force', false],
  ['git branch -v', 'git branch -v -vf', false],
  ['git branch --delete', 'git branch --delete --force old', false],
  // A word outside list mode creates a branch; in list mode it is a pattern.
  ['git branch -v', 'git branch -v newname', false],
  ['git branch -v', 'git branch -v -', false],
  ['git branch', 'git branch -l feat', true],
  ['git branch', 'git branch -a feat', true],
  ['git branch', 'git branch -r origin/feat', true],
  ['git branch', 'git branch -vl feat', true],
  ['git branch', 'git branch --list feat', true],
  ['git branch', 'git branch --all feat', true],
  ['git branch', 'git branch --remotes origin/feat', true],
  ['git branch', 'git branch --contains HEAD', true],
  ['git branch', 'git branch --no-contains HEAD', true],
  ['git branch', 'git branch --merged main', true],
  ['git branch', 'git branch --no-merged main', true],
  ['git branch', 'git branch --points-at HEAD', true],
  ['git branch', 'git branch --show-current x', true],
  // An action with a word is that action, not a create.
  ['git branch -d', 'git branch -d old', true],
  ['git branch -m', 'git branch -m old new', true],
  ['git branch -c', 'git branch -c old new', true],
  ['git branch -u', 'git branch -u origin/x', true],
  ['git branch -f', 'git branch -f main', false],
  ['git branch -f main', 'git branch -f main HEAD~3', true],
  // An option git branch does not act on is no form.
  ['git branch', 'git branch --no-color', true],
  ['/usr/bin/git branch -v', '/usr/bin/git branch -v -D main', false],
]);

table('issue 9 A: git tag reads -d, -f, list, verify and annotate options as forms', [
  ['git tag --delete', 'git tag --delete -d v1', true],
  ['git tag -d', 'git tag -d --delete v1', true],
  ['git tag --force v1', 'git tag --force v1 -f', true],
  ['git tag -f v1', 'git tag -f v1 --force', true],
  ['git tag v1', 'git tag v1 -f', false],
  ['git tag v1', 'git tag v1 -d', false],
  // List and verify modes read: their words name tags, none is created.
  ['git tag', 'git tag -l v*', true],
  ['git tag', 'git tag -n v*', true],
  ['git tag', 'git tag --list v*', true],
  ['git tag', 'git tag --contains HEAD', true],
  ['git tag', 'git tag --no-contains HEAD', true],
  ['git tag', 'git tag --merged main', true],
  ['git tag', 'git tag --no-merged main', true],
  ['git tag', 'git tag --points-at HEAD', true],
  ['git tag', 'git tag -v v1', true],
  ['git tag', 'git tag --verify v1', true],
  ['git tag', 'git tag v1', false],
  // Annotating spellings are one form.
  ['git tag -a v1', 'git tag -a v1 -s', true],
  ['git tag -a v1', 'git tag -a v1 -m msg', true],
  ['git tag -a v1', 'git tag -a v1 -F notes.txt', true],
  ['git tag -a v1', 'git tag -a v1 -u key', true],
  ['git tag -s v1', 'git tag -s v1 -a', true],
  ['git tag -a v1', 'git tag -a v1 --annotate', true],
  ['git tag -a v1', 'git tag -a v1 --sign', true],
  ['git tag -a v1', 'git tag -a v1 --message=msg', true],
  ['git tag -a v1', 'git tag -a v1 --file notes.txt', true],
  ['git tag -a v1', 'git tag -a v1 --local-user key', true],
  ['git tag v1', 'git tag v1 -a', false],
]);

table('issue 9 A: git remote, worktree and stash: the action word is the form, reads are none', [
  ['git remote -v', 'git remote -v show origin', true],
  ['git remote -v', 'git remote -v get-url origin', true],
  ['git remote -v', 'git remote -v add x https://example.invalid/r.git', false],
  ['git remote -v', 'git remote -v update', false],
  ['git remote show', 'git remote show origin', true],
  ['git worktree', 'git worktree list --porcelain', true],
  ['git worktree', 'git worktree -q list', true],
  ['git worktree', 'git worktree remove ../x', false],
  ['git worktree', 'git worktree lock ../x', false],
  ['git remote', 'git remote push x', false],
  ['git stash', 'git stash list', true],
  ['git stash', 'git stash show -p', true],
  ['git stash', 'git stash drop', false],
  // `git stash` alone is `git stash push`: the pattern covers the push it spells out.
  ['git stash', 'git stash push -m wip', true],
  ['git stash list', 'git stash list push', true],
  ['git stash show', 'git stash show push', true],
  ['git stash list', 'git stash list --stat', true],
]);

table('issue 9 A: git config: a write option or word, or a name with a value, is a form', [
  ['git config --get', 'git config --get user.name', true],
  ['git config --get', 'git config --get remote.origin.url x', true],
  ['git config', 'git config user.name', true],
  ['git config', 'git config --global user.name', true],
  ['git config --unset', 'git config --unset a.b x', true],
  ['git config', 'git config user.name Ann', false],
  ['git config', 'git config get=x y', false],
  ['git config a.b c', 'git config a.b c edit', true],
  // Each read option or word keeps a name and a value pattern a read.
  ['git config', 'git config --get a.b x', true],
  ['git config', 'git config --get-all a.b x', true],
  ['git config', 'git config --get-regexp a.b x', true],
  ['git config', 'git config --get-urlmatch http https://x', true],
  ['git config', 'git config --list a b', true],
  ['git config', 'git config -l a b', true],
  ['git config', 'git config get a.b x', true],
  ['git config', 'git config list a b', true],
  // Each write option past a read is a write.
  ['git config --get', 'git config --get --add user.name x', false],
  ['git config --get', 'git config --get --replace-all user.name x', false],
  ['git config --get', 'git config --get --unset user.name', false],
  ['git config --get', 'git config --get --unset=user.name', false],
  ['git config --get', 'git config --get --unset-all user.name', false],
  ['git config --get', 'git config --get --rename-section a b', false],
  ['git config --get', 'git config --get --remove-section a', false],
  ['git config --get', 'git config --get --edit', false],
  ['git config --get', 'git config --get -e', false],
  ['git config --unset', 'git config --unset user.name', true],
  // The write words of git 2.46 (`git config set`), as the first word only.
  ['git config set', 'git config set user.name Ann', true],
  ['git config unset', 'git config unset user.name', true],
  ['git config rename-section', 'git config rename-section a', true],
  ['git config remove-section', 'git config remove-section a', true],
  ['git config edit', 'git config edit --global', true],
  ['git config', 'git config edit', false],
  ['git config', 'git config set', false],
]);

table('issue 9 A: other subcommands with destructive forms: generic options and words', [
  ['git reset HEAD', 'git reset HEAD --hard', false],
  ['git reset HEAD', 'git reset HEAD src/a.ts', true],
  ['git checkout main', 'git checkout main --force', false],
  ['git checkout main', 'git checkout main --quiet', true],
  ['git gc', 'git gc --prune=now', false],
  ['git gc', 'git gc --auto', true],
  ['git rebase main', 'git rebase main --exec make', false],
  ['git symbolic-ref', 'git symbolic-ref --delete HEAD', false],
  ['git submodule status', 'git submodule status --recursive', false],
  ['git restore --staged', 'git restore --staged --worktree .', false],
  ['git restore --staged', 'git restore --staged -W .', false],
  ['git restore --worktree', 'git restore --worktree -W .', true],
  ['docker system df', 'docker system df --all', false],
  ['docker image ls', 'docker image ls --move', false],
  ['helm status web', 'helm status web --purge', false],
  // One short letter is one form in either case.
  ['git clean -fdxr', 'git clean -fdxr -D', true],
  ['git clean -fdxr', 'git clean -fdxr -F', true],
  ['git clean -fdxr', 'git clean -fdxr -X', true],
  ['git clean -fdxr', 'git clean -fdxr -R', true],
  ['git clean -FDXR', 'git clean -FDXR -d', true],
  ['git clean -FDXR', 'git clean -FDXR -f', true],
  ['git clean -FDXR', 'git clean -FDXR -x', true],
  ['git clean -FDXR', 'git clean -FDXR -r', true],
  ['git clean -n', 'git clean -n -d', false],
  ['git clean -n', 'git clean -n -nx', false],
  ['git clean -n', 'git clean -n -', true],
  // A mutating word, from each part of the list.
  ['git lfs ls-files', 'git lfs ls-files prune', false],
  ['git submodule status', 'git submodule status deinit', false],
  ['npm cache ls', 'npm cache ls clean', false],
  ['docker compose ps', 'docker compose ps restart', false],
  ['docker compose ps', 'docker compose ps destroy', false],
  ['brew services list', 'brew services list stop', false],
  ['cargo owner --list', 'cargo owner --list yank', false],
  ['gh repo view', 'gh repo view untap', false],
  ['docker compose ps', 'docker compose ps web', true],
]);

table('issue 9 A: where the rule does not apply', [
  ['git branch:*', 'git branch -D main', true],
  ['git branch -v', 'git branch -v', true],
  ['git', 'git branch -D main', true],
  ['docker', 'docker rm -f api', true],
  ['git --no-pager', 'git --no-pager --bare', true],
  // git's subcommand is past its global options; another CLI's is its first word.
  ['git -C x branch -v', 'git -C x branch -v -D main', false],
  ['docker --context x rm', 'docker --context x rm -f api', false],
  ['git log', 'git log --all', true],
  ['npm test', 'npm test --force', true],
  ['docker config ls', 'docker config ls --force', false],
]);

it('issue 9 A: a pattern with no words (permissions.json never yields one) names no subcommand: it covers', () => {
  expect(exactPatternCovers([], words('git branch -D main'))).toBe(true);
});

describe('issue 9 A: decide() with the exact presets', () => {
  const permissions = { ...MANUAL.permissions, allow: ['Terminal(git branch -v)', 'Terminal(docker system df)'] };
  const rows: readonly (readonly [string, string])[] = [
    ['git branch -v', 'auto_approve'],
    ['git branch -v -l feat', 'auto_approve'],
    ['git branch -v -D main', 'require_approval'],
    ['docker system df -v', 'auto_approve'],
    ['docker system df --all', 'require_approval'],
  ];
  for (const [command, policy] of rows) {
    it(`${command} -> ${policy}`, () => {
      expect(decide(terminalInput(MANUAL, { command, permissions })).policy).toBe(policy);
    });
  }
});
