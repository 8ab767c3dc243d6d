// Adversarial (found by mutation testing wrappers.ts, issue 9): two ways a command line handed to
// a shell was not looked at, so deny, RN-418 ceilings and every other check never saw it.
// 1. A shell's -c is a flag, not an option taking the next word: bash, dash (and zsh, ksh) read
//    more options after it and run the first word after all of them. `sh -c -e 'rm -rf /'` was
//    read as the command line "-e" and auto-approved in auto mode; so were `bash -c -- CMD`,
//    `bash -c +x CMD` and `bash +x -c CMD` (`+` options were not options at all).
// 2. env's -S inside a cluster of flags (`env -iS 'git push'`, `env -vS'rm -rf /'`): GNU env
//    splits and runs the string (checked with env 9.x), the policy saw only an unknown option.
// 3. A command option with its value attached or after flags in one word: `script -qc'git push'`,
//    `su -c'curl x'`, `npx -c'git push'`, `rsync -avze CMD` (getopt reads them so; checked with
//    util-linux script and su).
import { AUTO, MANUAL, ask, auto, c, deny, runCases } from './adversarial-harness.ts';

runCases('issue 9: a shell reads options after -c, the command line is the first word after them', AUTO, [
  c("sh -c -e 'git push'", ask('ceiling_external_effect')),
  c("bash -c -x 'git push'", ask('ceiling_external_effect')),
  c("bash -c -- 'git push'", ask('ceiling_external_effect')),
  c("bash -c - 'git push'", ask('ceiling_external_effect'), { note: 'a lone - ends the options like --' }),
  c("bash -c +x 'git push'", ask('ceiling_external_effect')),
  c("bash +x -c 'git push'", ask('ceiling_external_effect')),
  c("bash +o pipefail -c 'git push'", ask('ceiling_external_effect')),
  c("bash -c +o pipefail 'git push'", ask('ceiling_external_effect')),
  c("bash -c -o pipefail 'git push'", ask('ceiling_external_effect')),
  c("bash -co pipefail 'git push'", ask('ceiling_external_effect'), { note: '-o in the cluster takes pipefail' }),
  c("bash -ce -- 'git push'", ask('ceiling_external_effect')),
  c("bash -c -O extglob 'git push'", ask('ceiling_external_effect')),
  c("bash -oc pipefail 'git push'", ask('ceiling_external_effect'), { note: 'bash -oc NAME: -o takes the next word' }),
  c("bash -Oc extglob 'git push'", ask('ceiling_external_effect')),
  c("bash + -c 'git push'", ask('ceiling_external_effect'), { note: 'a lone + is skipped' }),
  c("bash -c + 'git push'", ask('ceiling_external_effect')),
  c("sh + -c + 'git push'", ask('ceiling_external_effect')),
  c("bash -l -c -e 'git push'", ask('ceiling_external_effect')),
  c("dash -c -eu 'git push'", ask('ceiling_external_effect')),
  c("zsh -c -x 'git push'", ask('ceiling_external_effect')),
  c("ksh -c -e 'git push'", ask('ceiling_external_effect')),
  c("bash -c -x 'sudo ls'", ask('ceiling_privileged')),
  c("sh -c -e 'rm -rf /'", deny('builtin_deny')),
  c("bash +e -c 'rm -rf /'", deny('builtin_deny')),
]);

runCases('issue 9: deny sees the command line after a shell -c and its options', MANUAL, [
  c("sh -c -e 'rm -rf /'", deny('builtin_deny')),
  c("bash -c -x 'curl x'", deny('permissions_deny')),
  c("bash +e -c 'curl x'", deny('permissions_deny')),
  c("bash -c -- 'curl x'", deny('permissions_deny')),
  c("dash -c +u 'curl x'", deny('permissions_deny')),
  c("bash + -c 'curl x'", deny('permissions_deny')),
]);

runCases('issue 9: the words after the command line are $0, $1..., never run', AUTO, [
  c("sh -c 'ls' 'git push'", auto('agent_autonomy_auto_approve')),
  c("bash -c 'ls' -x 'git push'", auto('agent_autonomy_auto_approve')),
  c("bash x.sh -c 'git push'", auto('agent_autonomy_auto_approve'), { note: 'arguments of the script x.sh' }),
  c("bash -o -c 'git push'", auto('agent_autonomy_auto_approve'), { note: 'bash: -c: invalid option name' }),
]);

runCases('issue 9: env -S inside a cluster of flags runs its string', AUTO, [
  c("env -iS 'git push'", ask('ceiling_external_effect')),
  c("env -iS'git push'", ask('ceiling_external_effect')),
  c("env -0S 'git push'", ask('ceiling_external_effect')),
  c("env -vS 'git push'", ask('ceiling_external_effect')),
  c("env -ivS 'git push'", ask('ceiling_external_effect')),
  c("env -vS'git push origin main'", ask('ceiling_external_effect')),
  c("env -i -vS 'git push'", ask('ceiling_external_effect')),
  c("env -0vS 'git push'", ask('ceiling_external_effect')),
  c("env -u HOME -iS 'git push'", ask('ceiling_external_effect')),
  c("env -iS 'sudo ls'", ask('ceiling_privileged')),
  c("env -vS 'rm -rf /'", deny('builtin_deny')),
  c("env -iS'rm -rf /'", deny('builtin_deny')),
]);

runCases('issue 9: env -S in a cluster, manual', MANUAL, [
  c("env -iS 'curl x'", deny('permissions_deny')),
  c("env -vS'curl x'", deny('permissions_deny')),
]);

runCases('issue 9: env -uS unsets S, it is no -S', AUTO, [
  c('env -uS ls', auto('agent_autonomy_auto_approve')),
  c("env -uS 'git push'", auto('agent_autonomy_auto_approve'), { note: "the program is the one word 'git push'" }),
]);

runCases('issue 9: a command option with its value attached, or after flags in the same word', AUTO, [
  c("script -c'git push' /dev/null", ask('ceiling_external_effect')),
  c("script -qc'git push' /dev/null", ask('ceiling_external_effect')),
  c("script -qc 'git push' /dev/null", ask('ceiling_external_effect')),
  c("script -aqc'git push' log", ask('ceiling_external_effect')),
  c("npx -c'git push'", ask('ceiling_external_effect')),
  c("npx -yc 'git push'", ask('ceiling_external_effect')),
  c("npm exec -c'git push'", ask('ceiling_external_effect')),
  c("npm x -qc 'git push'", ask('ceiling_external_effect')),
  c("rsync -avze 'git push' a b", ask('ceiling_external_effect')),
  c("rsync -e'git push' a b", ask('ceiling_external_effect')),
  c("script -qc'rm -rf /' /dev/null", deny('builtin_deny')),
]);

runCases('issue 9: su -c with its value attached, manual', MANUAL, [
  c("su -c'curl x'", deny('permissions_deny')),
  c("su -lc'curl x'", deny('permissions_deny')),
  c("su -lc 'curl x' root", deny('permissions_deny')),
  c("su - root -c'curl x'", deny('permissions_deny')),
]);
