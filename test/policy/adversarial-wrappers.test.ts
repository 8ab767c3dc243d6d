// Adversarial: wrappers (sudo, env, timeout, nice, nohup, command, exec, time, xargs, sh -c) and
// quoting tricks. Deny-matching looks through wrappers; allow-matching never does.
import type { Permissions } from '../../src/policy/types.ts';
import { AUTO, MANUAL, PROJECT_PERMISSIONS, ask, auto, c, deny, runCases } from './adversarial-harness.ts';

runCases('built-in deny looks through every wrapper', MANUAL, [
  c('sudo rm -rf /', deny('builtin_deny')),
  c('doas rm -rf /', deny('builtin_deny')),
  c('env rm -rf /', deny('builtin_deny')),
  c('env -i FOO=1 rm -rf /', deny('builtin_deny')),
  c('env -u HOME rm -rf /', deny('builtin_deny')),
  c('timeout 5 rm -rf /', deny('builtin_deny')),
  c('timeout -s KILL 5 rm -rf /', deny('builtin_deny')),
  c('timeout --signal=KILL 5s rm -rf /', deny('builtin_deny')),
  c('nice -n 10 rm -rf /', deny('builtin_deny')),
  c('nice rm -rf /', deny('builtin_deny')),
  c('nohup rm -rf /', deny('builtin_deny')),
  c('command rm -rf /', deny('builtin_deny')),
  c('exec rm -rf /', deny('builtin_deny')),
  c('time rm -rf /', deny('builtin_deny')),
  c('time -p rm -rf /', deny('builtin_deny')),
  c('xargs rm -rf /', deny('builtin_deny')),
  c("sh -c 'rm -rf /'", deny('builtin_deny')),
  c('bash -c "rm -rf /"', deny('builtin_deny')),
  c("sh -c 'ls; rm -rf /'", deny('builtin_deny')),
  c('sudo env timeout 5 nice -n 1 nohup rm -rf /', deny('builtin_deny')),
  c("sudo sh -c 'rm -rf /*'", deny('builtin_deny')),
  c('FOO=1 rm -rf /', deny('builtin_deny')),
  c('FOO=1 BAR=2 sudo rm -rf /', deny('builtin_deny')),
  c('rm -rf / --no-preserve-root', deny('builtin_deny'), { note: 'token prefix' }),
]);

runCases('permissions.json deny looks through every wrapper', MANUAL, [
  c('sudo curl x', deny('permissions_deny')),
  c('doas curl x', deny('permissions_deny')),
  c('timeout 30 curl x', deny('permissions_deny')),
  c('env FOO=1 curl x', deny('permissions_deny')),
  c('bash -c "curl x | sh"', deny('permissions_deny')),
  c('nohup curl x &', deny('permissions_deny')),
  c('FOO=bar curl x', deny('permissions_deny')),
  c('xargs curl', deny('permissions_deny')),
  c('command curl x', deny('permissions_deny')),
  c('exec curl x', deny('permissions_deny')),
  c('nice -n 5 curl x', deny('permissions_deny')),
  c('time curl x', deny('permissions_deny')),
]);

runCases('allow-matching never looks through wrappers or env assignments', MANUAL, [
  c('timeout 5 pnpm test', ask()),
  c('env CI=1 pnpm test', ask()),
  c('CI=1 pnpm test', ask()),
  c('nohup pnpm test', ask()),
  c('sh -c "pnpm test"', ask()),
  c('command ls', ask()),
  c('sudo ls', ask()),
]);
const withAssignment: Permissions = { ...PROJECT_PERMISSIONS, allow: ['Terminal(CI=1 pnpm test)'] };
runCases('an allow pattern that spells the assignment matches it', MANUAL, [
  c('CI=1 pnpm test', auto('permissions_allow'), { permissions: withAssignment }),
  c('CI=2 pnpm test', ask(), { permissions: withAssignment }),
]);

runCases('privileged commands are a ceiling even in auto mode (RN-418)', AUTO, [
  c('sudo ls', ask('ceiling_privileged')),
  c('doas ls', ask('ceiling_privileged')),
  c('su -c ls', ask('ceiling_privileged')),
  c('pkexec ls', ask('ceiling_privileged')),
  c('ls && sudo -i', ask('ceiling_privileged')),
  c('env sudo ls', ask('ceiling_privileged')),
  c('timeout 5 sudo ls', ask('ceiling_privileged')),
  c('sh -c "sudo ls"', ask('ceiling_privileged')),
  c('FOO=1 sudo ls', ask('ceiling_privileged')),
]);

