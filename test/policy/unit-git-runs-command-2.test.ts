// gitRunsCommand(), rows from the Stryker survivors of git-runs-command.ts (80.63% at d272de4):
// only the listed letters and words run a command. A subcommand whose table row has no short
// letter runs nothing for any short option (`git fetch -a`, `git pull -r`, `git push -u`), and
// each long option and word of a row is named (`git maintenance stop`, `git send-email
// --header-cmd`). The survivors left are equivalent: an empty word or long-option list mutated to
// one fake entry that no git word spells, and bounds that cannot move (`at` is never 0).
import { describe, expect, it } from 'vitest';
import { gitRunsCommand } from '../../src/policy/git-runs-command.ts';

const words = (command: string): string[] => command.split(' ');

describe('issue 9: short options of subcommands without a command letter run nothing', () => {
  it.each([
    'git bisect start -h',
    'git submodule update -r',
    'git filter-branch -f HEAD',
    'git fetch -a -t origin',
    'git pull -r --rebase origin',
    'git init -q --bare x',
    'git init-db -q x',
    'git maintenance run -q',
    'git apply -R --whitespace=fix x.patch',
    'git send-email -a x.patch',
    'git ls-remote -h -t origin',
    'git archive -v HEAD',
    'git push -u -f origin main',
    'git send-pack -v origin',
    'git fetch-pack -k -q origin',
    'git bisect start -S -t -r -y -k -e -w -a -s -h',
  ])('%s -> null', (command) => {
    expect(gitRunsCommand(words(command))).toBeNull();
  });
});

describe('issue 9: every long option and word of a row is named', () => {
  it.each([
    ['git maintenance stop', 'git maintenance stop'],
    ['git maintenance unregister', 'git maintenance unregister'],
    ['git maintenance start', 'git maintenance start'],
    ['git send-email --smtp-server=/tmp/x a.patch', 'git send-email --smtp-server'],
    ['git send-email --to-cmd=./x a.patch', 'git send-email --to-cmd'],
    ['git send-email --cc-cmd=./x a.patch', 'git send-email --cc-cmd'],
    ['git send-email --header-cmd=./x a.patch', 'git send-email --header-cmd'],
    ['git push --receive-pack=./x origin', 'git push --receive-pack'],
    ['git push --exec=./x origin', 'git push --exec'],
    ['git send-pack --receive-pack=./x origin', 'git send-pack --receive-pack'],
    ['git fetch-pack --exec=./x origin', 'git fetch-pack --exec'],
    ['git instaweb -d ./x', 'git instaweb -d'],
    ['git clone -u ./x origin', 'git clone -u'],
    ['git clone --separate-git-dir=../g origin', 'git clone --separate-git-dir'],
    ['git init --separate-git-dir=../g', 'git init --separate-git-dir'],
    ['git init-db --template=../t', 'git init-db --template'],
  ])('%s -> %s', (command, name) => {
    expect(gitRunsCommand(words(command))).toBe(name);
  });
});

// From the survivors at e962915 (84.68%): the words before the subcommand are git's own, and a
// long option is its whole name before `=`, so a longer word is another option.
describe('issue 9: only the words after the subcommand are its options', () => {
  it.each([
    // `-C DIR` and `-c NAME=VALUE` take the next word, whatever it looks like.
    'git -C -x rebase main',
    'git -C -u clone url',
    'git -C -d instaweb',
    'git -c -O grep x',
    'git -C -c clone url',
    'git -C --exec push origin',
    'git -C --upload-pack fetch origin',
    'git --git-dir -x difftool',
  ])('%s -> null', (command) => {
    expect(gitRunsCommand(words(command))).toBeNull();
  });
});

describe('issue 9: a long option is named by its whole name before `=`', () => {
  it.each([
    ['git archive --execx HEAD', null],
    ['git push --receive-packs origin', null],
    ['git clone --templatex=a url', null],
    ['git fetch --upload-packs=x origin', null],
    ['git archive --exec=x HEAD', 'git archive --exec'],
    ['git rebase --exec=make main', 'git rebase --exec'],
    ['git clone --templ=../t url', 'git clone --templ'],
    ['git fetch --upload-pack=./x origin', 'git fetch --upload-pack'],
    ['git rebase -ix make main', 'git rebase -x'],
    ['git clone -qu ./x url', 'git clone -u'],
  ])('%s -> %s', (command, name) => {
    expect(gitRunsCommand(words(command))).toBe(name);
  });
});
