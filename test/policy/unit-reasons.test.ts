// The sentence stored in events and shown to people for each decision (RN-567, RN-614): what a
// person reads in the approval card and the session log. First through decide(), then
// renderReason() alone for the details decide() always fills (the fallbacks are what an event
// written with a missing detail would still show).
import { describe, expect, it } from 'vitest';
import { renderReason } from '../../src/policy/index.ts';
import type { ReasonCode } from '../../src/policy/index.ts';
import { allowing, perms, term, typed } from './unit-fixtures.ts';

// Each row decides inside its test: a decision made while the rows are collected would count,
// for mutation testing, as code every test runs.
describe('RN-567 decide() names its rule in one sentence', () => {
  it.each([
    [
      'iam (RN-005)',
      () => typed('git_push', {}, { role: 'developer' }),
      'iam: role developer is below the minimum maintainer for git_push',
    ],
    [
      'iam, spend is owner',
      () => typed('spend', {}, { role: 'maintainer' }),
      'iam: role maintainer is below the minimum owner for spend',
    ],
    ['no rule', () => typed('git_commit'), 'no rule: approval required by default'],
    ['allow', () => typed('git_commit', {}, allowing('GitCommit()')), 'permissions.json: allow GitCommit()'],
    [
      'deny',
      () => typed('git_commit', {}, { permissions: perms({ deny: ['GitCommit()'] }) }),
      'permissions.json: deny GitCommit()',
    ],
    [
      'ask',
      () => typed('git_commit', {}, { permissions: perms({ ask: ['GitCommit()'] }) }),
      'permissions.json: ask GitCommit()',
    ],
    ['built-in deny', () => term('rm -rf /'), 'built-in deny Terminal(rm -rf /)'],
    [
      'container floor',
      () => term('mytool', { containerRunning: true }),
      'container floor: terminal in a running project container',
    ],
    [
      'allow, one pattern per fragment',
      () => term('ls && pwd', allowing('Terminal(ls)', 'Terminal(pwd)')),
      'permissions.json: allow Terminal(ls), Terminal(pwd)',
    ],
    [
      'RN-689 typed push',
      () => typed('git_push', {}, allowing('GitPush()')),
      'ceiling: git_push has an external effect and always needs a human decision (RN-689)',
    ],
    [
      'RN-689 typed pr',
      () => typed('pr_open', {}, allowing('PrOpen()')),
      'ceiling: pr_open has an external effect and always needs a human decision (RN-689)',
    ],
    [
      'RN-006',
      () => typed('git_merge', { branch: 'qa' }, allowing('GitMerge()')),
      'ceiling: merge into protected branch qa is always a human decision (RN-006)',
    ],
    [
      'RN-006 no branch',
      () => typed('git_merge', {}, allowing('GitMerge()')),
      'ceiling: merge without a valid target branch is always a human decision (RN-006)',
    ],
    [
      'RN-007',
      () => typed('instruction_patch', {}, allowing('InstructionPatch()')),
      "ceiling: instruction_patch changes another agent's behaviour; a human reviews the diff (RN-007)",
    ],
    [
      'RN-086',
      () => typed('raise_max_parallel', {}, allowing('RaiseMaxParallel()')),
      'ceiling: raise_max_parallel spends money on more agents; a human decides (RN-086)',
    ],
    [
      'RN-495',
      () => typed('container_remove', {}, allowing('ContainerRemove()')),
      'ceiling: container_remove discards the container; decided every time (RN-495)',
    ],
    [
      'RN-075',
      () => term('cat /etc/passwd', allowing('Terminal(cat)')),
      'ceiling: path scope: /etc/passwd is outside the project folder (RN-075)',
    ],
    [
      'compound',
      () => term('ls; mytool', { ...allowing('Terminal(ls)'), containerRunning: true }),
      'ceiling: compound command: fragment "mytool" has no rule',
    ],
    [
      'privileged (RN-418)',
      () => term('sudo ls', allowing('Terminal(sudo)')),
      'ceiling: sudo is a privileged command and always needs a human decision (RN-418)',
    ],
    ['invalid payload', () => typed('terminal', {}), 'invalid payload: terminal needs a non-empty string "command"'],
    [
      'too long',
      () => term('x'.repeat(20_000)),
      'the command is 20000 characters long, over the 16384 the policy engine reads; it was not parsed and a human decides',
    ],
    [
      'protected file',
      () => term('echo x > permissions.json', allowing('Terminal(echo)')),
      'writes the protected file permissions.json; approval required',
    ],
    [
      'git option',
      () => term('git --exec-path=/x status', allowing('Terminal(git)')),
      'git option --exec-path changes what git runs; approval required',
    ],
    [
      'signals (kill)',
      () => term('kill -9 -1', { ...allowing('Terminal(kill)'), containerRunning: true }),
      'signals processes this command did not start: kill -1 signals every process the user may signal; approval required',
    ],
    [
      'an option runs a program',
      () => term('tar --to-command=sh -xf a.tar', { ...allowing('Terminal(tar)'), containerRunning: true }),
      "tar --to-command runs 'sh': a program no rule judged; approval required",
    ],
    [
      'git alias from outside',
      () => term('git r --hard', { ...allowing('Terminal(git)'), containerRunning: true }),
      "git r is not a git command: it may be an alias from the user's git configuration, which the engine cannot see, so deny rules and ceilings cannot be checked; approval required (an allow pattern that names it, like Terminal(git r:*), allows it)",
    ],
    [
      'RN-006 a blank branch',
      () => typed('git_merge', { branch: '  ' }, allowing('GitMerge()')),
      'ceiling: merge without a valid target branch is always a human decision (RN-006)',
    ],
    [
      'RN-006 a branch that is not a string',
      () => typed('git_merge', { branch: 7 }, allowing('GitMerge()')),
      'ceiling: merge without a valid target branch is always a human decision (RN-006)',
    ],
  ])('%s', (_rule, decide, sentence) => {
    expect(decide().reason).toBe(sentence);
  });
});

