// Adversarial (hardening, first half: what runs): gaps found by review after the first engine
// (the second half, files and paths, is adversarial-hardening-files.test.ts). Each group has rows that were
// auto-approved (or not denied) before the fix, and "still allowed" rows so the engine does not
// turn paranoid. More deny / more require_approval is always the safe direction.
import { describe, expect, it } from 'vitest';
import { patternsForAction } from '../../src/policy/index.ts';
import type { Permissions } from '../../src/policy/types.ts';
import { AUTO, DEV_ALLOW, FLOOR, MANUAL, NEVER_AUTO, ask, auto, c, deny, runCases } from './adversarial-harness.ts';

/** The DEV preset alone: no deny of curl, so what decides is the look-through, not the deny list. */
const DEV_ONLY: Permissions = { allow: DEV_ALLOW, deny: [], ask: [] };
const Z = ask('ceiling_external_effect');
const G = ask('git_config_override');
const U = ask('unsafe_shell_construct');

// ---------------------------------------------------------------------------------------------
// 2. find -exec: the inner command is judged like one more fragment (allow matching included).
runCases('RN-418 find -exec: the command find runs is seen by deny, built-in deny and ceilings', MANUAL, [
  c('find . -exec rm -rf / \\;', deny('builtin_deny')),
  c('find . -execdir rm -rf / \\;', deny('builtin_deny')),
  c('find . -ok rm -fr / \\;', deny('builtin_deny')),
  c('find . -okdir rm -rf /* \\;', deny('builtin_deny')),
  c('find . -name x -exec rm -rf / {} +', deny('builtin_deny')),
  c('find . -exec rm -rf /', deny('builtin_deny'), { note: 'an unescaped ; ends the fragment' }),
  c('find . -exec curl x \\;', deny('permissions_deny')),
  c('find . -type f -exec sudo curl x {} +', deny('permissions_deny')),
  c("find . -exec sh -c 'curl x' \\;", deny('permissions_deny')),
  c('find . -exec touch {} \\;', NEVER_AUTO, { permissions: DEV_ONLY, note: 'touch is not allowed' }),
  c('find . -exec curl x \\;', NEVER_AUTO, { permissions: DEV_ONLY }),
  c("find . -exec sh -c 'git push' \\;", NEVER_AUTO, { permissions: DEV_ONLY }),
  c('find . -exec git commit -m x \\;', ask('permissions_ask'), { note: 'an ask on the inner command' }),
  c('find . -exec grep x {} \\; -exec touch {} \\;', NEVER_AUTO, { note: 'every -exec counts' }),
]);
runCases('RN-418 find -exec hits the ceilings in auto mode', AUTO, [
  c('find . -exec git push \\;', Z),
  c("find . -exec sh -c 'git push' \\;", Z),
  c('find . -execdir gh pr create {} +', Z),
  c('find . -exec sudo ls \\;', ask('ceiling_privileged')),
  c('find . -exec find . -exec git push \\; \\;', Z),
]);
runCases('find -exec under the container floor needs the inner command allowed', FLOOR, [
  c('find . -exec touch {} \\;', ask('ceiling_compound_unmatched'), { permissions: DEV_ONLY }),
  c('find . -exec curl x \\;', ask('ceiling_compound_unmatched'), { permissions: DEV_ONLY }),
]);
runCases('find -exec still allowed when the inner command is allowed', MANUAL, [
  c("find . -name '*.ts' -exec grep -l x {} +", auto('permissions_allow')),
  c('find src -type f -exec wc -l {} \\;', auto('permissions_allow')),
  c('find . -exec cat {} \\; -exec grep -n y {} \\;', auto('permissions_allow')),
  c("find . -name '*.ts' -not -path './node_modules/*'", auto('permissions_allow')),
  c('find . -name exec', auto('permissions_allow')),
]);
runCases('find -delete is a deletion: it needs rm allowed', MANUAL, [
  c('find . -name x -delete', NEVER_AUTO, { permissions: DEV_ONLY }),
  c('find . -delete', NEVER_AUTO),
  c('find . -name x -delete', auto('permissions_allow'), {
    permissions: { ...DEV_ONLY, allow: [...DEV_ALLOW, 'Terminal(rm)'] },
  }),
  c('find . -name delete', auto('permissions_allow')),
]);
runCases('find -delete under the floor', FLOOR, [
  c('find . -name permissions.json -delete', ask('ceiling_compound_unmatched'), { permissions: DEV_ONLY }),
]);
runCases('find -exec stays lifted in auto mode like any compound', AUTO, [
  c('find . -exec touch {} \\;', auto('agent_autonomy_auto_approve'), { permissions: DEV_ONLY }),
]);

