// Git subcommands that run a command given on their own command line (git-runs-command.ts), by the
// exact name gitRunsCommand() gives, and the decisions they change in auto mode.
import { describe, expect, it } from 'vitest';
import { gitRunsCommand } from '../../src/policy/git-runs-command.ts';
import { AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';

const words = (command: string): string[] => (command === '' ? [] : command.split(' '));

describe('gitRunsCommand: the option or word that runs a command', () => {
  it.each([
    ['git rebase -x make main', 'git rebase -x'],
    ['git rebase -ix make main', 'git rebase -x'],
    ['git rebase --exec=make main', 'git rebase --exec'],
    ['git rebase --exe make', 'git rebase --exe'],
    ['git rebase --ex make', 'git rebase --ex'],
    ['git bisect run make', 'git bisect run'],
    ['git difftool -x meld', 'git difftool -x'],
    ['git difftool --extcmd=meld', 'git difftool --extcmd'],
    ['git grep -O foo', 'git grep -O'],
    ['git grep -nOvim foo', 'git grep -O'],
    ['git grep --open-files-in-pager foo', 'git grep --open-files-in-pager'],
    ['git grep --open x', 'git grep --open'],
    ['git submodule foreach ls', 'git submodule foreach'],
    ['git submodule --quiet foreach ls', 'git submodule foreach'],
    ['git filter-branch --env-filter x', 'git filter-branch --env-filter'],
    ['git filter-branch --tree-filter x', 'git filter-branch --tree-filter'],
    ['git filter-branch --index-filter x', 'git filter-branch --index-filter'],
    ['git filter-branch --msg-filter=x', 'git filter-branch --msg-filter'],
    ['git filter-branch --commit-filter x', 'git filter-branch --commit-filter'],
    ['git filter-branch --parent-filter x', 'git filter-branch --parent-filter'],
    ['git filter-branch --tag-name-filter cat', 'git filter-branch --tag-name-filter'],
    ['git fetch --upload-pack=x', 'git fetch --upload-pack'],
    ['git pull --upload-pack x', 'git pull --upload-pack'],
    ['git clone -u x r', 'git clone -u'],
    ['git clone --upload-pack x r', 'git clone --upload-pack'],
    ['git clone --template=x r', 'git clone --template'],
    ['git ls-remote --upload-pack=x', 'git ls-remote --upload-pack'],
    ['git archive --exec=x', 'git archive --exec'],
    ['git push --receive-pack=x', 'git push --receive-pack'],
    ['git push --exec=x', 'git push --exec'],
    ['git push --rec=x', 'git push --rec'],
    ['git send-pack --receive-pack=x', 'git send-pack --receive-pack'],
    ['git send-pack --exec=x', 'git send-pack --exec'],
    ['git -C d rebase -x make', 'git rebase -x'],
    ['/usr/bin/git rebase -x m', 'git rebase -x'],
  ])('%s -> %s', (command, what) => {
    expect(gitRunsCommand(words(command))).toBe(what);
  });

  it.each([
    'git rebase -i main',
    'git rebase --e make',
    'git rebase --execute',
    'git rebase -- -x',
    'git rebase main -- --exec=x',
    'git bisect start',
    'git grep -o foo',
    'git submodule update',
    'git clone -q r',
    'git fetch -u origin',
    'git status -x',
    'git log --exec=x',
    'git --frobnicate rebase -x m',
    'git',
    'ls -x',
    'gitx rebase -x m',
    '',
  ])('%j -> null', (command) => {
    expect(gitRunsCommand(words(command))).toBeNull();
  });
});

const G = ask('git_config_override');
// Found by this suite: `git fetch-pack --upload-pack=CMD` and `git instaweb --httpd=CMD` (git help
// instaweb: "the HTTP daemon command-line that will be executed") run CMD like the rows above, and
// were auto-approved in auto mode.
runCases('git fetch-pack and git instaweb run the command they are given', AUTO, [
  c("git fetch-pack --upload-pack='sh -c id' origin", G),
  c('git fetch-pack --upload-pack evil origin', G),
  c('git fetch-pack --upload=evil origin', G),
  c('git fetch-pack --exec=evil origin', G),
  c('git -C sub fetch-pack --exec evil origin', G),
  c("git instaweb --httpd='sh -c id' --start", G),
  c('git instaweb --httpd evil', G),
  c('git instaweb --http=evil', G),
  c('git instaweb -d evil --start', G),
  c('git instaweb -ld evil', G),
  c('git instaweb --local -d evil', G),
  c('git --no-pager instaweb -d evil', G),
  c('git fetch-pack --all origin', auto('agent_autonomy_auto_approve')),
  c('git instaweb --stop', auto('agent_autonomy_auto_approve')),
]);
