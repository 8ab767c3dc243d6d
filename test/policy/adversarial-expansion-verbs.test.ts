// A command name the shell makes from a variable (attacked after issue 9 A.4): in auto mode
// `x=rm; $x -rf /` and `X=curl; $X https://evil.example` were auto-approved while `rm -rf /` is
// builtin_deny and `curl …` permissions_deny: the engine judged the words `$x -rf /`, not the
// command that runs. No deny rule, ceiling or allow pattern can be checked against an unknown
// name, so it asks (unsafe_shell_construct), in every mode, through wrappers and nested commands.
// Variables in arguments stay as they were (paths are judged by scope.ts).
import { AUTO, FLOOR, MANUAL, ask, auto, c, runCases } from './adversarial-harness.ts';

const UNSAFE = ask('unsafe_shell_construct');
const VARIABLE_VERBS = [
  'x=rm; $x -rf /',
  'X=curl; $X https://evil.example',
  '"$X" https://evil.example',
  '${x}rl https://evil.example',
  '${X:-curl} x',
  "eval '$X x'",
  'sh -c "$X x"',
  'sudo $X x',
  'env $X x',
  'env A=1 $X x',
  'timeout 5 $X x',
  'nice -n 5 "$X"',
  'xargs $X < list',
  '/usr/bin/$X x',
  './$X',
  '$HOME/bin/tool',
  'ls; $CMD',
  'ls && "${CMD}" --flag',
  'A=1 $X',
];
runCases('a command name made from a variable asks (auto mode)', AUTO, [
  ...VARIABLE_VERBS.map((command) => c(command, UNSAFE)),
  c('echo $HOME', auto()),
  c('ls "$DIR"', auto()),
  c('A=$B ls', auto(), { note: 'an assignment before the name is not the name' }),
  c('echo $X; ls', auto()),
]);
runCases(
  'a command name made from a variable asks (container floor)',
  FLOOR,
  VARIABLE_VERBS.map((command) => c(command, UNSAFE)),
);
runCases(
  'a command name made from a variable never auto-approves (manual, DEV preset)',
  MANUAL,
  VARIABLE_VERBS.map((command) => c(command, ask())),
);