// 2. Package runners, eval, watch, script, ssh, busybox, su, flock and the scheduling wrappers.
runCases('RN-418 package runners run other commands', AUTO, [
  c('npx gh pr create', Z),
  c('npx --yes gh pr create', Z),
  c('npx -p gh-cli gh pr merge 1', Z),
  c("npx -c 'git push'", Z),
  c('npm exec -- git push', Z),
  c('npm exec --yes -- git push origin main', Z),
  c('npm x -- git push', Z),
  c('pnpm exec git push', Z),
  c('pnpm dlx gh release create v1', Z),
  c("pnpm dlx -c 'git push'", Z),
  c('pnpx gh pr create', Z),
  c('yarn exec git push', Z),
  c('yarn dlx gh pr create', Z),
  c('bunx gh pr create', Z),
  c('bun x gh pr create', Z),
  c('npx sudo ls', ask('ceiling_privileged')),
]);
runCases('package runners: built-in deny and file deny look through', MANUAL, [
  c('npx rm -rf /', deny('builtin_deny')),
  c('npm exec -- rm -rf /', deny('builtin_deny')),
  c('pnpm dlx curl x', deny('permissions_deny')),
  c('bunx curl x', deny('permissions_deny')),
]);
runCases('package runners still allowed: npx vitest and friends', MANUAL, [
  c('npx vitest run test/policy', auto('permissions_allow')),
  c('npx vitest', auto('permissions_allow')),
  c('npm run build', auto('permissions_allow')),
]);
runCases('package runners in auto mode stay auto when harmless', AUTO, [
  c("npx prettier --write 'src/**/*.{ts,tsx}'", auto(), { note: 'arguments are not re-read as shell text' }),
  c('pnpm exec tsc --noEmit', auto()),
  c('npm exec -- eslint src', auto()),
]);

runCases('RN-418 eval, watch, script, ssh run a command line', AUTO, [
  c('eval git push', Z),
  c("eval 'git push'", Z),
  c('eval "git status; git push"', Z),
  c('watch git push', Z),
  c('watch -n 5 git push', Z),
  c('watch -n5 -d "git push"', Z),
  c("script -q -c 'git push' /dev/null", Z),
  c("script /dev/null -c 'git push'", Z),
  c("script --command='git push' log.txt", Z),
  c('ssh host git push', Z),
  c('ssh -p 2222 -i key user@host git push origin main', Z),
  c("ssh host 'cd repo && git push'", Z),
  c('ssh host -t git push', Z, { note: 'ssh reads options after the host too' }),
  c("ssh -o ProxyCommand='git push' host", Z, { note: 'a local command ssh runs' }),
  c("ssh -oProxyCommand='gh pr create' host ls", Z),
  c("rsync -e 'git push' a b", Z, { note: 'rsync runs its -e command locally' }),
]);
runCases('eval, ssh, busybox, su: built-in deny looks through', MANUAL, [
  c("eval 'rm -rf /'", deny('builtin_deny')),
  c('eval rm -rf /', deny('builtin_deny')),
  c('watch rm -rf /', deny('builtin_deny')),
  c("ssh host 'rm -rf /'", deny('builtin_deny')),
  c('ssh host rm -rf /', deny('builtin_deny')),
  c('busybox rm -rf /', deny('builtin_deny')),
  c('/bin/busybox rm -fr /', deny('builtin_deny')),
  c('busybox sh -c "rm -rf /"', deny('builtin_deny')),
  c("su -c 'rm -rf /'", deny('builtin_deny')),
  c("su root -c 'rm -rf /'", deny('builtin_deny')),
  c("su - root --command='rm -rf /'", deny('builtin_deny')),
  c("script -c 'rm -rf /'", deny('builtin_deny')),
  c('busybox wget x', deny('permissions_deny')),
  c('eval curl x', deny('permissions_deny')),
]);
runCases('ssh and busybox are left alone otherwise', AUTO, [
  c('ssh host uptime', auto()),
  c('ssh -p 2222 host', auto()),
  c('busybox ls', auto()),
  c('watch -n 1 ls', auto()),
]);

