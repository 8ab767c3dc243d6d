// DESIGN fail-closed extras: git configuration smuggled in by `git config` writes and by the
// environment (git-config.ts). Exact results of its exported functions, and the decisions every
// sensitive key and variable changes in auto mode (where nothing else would ask).
import { describe, expect, it } from 'vitest';
import { gitConfigWrite, gitEnvironmentOverride, isSensitiveGitKey } from '../../src/policy/git-config.ts';
import { AUTO, auto, ask, c, runCases } from './adversarial-harness.ts';

const words = (command: string): string[] => (command === '' ? [] : command.split(' '));
const G = ask('git_config_override');
const FREE = auto('agent_autonomy_auto_approve');

describe('isSensitiveGitKey: keys that make git run or reach something else', () => {
  it.each([
    // Whole sections.
    'alias.p',
    'ALIAS.P',
    'include.path',
    'includeIf.gitdir:~/x/.path',
    'url.https://evil/.insteadOf',
    'filter.lfs.clean',
    'credential.helper',
    'credential.https://x.helper',
    'pager.log',
    // section.name, sub-sections dropped, case-folded.
    'core.hooksPath',
    'core.sshCommand',
    'core.pager',
    'core.editor',
    'core.fsmonitor',
    'core.gitProxy',
    'core.askPass',
    'core.worktree',
    'core.alternateRefsCommand',
    'sequence.editor',
    'diff.external',
    'gpg.program',
    'uploadpack.packObjectsHook',
    'remote.origin.url',
    'remote.origin.pushurl',
    'remote.origin.uploadpack',
    'remote.origin.receivepack',
    'remote.origin.vcs',
    'remote.origin.proxy',
    'Remote.Origin.PushURL',
    'diff.pdf.textconv',
    'diff.pdf.command',
    'merge.ours.driver',
  ])('%s -> true', (key) => {
    expect(isSensitiveGitKey(key)).toBe(true);
  });

  it.each(['user.name', 'core.filemode', 'alias', '.alias', 'aliasx.p', 'remote.origin.fetch', 'diff.pdf.binary', ''])(
    '%j -> false',
    (key) => {
      expect(isSensitiveGitKey(key)).toBe(false);
    },
  );
});

describe('gitConfigWrite: a write of a sensitive key, a write outside the repository, an editor', () => {
  it.each([
    ['git config alias.p push', 'git config alias.p'],
    ['git config set alias.p push', 'git config alias.p'],
    ['git config --add alias.p push', 'git config alias.p'],
    ['git config --replace-all core.pager less', 'git config core.pager'],
    ['git config --unset alias.p', 'git config alias.p'],
    ['git config --unset-all alias.p', 'git config alias.p'],
    ['git config unset alias.p', 'git config alias.p'],
    ['git -C x config core.hooksPath h', 'git config core.hooksPath'],
    ['/usr/bin/git config core.pager less', 'git config core.pager'],
    ['git config --type bool core.pager x', 'git config core.pager'],
    ['git config --comment why alias.p push', 'git config alias.p'],
    ['git config --value=x alias.p push', 'git config alias.p'],
    ['git config --get --add alias.p push', 'git config alias.p'],
    ['git config -e', 'git config --edit'],
    ['git config --edit', 'git config --edit'],
    ['git config edit', 'git config --edit'],
    ['git config --global user.name x', 'git config --global'],
    ['git config --system a.b c', 'git config --system'],
    ['git config --file x user.name y', 'git config --file'],
    ['git config --file=x user.name y', 'git config --file'],
    ['git config -f x user.name y', 'git config -f'],
    ['git config -fx user.name y', 'git config -f'],
  ])('%s -> %s', (command, what) => {
    expect(gitConfigWrite(words(command))).toBe(what);
  });

  it.each([
    'git config user.name x',
    'git config set user.name x',
    'git config --add user.name x',
    'git config --unset user.name',
    'git config alias.p',
    'git config --get alias.p',
    'git config --get-all alias.p',
    'git config --get-regexp alias',
    'git config --get-urlmatch http.proxy https://x',
    'git config -l',
    'git config --list --global',
    'git config --get-color color.diff.new red',
    'git config --get-colorbool color.diff',
    'git config get alias.p',
    'git config list',
    'git config get-color a',
    'git config get-colorbool a',
    'git config --blob HEAD:x a.b',
    'git config --default x a.b',
    'git config --file x --get alias.p',
    'git config',
    'git status alias.p push',
    'git --frobnicate config alias.p push',
    'gitx config alias.p push',
    '',
  ])('%j -> null', (command) => {
    expect(gitConfigWrite(words(command))).toBeNull();
  });
});

