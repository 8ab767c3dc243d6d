// The option tables of the wrappers (wrappers.ts), seen in decisions. Deny matching looks through
// a wrapper to the command after its options (permissions.json here denies curl), so a table
// that forgot an option's value would deny `sudo -u curl ls` (curl is the user), and one that
// forgot a flag would deny `time -p echo curl` (echo runs, curl is its argument). Options are
// the tools' own (GNU coreutils, util-linux, sudo, npm and pnpm docs). The last groups show the
// command options and shell words that do reach a command.
import { MANUAL, ask, c, deny, runCases } from './adversarial-harness.ts';

const NOT_DENIED = ask('default_require_approval');

runCases('a wrapper option that takes a value: the value is not the command', MANUAL, [
  c('sudo -u curl ls', NOT_DENIED),
  c('doas -u curl ls', NOT_DENIED),
  c('env -u curl ls', NOT_DENIED),
  c('timeout -s 5 curl ls', NOT_DENIED, { note: 'the signal 5, the duration curl' }),
  c('nice -n curl ls', NOT_DENIED),
  c('exec -a curl ls', NOT_DENIED),
  c('time -o curl ls', NOT_DENIED),
  c('xargs -a curl ls', NOT_DENIED),
  c('npx -p curl ls', NOT_DENIED),
  c('pnpx --package curl ls', NOT_DENIED),
  c('bunx -p curl ls', NOT_DENIED),
  c('yarn dlx -p curl ls', NOT_DENIED),
  c('bun x -p curl ls', NOT_DENIED),
  c('watch -n curl ls', NOT_DENIED),
  c('flock -w 5 curl ls', NOT_DENIED, { note: 'the lock file curl' }),
  c('stdbuf -o curl ls', NOT_DENIED),
  c('ionice -c curl ls', NOT_DENIED),
  c('chrt -T 5 curl ls', NOT_DENIED, { note: 'the priority curl' }),
  c('unshare -S curl ls', NOT_DENIED),
  c('nsenter -t curl ls', NOT_DENIED),
  c("bash -o -c 'curl x'", NOT_DENIED, { note: 'bash: -c: invalid option name' }),
  c("bash --rcfile -c 'curl x'", NOT_DENIED, { note: 'the rc file -c, the script curl x' }),
  c("su -sc 'curl x'", NOT_DENIED, { note: 'the shell c, the user curl x' }),
  c("script -Oc 'curl x'", NOT_DENIED, { note: 'the log file c, the typescript curl x' }),
]);

runCases('a wrapper flag takes no value: the next word is the command', MANUAL, [
  c('sudo -A echo curl', NOT_DENIED),
  c('doas -n echo curl', NOT_DENIED),
  c('env -i echo curl', NOT_DENIED),
  c('timeout -v 5 echo curl', NOT_DENIED),
  c('setsid -w echo curl', NOT_DENIED),
  c('command -p echo curl', NOT_DENIED),
  c('exec -l echo curl', NOT_DENIED),
  c('time -p echo curl', NOT_DENIED),
  c('xargs -0 echo curl', NOT_DENIED),
  c('npx -y echo curl', NOT_DENIED),
  c('pnpx -r echo curl', NOT_DENIED),
  c('bunx --bun echo curl', NOT_DENIED),
  c('yarn dlx -q echo curl', NOT_DENIED),
  c('bun x --bun echo curl', NOT_DENIED),
  c('watch -d echo curl', NOT_DENIED),
  c('flock -s f echo curl', NOT_DENIED),
  c('busybox --list echo curl', NOT_DENIED),
  c('ionice -t echo curl', NOT_DENIED),
  c('chrt -f 5 echo curl', NOT_DENIED),
  c('taskset -c 0 echo curl', NOT_DENIED),
  c('unshare -m echo curl', NOT_DENIED),
  c('nsenter -a echo curl', NOT_DENIED),
  c('chroot --skip-chdir / echo curl', NOT_DENIED),
  c("bash --norc x -c 'curl y'", NOT_DENIED, { note: 'the script x and its arguments' }),
]);

runCases('through every wrapper, the command after the options is still denied', MANUAL, [
  c('sudo -u root -A curl x', deny('permissions_deny')),
  c('nohup -x rm -rf /', deny('builtin_deny'), { note: 'an unknown option, read both ways' }),
  c('builtin -x rm -rf /', deny('builtin_deny')),
  c('if -x rm -rf /', deny('builtin_deny')),
  c('setsid -w curl x', deny('permissions_deny')),
  c('taskset -c 0 curl x', deny('permissions_deny')),
  c('chroot --skip-chdir / curl x', deny('permissions_deny')),
  c('busybox --list curl x', deny('permissions_deny')),
  c('stdbuf -oL curl x', deny('permissions_deny')),
  c('yarn exec curl x', deny('permissions_deny')),
  c('pnpm exec --filter a curl x', deny('permissions_deny')),
  c('pnpm dlx --silent curl x', deny('permissions_deny')),
  c('npm x -y curl x', deny('permissions_deny')),
  c('npm exec -y curl x', deny('permissions_deny')),
]);

runCases('command options and shell modes: their value is a command line', MANUAL, [
  c("npx -c 'ls; curl x'", deny('permissions_deny')),
  c("npx --call 'ls; curl x'", deny('permissions_deny')),
  c("npm exec --call='ls; curl x'", deny('permissions_deny')),
  c("npm x -c 'ls; curl x'", deny('permissions_deny')),
  c("pnpx -c 'ls; curl x'", deny('permissions_deny')),
  c("pnpm exec --shell-mode 'ls; curl x'", deny('permissions_deny')),
  c("pnpm dlx -c 'ls; curl x'", deny('permissions_deny')),
  c("pnpm exec 'ls; curl x'", NOT_DENIED, { note: 'without -c the program is the one word' }),
  c("env -S 'curl x'", deny('permissions_deny')),
  c("env --split-string 'curl x'", deny('permissions_deny')),
  c("env --split-string='curl x'", deny('permissions_deny')),
  c("su --command 'curl x'", deny('permissions_deny')),
  c("su --session-command='curl x'", deny('permissions_deny')),
  c("script --command 'curl x' log", deny('permissions_deny')),
  c("flock f --command 'curl x'", deny('permissions_deny')),
  c("rsync -e 'curl x' a b", deny('permissions_deny')),
  c("rsync --rsh='curl x' a b", deny('permissions_deny')),
  c("eval 'ls; curl x'", deny('permissions_deny')),
  c("watch 'ls; curl x'", deny('permissions_deny')),
  c("dash -c 'curl x'", deny('permissions_deny')),
  c("ksh -c 'curl x'", deny('permissions_deny')),
  c("zsh -c 'curl x'", deny('permissions_deny')),
]);

runCases('shell words run the command after them', MANUAL, [
  c('! curl x', deny('permissions_deny')),
  c('{ curl x; }', deny('permissions_deny')),
  c('if curl x; then ls; fi', deny('permissions_deny')),
  c('if ls; then curl x; fi', deny('permissions_deny')),
  c('if ls; then ls; elif curl x; then ls; fi', deny('permissions_deny')),
  c('if ls; then ls; else curl x; fi', deny('permissions_deny')),
  c('while curl x; do ls; done', deny('permissions_deny')),
  c('while ls; do curl x; done', deny('permissions_deny')),
  c('until curl x; do ls; done', deny('permissions_deny')),
]);
