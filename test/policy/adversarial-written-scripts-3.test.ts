// Scripts written and run, third round (a reviewer's attack on this stop's change, stop 25): each
// of these was auto-approved with the deny or the read outside hidden in a file the command wrote,
// or in an environment variable.
// - A shell cluster with o or O takes the next word (`bash -euo pipefail x.sh` ran x.sh; the
//   pipefail was read as the script).
// - parallel's own replacement string (`parallel -I% sh % ::: x.sh`).
// - `sort -o FILE` writes FILE.
// - HOME, ZDOTDIR and XDG_CONFIG_HOME name the folder of the files a shell or git reads at start.
// - `BASH_FUNC_name%%=() { … }` is a function bash imports and runs.
// - A name that differs only in Unicode case or normalization is the same file on macOS.
import { MANUAL, ask, auto, c, deny, runCases } from './adversarial-harness.ts';

const TOOLS = 'echo printf sh bash zsh cat sort env git parallel find xargs';
const PERMS = { allow: TOOLS.split(' ').map((t) => `Terminal(${t}:*)`), deny: [], ask: [] };
const SETUP = { ...MANUAL, label: 'echo, sort, env, git, parallel and the shells allowed', permissions: PERMS };
const ALLOWED = auto('permissions_allow');
const WRITTEN_AND_RUN = ask('unsafe_shell_construct');
const DENIED = deny('builtin_deny');

runCases('RN-075 each o or O of a shell cluster takes the next word', SETUP, [
  ...[
    "echo 'rm -rf /' > x.sh; bash -euo pipefail x.sh",
    "echo 'rm -rf /' > x.sh; bash -eo errexit x.sh",
    "echo 'rm -rf /' > x.sh; bash -eO extglob x.sh",
    "echo 'rm -rf /' > x.sh; bash +eo posix x.sh",
    "echo 'rm -rf /' > x.sh; bash -oo pipefail errexit x.sh",
    "echo 'rm -rf /' | bash -euo pipefail",
    "echo 'rm -rf /' | sh -eo errexit",
  ].map((command) => c(command, DENIED)),
  c('echo ls > x.sh; find . -name x.sh -exec bash -euo pipefail {} \\;', WRITTEN_AND_RUN),
  c('echo ls | bash -euo pipefail', ALLOWED),
]);

runCases("RN-075 parallel's replacement string stands for each argument", SETUP, [
  ...[
    'echo ls > x.sh; parallel -I% sh % ::: x.sh',
    'echo ls > x.sh; parallel -I % sh % ::: x.sh',
    'echo ls > x.sh; parallel -IXX bash XX ::: x.sh',
    'echo ls > x.sh; parallel --replace=@@ sh @@ ::: x.sh',
    'echo ls > x.sh; parallel -I% sh ./% ::: x.sh',
  ].map((command) => c(command, WRITTEN_AND_RUN)),
  c('parallel -I% echo % ::: a b', ALLOWED),
  c('parallel -I% % ::: ls', ALLOWED),
]);

runCases('RN-075 sort -o writes the file a shell then runs', SETUP, [
  ...[
    "echo 'rm -rf /' > a; sort -o y.sh a; sh y.sh",
    'cat a | sort -uo y.sh; sh y.sh',
    'echo ls | sort --output=y.sh; sh y.sh',
    'echo ls | sort --out y.sh; bash y.sh',
    'sort -oy.sh a; sh y.sh',
  ].map((command) => c(command, WRITTEN_AND_RUN)),
  c('sort -o out.txt in.txt', ALLOWED),
  c('sort -t o a; sh b', ALLOWED),
]);

runCases('RN-075 a folder of start-up files named by a variable holds any file written', SETUP, [
  ...[
    "echo 'rm -rf /' > .bash_profile; env HOME=. bash -lc true",
    "echo 'cat ../secret' > .profile; env HOME=. sh -l -c true",
    'echo x > .bashrc; env HOME=$PWD bash -i -c true',
    'echo x > .zshenv; env ZDOTDIR=. zsh -c ls',
    'echo x > .gitconfig; env HOME=. git status',
    'echo x > git/config; env XDG_CONFIG_HOME=. git status',
  ].map((command) => c(command, WRITTEN_AND_RUN)),
  // export is not allowed here: asked by default, and the start-up file is found too.
  c('printf x > .zshrc; export ZDOTDIR=.; zsh -i -c ls', ask()),
  c('env HOME=. bash -lc true', ALLOWED),
  c('echo x > a.txt; env LANG=C git status', ALLOWED),
]);

runCases('RN-075 a function bash imports from the environment is a command line', SETUP, [
  c("env 'BASH_FUNC_true%%=() { rm -rf /; }' bash -c true", DENIED),
  c("env 'BASH_FUNC_ls%%=() { rm -rf ~; }' bash -c ls", ask()),
  c("env 'BASH_FUNC_f()=() { rm -rf /; }' bash -c f", DENIED),
  // Its body in braces is a construct that asks, whatever it runs.
  c("env 'BASH_FUNC_ls%%=() { ls; }' bash -c ls", ask('unsafe_shell_construct')),
  c("env 'BASH_FUNC_x%%=() { cat /etc/passwd; }' bash -c x", ask()),
]);

runCases('RN-075 names that differ only in case or Unicode form are the same file (macOS)', SETUP, [
  // U+212A KELVIN SIGN lower-cases to k; é written composed, run decomposed (e + U+0301).
  c("echo 'rm -rf /' > \u212A.sh; sh k.sh", DENIED),
  c("echo 'rm -rf /' > \u00e9.sh; sh e\u0301.sh", DENIED),
  c("echo 'rm -rf /' > e\u0301.sh; sh \u00e9.sh", DENIED),
  c("echo 'rm -rf /' > X.SH; sh x.sh", DENIED),
]);
