// Git subcommands that run a command named on their own command line: with git allowed
// (Terminal(git:*), Terminal(git rebase:*)), `git rebase -x 'cat ../secret' main` ran a command
// the engine never read, so the path scope and every ceiling were bypassed. Such a command now
// asks, named (git_config_override); the same subcommands without it stay auto-approved.
import { MANUAL, ask, auto, c, runCases } from './adversarial-harness.ts';

const SETUP = {
  ...MANUAL,
  label: 'git allowed',
  permissions: { allow: ['Terminal(git:*)', 'Terminal(git rebase:*)'], deny: [], ask: [] },
};
const ASKS = ask('git_config_override');
const ALLOWED = auto('permissions_allow');

runCases('git subcommands that run a command they are given never auto-approve', SETUP, [
  c("git rebase -x 'cat ../secret' main", ASKS),
  c("git rebase --exec 'cat ../secret' main", ASKS),
  c("git rebase --exec='sh -c id' main", ASKS),
  c("git rebase --exe 'id' main", ASKS, { note: 'GNU-style prefix' }),
  c("git rebase -ix 'id' main", ASKS),
  c("git -C . rebase -x 'id' main", ASKS),
  c("git bisect run sh -c 'cat ../s'", ASKS),
  c("git difftool -x 'sh -c id' a", ASKS),
  c("git difftool --extcmd='id' a", ASKS),
  c("git grep -O'cat ../s' x", ASKS),
  c('git grep -Oid x', ASKS),
  c('git grep --open-files-in-pager=id x', ASKS),
  c("git submodule foreach 'cat ../s'", ASKS),
  c("git filter-branch --tree-filter 'rm -rf ../x' HEAD", ASKS),
  c("git archive --exec='id' HEAD", ASKS),
  c("git rebase -i --exec 'id' main", ASKS),
]);

runCases('the same subcommands without a command stay auto-approved', SETUP, [
  c('git rebase main', ALLOWED),
  c('git rebase -i main', ALLOWED),
  c('git grep -n TODO', ALLOWED),
  c('git difftool --tool-help', ALLOWED),
  c('git bisect start', ALLOWED),
]);