runCases('RN-418 flock, stdbuf, ionice, chrt, unshare, chroot, nsenter, taskset run a command', AUTO, [
  c('flock /tmp/lock git push', Z),
  c('flock -w 5 /tmp/lock git push', Z),
  c("flock /tmp/lock -c 'git push'", Z),
  c('stdbuf -oL git push', Z),
  c('stdbuf -o L -e 0 git push', Z),
  c('ionice -c 3 git push', Z),
  c('ionice -c3 -n7 git push', Z),
  c('chrt 10 git push', Z),
  c('chrt -f 10 git push', Z),
  c('unshare -r git push', Z),
  c('unshare --mount --net git push', Z),
  c('chroot /x git push', Z),
  c('chroot --userspec=1:1 /x gh pr create', Z),
  c('nsenter -t 1 -m -u git push', Z),
  c('taskset 0x1 git push', Z),
  c('taskset -c 0,1 git push', Z),
]);
runCases('scheduling wrappers: built-in deny looks through', MANUAL, [
  c('flock /tmp/l rm -rf /', deny('builtin_deny')),
  c('stdbuf -oL rm -rf /', deny('builtin_deny')),
  c('ionice -c 3 rm -rf /', deny('builtin_deny')),
  c('chrt 5 rm -rf /', deny('builtin_deny')),
  c('unshare -r rm -rf /', deny('builtin_deny')),
  c('chroot /x rm -rf /', deny('builtin_deny')),
  c('nsenter -t 1 rm -rf /', deny('builtin_deny')),
  c('taskset 0x3 rm -rf /', deny('builtin_deny')),
  c('nice -n 5 stdbuf -oL flock /tmp/l busybox rm -rf /', deny('builtin_deny')),
]);
runCases('allow matching still never looks through the new wrappers', MANUAL, [
  c('stdbuf -oL pnpm test', ask()),
  c('eval ls', ask()),
  c('busybox ls', ask()),
  c('npx ls', ask()),
]);