describe('RN-418 a terminal git command with an external effect names the typed action to use instead', () => {
  const GIT = allowing('Terminal(git)', 'Terminal(gh)', 'Terminal(glab)', 'Terminal(docker)');
  const sentence = (what: string, tail: string) =>
    `ceiling: ${what} has an external effect and always needs a human decision (RN-418)${tail}`;
  it.each([
    ['git push origin main', 'git push', '; use the typed action git_push'],
    ['git -C sub push', 'git push', '; use the typed action git_push'],
    ['git remote add o https://x', 'git remote add', '; use the typed action git_push'],
    ['git remote set-url origin x', 'git remote set-url', '; use the typed action git_push'],
    ['git merge feature', 'git merge', '; use the typed action git_merge'],
    ['gh pr create', 'gh pr create', '; use the typed action pr_open'],
    ['glab mr create', 'glab mr create', '; use the typed action pr_open'],
    ['gh release create v1', 'gh release create', ''],
    ['docker push img', 'docker push', ''],
  ])('%s', (command, what, tail) => {
    const d = term(command, GIT);
    expect(d).toMatchObject({ policy: 'require_approval', reasonCode: 'ceiling_external_effect' });
    expect(d.reason).toBe(sentence(what, tail));
  });

  it.each([
    ['git push --mirror origin', '; use the typed action git_push'],
    ['git merge --squash feature', '; use the typed action git_merge'],
  ])('a finding that starts with the git command (%s) names its typed action', (what, tail) => {
    expect(renderReason('ceiling_external_effect', { what })).toBe(sentence(what, tail));
  });

  it('an alias set with git -c points to git_push as well', () => {
    expect(renderReason('ceiling_external_effect', { what: 'git -c alias.p=push (an alias can run push)' })).toBe(
      sentence('git -c alias.p=push (an alias can run push)', '; use the typed action git_push'),
    );
  });
});