runCases('external effects through wrappers (RN-418)', AUTO, [
  c('timeout 10 git push', ask('ceiling_external_effect')),
  c('nice git push', ask('ceiling_external_effect')),
  c('nohup git push &', ask('ceiling_external_effect')),
  c('command git push', ask('ceiling_external_effect')),
  c('exec git push', ask('ceiling_external_effect')),
  c('time git push', ask('ceiling_external_effect')),
  c('xargs git push', ask('ceiling_external_effect')),
  c('env GIT_DIR=x git push', ask('ceiling_external_effect')),
  c('GIT_SSH_COMMAND=evil git push', ask('ceiling_external_effect')),
  c("bash -c 'git push'", ask('ceiling_external_effect')),
  c('sh -c "git status && git push"', ask('ceiling_external_effect')),
  c("dash -c 'git push'", ask('ceiling_external_effect')),
  c("zsh -c 'git push'", ask('ceiling_external_effect')),
  c('sudo git push', ask()),
]);

runCases('quoting tricks do not hide rm -rf /', MANUAL, [
  c("'r'm -rf /", deny('builtin_deny')),
  c('"rm" -rf /', deny('builtin_deny')),
  c('r\\m -rf /', deny('builtin_deny')),
  c('\\rm -rf /', deny('builtin_deny')),
  c("rm -r'f' /", deny('builtin_deny')),
  c('rm "-rf" "/"', deny('builtin_deny')),
  c("rm -rf '/'", deny('builtin_deny')),
  c('rm -rf ""/', deny('builtin_deny')),
  c('rm -rf /""', deny('builtin_deny')),
  c("c'u'rl x", deny('permissions_deny')),
]);
runCases('quoting tricks do not hide git push', AUTO, [
  c('"git" push', ask('ceiling_external_effect')),
  c('g\\it push', ask('ceiling_external_effect')),
  c("git 'push'", ask('ceiling_external_effect')),
  c('git "pu"sh', ask('ceiling_external_effect')),
  c(`'git' "push" origin main`, ask('ceiling_external_effect')),
]);
runCases('quoting neither forges nor hides an allowed verb', MANUAL, [
  c("git' 'status", ask(), { note: 'one token "git status" is not git + status' }),
  c("'ls' -la", auto('permissions_allow')),
  c('"git" status', auto('permissions_allow')),
]);

runCases('wrapper options and shell flag clusters do not hide the command', MANUAL, [
  c('sudo -u root rm -rf /', deny('builtin_deny')),
  c('timeout -k 5 10 rm -rf /', deny('builtin_deny')),
  c('env -C /tmp rm -rf /', deny('builtin_deny')),
  c('xargs -0 rm -rf /', deny('builtin_deny')),
  c('nice -n10 rm -rf /', deny('builtin_deny')),
  c('command -p rm -rf /', deny('builtin_deny')),
  c('exec -a x rm -rf /', deny('builtin_deny')),
  c("bash -lc 'rm -rf /'", deny('builtin_deny')),
  c("rm -rf '/'*", deny('builtin_deny'), { note: 'the glob token is the literal /*' }),
  c('/bin/rm -rf /', deny('builtin_deny'), { note: 'a path to rm is rm' }),
  c('/usr/bin/curl x', deny('permissions_deny')),
]);
runCases('shell flag clusters and absolute verbs in auto mode', AUTO, [
  c("bash -lc 'git push'", ask('ceiling_external_effect')),
  c("bash -l -c 'git push'", ask('ceiling_external_effect')),
  c("sh -ec 'git push'", ask('ceiling_external_effect')),
  c("bash --login -c 'git push'", ask('ceiling_external_effect')),
  c("bash -c 'git push' arg0", ask('ceiling_external_effect')),
  c("nohup bash -c 'git push' &", ask('ceiling_external_effect')),
  c('/usr/bin/git push', ask('ceiling_external_effect')),
  c('/usr/bin/sudo ls', ask('ceiling_privileged')),
]);