// ---------------------------------------------------------------------------------------------
// 3. git configuration smuggling.
runCases('git config writes that change what git runs', FLOOR, [
  c('git config alias.p push', G),
  c('git config alias.p "!sh -c evil"', G),
  c('git config --add alias.st push', G),
  c('git config --replace-all ALIAS.P push', G, { note: 'sections are case-insensitive' }),
  c('git config set alias.p push', G),
  c('git config core.hooksPath /tmp/hooks', G),
  c('git config core.hookspath .evil', G),
  c("git config core.sshCommand 'sh -c evil'", G),
  c('git config core.pager "sh -c evil"', G),
  c('git config core.editor evil', G),
  c('git config core.fsmonitor ./evil', G),
  c('git config remote.origin.url https://evil', G),
  c('git config remote.origin.pushurl https://evil', G),
  c('git config url.https://evil/.insteadOf https://github.com/', G),
  c('git config include.path /tmp/evil.cfg', G),
  c('git config includeIf.gitdir:/x.path /tmp/evil.cfg', G),
  c('git config filter.lfs.smudge evil', G),
  c('git config --unset core.hooksPath', G, { note: 'unsetting brings .git/hooks back' }),
  c('git config --global user.name x', G),
  c('git config --system user.name x', G),
  c('git config --file .git/config user.name x', G),
  c('git config -f ~/.gitconfig a.b c', G),
  c('git config --edit', G),
  c('git -C sub config alias.p push', G),
]);
runCases('git configuration through the environment', FLOOR, [
  c('GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0=push git p', G),
  c("GIT_CONFIG_PARAMETERS=\"'alias.p'='push'\" git p", G),
  c('GIT_CONFIG_GLOBAL=/tmp/evil git status', G),
  c('GIT_CONFIG_SYSTEM=/tmp/evil git status', G),
  c('GIT_EXEC_PATH=/tmp/evil git status', G),
  c('GIT_SSH_COMMAND=evil git fetch', G),
  c('GIT_SSH=evil git fetch', G),
  c('GIT_ASKPASS=evil git fetch', G),
  c('GIT_EDITOR=evil git commit', G),
  c('GIT_PAGER=evil git log', G),
  c('GIT_DIR=/tmp/other git status', G),
  c('GIT_WORK_TREE=/ git status', G),
  c('env GIT_SSH_COMMAND=evil git fetch', G),
  c('env -i GIT_DIR=x git log', G),
  c('export GIT_SSH_COMMAND=evil && git fetch', G),
  c('GIT_DIR=x; git status', G, { note: 'a bare assignment changes the shell for what follows' }),
  c('GIT_CONFIG_KEY_0=alias.p make', G, { note: 'whatever the command, git may run below it' }),
]);
runCases('git config smuggling is never lifted, not even in auto mode', AUTO, [
  c('git config alias.p push', G),
  c('GIT_SSH_COMMAND=evil git fetch', G),
  c('GIT_SSH_COMMAND=evil git push', Z, { note: 'the push is named first' }),
]);
runCases('git config reads and harmless writes still pass (RN-143)', MANUAL, [
  c('git config --get x', auto('permissions_allow')),
  c('git config --get user.email', auto('permissions_allow')),
  c('git config --get alias.p', auto('permissions_allow')),
  c('git config --get remote.origin.url', auto('permissions_allow')),
]);
runCases('git config harmless writes under the floor', FLOOR, [
  c('git config user.name bob', auto('container_floor')),
  c('git config --local core.autocrlf false', auto('container_floor')),
  c('git config alias.p', auto('container_floor'), { note: 'one key and no value is a read' }),
  c('git config --list', auto('container_floor')),
  c('git config --global --get user.name', auto('container_floor')),
  c('GIT_TRACE=1 git status', auto('container_floor')),
  c('CI=1 pnpm test', auto('container_floor')),
]);

// ---------------------------------------------------------------------------------------------
// 4. gh api / glab api with a mutating method.
runCases('RN-418 gh api and glab api that send something', AUTO, [
  c('gh api -X POST repos/o/r/pulls', Z),
  c('gh api --method PUT repos/o/r/x', Z),
  c('gh api --method=patch repos/o/r/x', Z),
  c('gh api -XDELETE repos/o/r/git/refs/heads/main', Z),
  c('gh api repos/o/r/pulls -f title=x -f head=y', Z, { note: 'fields imply POST' }),
  c('gh api repos/o/r/issues -F title=x', Z),
  c('gh api repos/o/r/issues --field title=x', Z),
  c('gh api repos/o/r/issues --raw-field=title=x', Z),
  c('gh api repos/o/r/issues --input body.json', Z),
  c('gh api graphql -f query=mutation', Z),
  c('gh -R o/r api -X POST x', Z),
  c('glab api -X POST projects/1/merge_requests', Z),
  c('glab api projects/1/issues -f title=x', Z),
  c('npx gh api -X POST x', Z),
]);
runCases('gh api reads stay allowed', AUTO, [
  c('gh api repos/o/r/pulls', auto()),
  c('gh api -X GET repos/o/r/pulls -f state=open', auto(), { note: 'an explicit GET sends fields as the query' }),
  c('gh api --method HEAD repos/o/r', auto()),
  c("gh api repos/o/r/pulls --jq '.[].title'", auto()),
  c("gh api -H 'Accept: application/json' repos/o/r", auto()),
  c('glab api projects/1', auto()),
]);