describe('RN-614 renderReason: the details it names, and what it says when one is missing', () => {
  it.each<[ReasonCode, string]>([
    ['iam_role_below_minimum', 'iam: role ? is below the minimum ? for this action'],
    ['builtin_deny', 'built-in deny '],
    ['agent_autonomy_deny', 'agent_autonomy: deny'],
    ['agent_autonomy_auto_approve', 'agent_autonomy: auto_approve'],
    ['agent_autonomy_require_approval', 'agent_autonomy: require_approval'],
    ['permissions_deny', 'permissions.json: deny '],
    [
      'permissions_deny_uncertain',
      'permissions.json: the command may be one that deny  forbids (an abbreviation with several readings); approval required',
    ],
    ['permissions_ask', 'permissions.json: ask '],
    ['permissions_allow', 'permissions.json: allow '],
    ['scope_cd_in_project', 'escopo: cd dentro da pasta do projeto'],
    [
      'ceiling_external_effect',
      'ceiling: external effect has an external effect and always needs a human decision (RN-418)',
    ],
    ['ceiling_privileged', 'ceiling: sudo is a privileged command and always needs a human decision (RN-418)'],
    [
      'ceiling_typed_external_effect',
      'ceiling: git_push has an external effect and always needs a human decision (RN-689)',
    ],
    [
      'ceiling_protected_branch_merge',
      'ceiling: merge without a valid target branch is always a human decision (RN-006)',
    ],
    ['ceiling_parallelism', 'ceiling: parallelize spends money on more agents; a human decides (RN-086)'],
    ['ceiling_path_scope', 'ceiling: path scope: a path is outside the project folder (RN-075)'],
    ['ceiling_compound_unmatched', 'ceiling: compound command: fragment "?" has no rule'],
    ['unsafe_shell_construct', 'unsafe shell construct: unreadable command'],
    ['git_config_override', 'git option -c changes what git runs; approval required'],
    ['signals_other_processes', 'signals processes this command did not start: kill; approval required'],
    [
      'git_subcommand_unknown',
      "git ? is not a git command: it may be an alias from the user's git configuration, which the engine cannot see, so deny rules and ceilings cannot be checked; approval required (an allow pattern that names it, like Terminal(git ?:*), allows it)",
    ],
    ['option_runs_program', 'an option runs a program: a program no rule judged; approval required'],
    ['protected_file_write', 'writes the protected file ?; approval required'],
    ['permissions_file_invalid', 'permissions.json is invalid; nothing is auto-approved until it is fixed'],
    ['invalid_payload', 'invalid payload: missing fields'],
    [
      'command_too_long',
      'the command is ? characters long, over the ? the policy engine reads; it was not parsed and a human decides',
    ],
    ['policy_internal_error', 'the policy engine failed (unknown error); approval required'],
  ])('%s without details: %j', (code, sentence) => {
    expect(renderReason(code)).toBe(sentence);
  });

  it.each<[ReasonCode, Parameters<typeof renderReason>[1], string]>([
    [
      'permissions_deny',
      { patterns: ['Terminal(curl:*)', 'Terminal(wget:*)'] },
      'permissions.json: deny Terminal(curl:*), Terminal(wget:*)',
    ],
    ['permissions_ask', { patterns: ['GitPush()'] }, 'permissions.json: ask GitPush()'],
    [
      'permissions_deny_uncertain',
      { patterns: ['Terminal(git push)'] },
      'permissions.json: the command may be one that deny Terminal(git push) forbids (an abbreviation with several readings); approval required',
    ],
    [
      'ceiling_privileged',
      { what: 'doas' },
      'ceiling: doas is a privileged command and always needs a human decision (RN-418)',
    ],
    [
      'ceiling_parallelism',
      { actionType: 'parallelize' },
      'ceiling: parallelize spends money on more agents; a human decides (RN-086)',
    ],
    [
      'ceiling_protected_branch_merge',
      { branch: null },
      'ceiling: merge without a valid target branch is always a human decision (RN-006)',
    ],
    [
      'ceiling_protected_branch_merge',
      { branch: '' },
      'ceiling: merge into protected branch  is always a human decision (RN-006)',
    ],
    ['unsafe_shell_construct', { what: 'subshell' }, 'unsafe shell construct: subshell'],
    // Found names (not options) are written as found.
    ['git_config_override', { what: 'GIT_SSH_COMMAND' }, 'GIT_SSH_COMMAND changes what git runs; approval required'],
    [
      'git_config_override',
      { what: '--config-env' },
      'git option --config-env changes what git runs; approval required',
    ],
    [
      'signals_other_processes',
      { what: 'pkill .' },
      'signals processes this command did not start: pkill .; approval required',
    ],
    [
      'option_runs_program',
      { what: "tar --to-command runs 'sh'" },
      "tar --to-command runs 'sh': a program no rule judged; approval required",
    ],
    [
      'permissions_file_invalid',
      { problem: 'allow[0] "X()": unknown label X' },
      'permissions.json is invalid (allow[0] "X()": unknown label X); nothing is auto-approved until it is fixed',
    ],
    ['invalid_payload', { problem: 'cwd must be a string' }, 'invalid payload: cwd must be a string'],
    ['policy_internal_error', { problem: 'boom' }, 'the policy engine failed (boom); approval required'],
    [
      'iam_role_below_minimum',
      { role: 'developer', minRole: 'owner', actionType: 'spend' },
      'iam: role developer is below the minimum owner for spend',
    ],
  ])('%s %j: %j', (code, detail, sentence) => {
    expect(renderReason(code, detail)).toBe(sentence);
  });
});