describe('gitEnvironmentOverride: variables that change what later git commands do', () => {
  it.each([
    ['GIT_DIR=x git status', 'GIT_DIR'],
    ['FOO=1 GIT_PAGER=less git log', 'GIT_PAGER'],
    ['env GIT_DIR=x git status', 'GIT_DIR'],
    ['/usr/bin/env -i GIT_SSH=x git fetch', 'GIT_SSH'],
    ['export GIT_CONFIG_COUNT=1', 'GIT_CONFIG_COUNT'],
    ['declare -x GIT_EDITOR=vim', 'GIT_EDITOR'],
    ['typeset GIT_DIR=x', 'GIT_DIR'],
    ['local GIT_DIR=x', 'GIT_DIR'],
    ['readonly GIT_DIR=x', 'GIT_DIR'],
    ['GIT_CONFIG_KEY_0=alias.p git p', 'GIT_CONFIG_KEY_0'],
    ['GIT_CONFIG_VALUE_3=push git p', 'GIT_CONFIG_VALUE_3'],
    ['GIT_CONFIGX=1 git status', 'GIT_CONFIGX'],
    ['GIT_TRACE=/tmp/t git status', 'GIT_TRACE'],
  ])('%s -> %s', (command, name) => {
    expect(gitEnvironmentOverride(words(command))).toBe(name);
  });

  it.each([
    'GIT_AUTHOR_NAME=x git commit',
    'GIT_TRACE=1 git status',
    'echo GIT_DIR=x',
    'FOO=1 echo GIT_DIR=x',
    'printf GIT_DIR=x',
    'git status',
    'env',
    '',
  ])('%j -> null', (command) => {
    expect(gitEnvironmentOverride(words(command))).toBeNull();
  });
});

// Every variable by its effect on a decision: the same command without it is auto-approved.
runCases('git environment variables are never auto-approved, even in auto mode', AUTO, [
  c('git status', auto()),
  ...[
    'GIT_CONFIG',
    'GIT_CONFIG_COUNT',
    'GIT_CONFIG_PARAMETERS',
    'GIT_CONFIG_GLOBAL',
    'GIT_CONFIG_SYSTEM',
    'GIT_EXEC_PATH',
    'GIT_SSH_COMMAND',
    'GIT_SSH',
    'GIT_ASKPASS',
    'SSH_ASKPASS',
    'GIT_EDITOR',
    'GIT_SEQUENCE_EDITOR',
    'GIT_PAGER',
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_EXTERNAL_DIFF',
    'GIT_PROXY_COMMAND',
    'GIT_TEMPLATE_DIR',
  ].map((name) => c(`${name}=/tmp/x git status`, G)),
]);

runCases('git config writes of sensitive keys are never auto-approved, even in auto mode', AUTO, [
  c('git config user.name x', FREE),
  c('git config core.filemode false', FREE),
  ...[
    'alias.p',
    'include.path',
    'includeif.onbranch:main.path',
    'url.https://evil/.insteadof',
    'filter.x.smudge',
    'credential.helper',
    'pager.log',
    'core.hookspath',
    'core.sshcommand',
    'core.pager',
    'core.editor',
    'core.fsmonitor',
    'core.gitproxy',
    'core.askpass',
    'core.worktree',
    'core.alternaterefscommand',
    'sequence.editor',
    'diff.external',
    'gpg.program',
    'uploadpack.packobjectshook',
    'remote.origin.url',
    'remote.origin.pushurl',
    'remote.origin.uploadpack',
    'remote.origin.receivepack',
    'remote.origin.vcs',
    'remote.origin.proxy',
    'diff.pdf.textconv',
    'diff.pdf.command',
    'merge.ours.driver',
  ].map((key) => c(`git config ${key} /tmp/x`, G)),
  c('git config --global user.name x', G),
  c('git config --edit', G),
]);

// Found by this suite: a section renamed into a sensitive one gains its keys (`git config
// foo.hookspath /tmp/h`, then `git config --rename-section foo core` sets core.hookspath, checked
// with git 2.39), and GIT_COMMON_DIR moves where git reads its config from like GIT_DIR does. Both
// were auto-approved in auto mode.
runCases('a section renamed into a sensitive one, and GIT_COMMON_DIR, are never auto-approved', AUTO, [
  c('git config --rename-section foo core', G),
  c('git config rename-section foo core', G),
  c('git config --rename-section foo CORE', G),
  c('git config --rename-section foo alias', G),
  c('git config --rename-section foo remote.origin', G),
  c('git config --rename-section foo url.https://evil/', G),
  c('git config --rename-section foo include', G),
  c('git config --rename-section foo diff.pdf', G),
  c('git config --rename-section foo pager', G),
  c('git config --rename-section foo credential', G),
  c('git -C sub config --rename-section foo core', G),
  c('GIT_COMMON_DIR=/tmp/evil git status', G),
  c('env GIT_COMMON_DIR=/tmp/evil git log', G),
  c('export GIT_COMMON_DIR=/tmp/evil', G),
  c('git config --rename-section foo bar', FREE),
  c('git config --rename-section alias old-aliases', FREE),
  c('git config --remove-section foo', FREE),
]);