// ---------------------------------------------------------------------------------------------
describe('RN-675 always-allow refuses the new ceilings and keeps gh api exact', () => {
  const plan = (command: string) => patternsForAction('terminal', { command });
  it('git config alias writes and GIT_* smuggling are refused', () => {
    expect(plan('git config alias.p push')).toMatchObject({ kind: 'refused', reason: 'unsafe_command' });
    expect(plan('GIT_SSH_COMMAND=evil git fetch')).toMatchObject({ kind: 'refused', reason: 'unsafe_command' });
  });
  it('gh api POST and find -exec git push are external effects', () => {
    expect(plan('gh api -X POST repos/o/r/pulls')).toMatchObject({ kind: 'refused', reason: 'external_effect' });
    expect(plan('find . -exec git push \\;')).toMatchObject({ kind: 'refused', reason: 'external_effect' });
  });
  it('protected writes through cp, and glob verbs, are refused', () => {
    expect(plan('cp evil PERMISSIONS.json')).toMatchObject({ kind: 'refused', reason: 'unsafe_command' });
    expect(plan('g?t status')).toMatchObject({ kind: 'refused', reason: 'unsafe_command' });
  });
  it('a gh api read writes the exact command, never Terminal(gh api)', () => {
    expect(plan('gh api repos/o/r/pulls')).toEqual({
      kind: 'patterns',
      patterns: ['Terminal(gh api repos/o/r/pulls)'],
    });
  });
  it('harmless commands still get a pattern; git config keeps the exact fragment (issue 15.7: Terminal(git config) would match git config --unset-all)', () => {
    expect(plan('git config user.name bob')).toEqual({
      kind: 'patterns',
      patterns: ['Terminal(git config user.name bob)'],
    });
  });
  it('a find is written whole (issue 9 A.6): Terminal(find) would allow find . -fprint and any allowed -exec', () => {
    const whole = 'Terminal(find . -name \\*.ts -exec grep -l x {} +)';
    expect(plan("find . -name '*.ts' -exec grep -l x {} +")).toEqual({
      kind: 'patterns',
      patterns: [whole],
      keptWhole: [whole],
    });
  });
});

// The preset file as decided before this hardening, for the rows the review named.
runCases('review rows under the DEV preset are no longer auto-approved', MANUAL, [
  c('find . -exec curl x \\;', NEVER_AUTO, { permissions: DEV_ONLY }),
  c("find . -exec sh -c 'git push' \\;", NEVER_AUTO, { permissions: DEV_ONLY }),
  c('echo x > PERMISSIONS.json', NEVER_AUTO, { permissions: DEV_ONLY }),
]);
runCases(
  'the same rows with a specific auto_approve rule (not auto mode)',
  { ...AUTO, label: 'specific', autonomy: { mode: 'auto_approve', origin: 'especifica' } },
  [
    c('find . -exec curl x \\;', ask('ceiling_compound_unmatched'), { permissions: DEV_ONLY }),
    c("find . -exec sh -c 'git push' \\;", Z, { permissions: DEV_ONLY }),
    c('find . -exec git push \\;', Z, { permissions: DEV_ONLY }),
  ],
);

// Stacked runners: each command line below the top one costs its length, and their number is
// bounded, so `eval eval eval …` cannot multiply the work; past the bound it is never auto.
runCases('stacked runners stay bounded and never auto-approved', AUTO, [
  c(`${'eval '.repeat(200)}ls`, U),
  c(`${'watch '.repeat(200)}ls`, U),
  c(`${'find . -exec '.repeat(200)}ls`, U),
  c(`${'eval watch '.repeat(100)}git push`, NEVER_AUTO),
  c(`${'npx -c '.repeat(50)}ls`, NEVER_AUTO),
  c('eval eval git push', Z),
  c('watch eval git push', Z),
  c('eval ls', auto()),
]);
runCases('stacked runners: deny found within the nesting bound', MANUAL, [
  c('eval eval rm -rf /', deny('builtin_deny')),
  c('eval watch busybox rm -rf /', deny('builtin_deny')),
  c(`${'eval '.repeat(30)}rm -rf /`, NEVER_AUTO, { note: 'beyond the bound: unsafe, a human decides' }),
]);
