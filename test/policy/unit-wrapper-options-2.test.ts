// The wrappers whose command is not simply the words after their options (mutation testing of
// wrapper-table.ts at stop 24 left their option lists unread): one command line per word
// (hyperfine, concurrently, trap), a line for a shell (watchexec, parallel, watch, eval), a start
// or end word (`--`, `:::`), a command option (`nodemon -x`, `expect -c`, `su -c`, `env -S`), a
// shell mode flag (`pnpm exec -c`, `entr -s`). Each row names what must be read, and a value
// (VAL...) is never read as a command. A listed flag given nine times is no unknown option (past
// eight forks the command is unsafe: truncated).
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../src/policy/wrappers.ts';

interface Expected {
  /** Command lines that must be among commandStrings. */
  strings?: string[];
  /** Readings that must be among views. */
  views?: string[][];
  /** Command lines that must not be read (a file of arguments, a value). */
  absent?: string[];
}
type Row = [argv: string[], expected: Expected];

const same = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((w, i) => w === b[i]);
const nine = (flag: string): string[] => Array<string>(9).fill(flag);

function rows(title: string, table: Row[]): void {
  it.each(table)(`${title}: %j`, (argv, expected) => {
    const { views, commandStrings, truncated } = unwrap(argv);
    expect(truncated).toBe(false);
    for (const line of expected.strings ?? []) expect(commandStrings).toContain(line);
    for (const view of expected.views ?? []) expect(views.some((v) => same(v, view))).toBe(true);
    for (const line of expected.absent ?? []) expect(commandStrings).not.toContain(line);
    expect(commandStrings.filter((line) => line.startsWith('VAL'))).toEqual([]);
    expect(views.filter((view) => view[0]!.startsWith('VAL'))).toEqual([]);
  });
}

describe('wrappers with one command line per word', () => {
  rows('hyperfine', [
    [['hyperfine', '-w', 'VAL', 'cmd arg'], { strings: ['cmd arg'] }],
    [['hyperfine', '--export-json', 'VAL', 'cmd arg', 'other x'], { strings: ['cmd arg', 'other x'] }],
    [['hyperfine', ...nine('-N'), 'cmd arg'], { strings: ['cmd arg'] }],
    [['hyperfine', ...nine('--show-output'), 'cmd arg'], { strings: ['cmd arg'] }],
    // Its command options, attached with `=` (a bare one is also read as a flag: the same lines).
    [['hyperfine', '--prepare=p q', 'cmd arg'], { strings: ['p q', 'cmd arg'] }],
    [['hyperfine', '--cleanup=c d', 'cmd arg'], { strings: ['c d', 'cmd arg'] }],
    [['hyperfine', '--setup=s t', 'cmd arg'], { strings: ['s t', 'cmd arg'] }],
    [['hyperfine', '--conclude=e f', 'cmd arg'], { strings: ['e f', 'cmd arg'] }],
  ]);
  rows('concurrently', [
    [['concurrently', '-n', 'VAL', 'cmd arg'], { strings: ['cmd arg'] }],
    [['concurrently', '--names', 'VAL', 'cmd arg', 'other x'], { strings: ['cmd arg', 'other x'] }],
    [['concurrently', ...nine('-k'), 'cmd arg'], { strings: ['cmd arg'] }],
    [['concurrently', ...nine('--raw'), 'cmd arg'], { strings: ['cmd arg'] }],
  ]);
  rows('trap', [[['trap', 'cmd arg', 'EXIT'], { strings: ['cmd arg'] }]]);
});

describe('wrappers that hand a line to a shell', () => {
  rows('watchexec', [
    [['watchexec', '-w', 'VAL', 'cmd', 'arg'], { strings: ['cmd arg'] }],
    [['watchexec', '--exts', 'VAL', 'cmd', 'arg'], { strings: ['cmd arg'] }],
    [['watchexec', ...nine('-c'), 'cmd', 'arg'], { strings: ['cmd arg'] }],
    [['watchexec', ...nine('--restart'), 'cmd', 'arg'], { strings: ['cmd arg'] }],
    [['watchexec', '-e', 'VAL', '--', 'cmd', 'arg'], { strings: ['cmd arg'] }],
  ]);
  rows('parallel', [
    [['parallel', '-j', 'VAL', 'cmd', ':::', 'arg'], { strings: ['cmd arg'] }],
    [['parallel', '--joblog', 'VAL', 'cmd', ':::', 'arg'], { strings: ['cmd arg'] }],
    [['parallel', ...nine('-k'), 'cmd', ':::', 'arg'], { strings: ['cmd arg'] }],
    [['parallel', ...nine('--will-cite'), 'cmd', ':::', 'arg'], { strings: ['cmd arg'] }],
    [['parallel', ':::', 'cmd arg'], { strings: ['cmd arg'] }],
    [['parallel', ':::+', 'cmd arg'], { strings: ['cmd arg'] }],
    [['parallel', 'cmd', '::::', 'args.txt'], { strings: ['cmd'], absent: ['cmd args.txt'] }],
    [['parallel', 'cmd', '::::+', 'args.txt'], { strings: ['cmd'], absent: ['cmd args.txt'] }],
    [['parallel', '::::', 'args.txt'], { absent: ['args.txt'] }],
    [['parallel', '-I%', 'sh', '%', ':::', 'x.sh'], { strings: ['sh % x.sh', 'sh x.sh'] }],
  ]);
  rows('watch', [
    [['watch', '--interval', 'VAL', 'cmd', 'arg'], { strings: ['cmd arg'] }],
    [['watch', ...nine('-d'), 'cmd', 'arg'], { strings: ['cmd arg'] }],
    [['watch', ...nine('--no-title'), 'cmd', 'arg'], { strings: ['cmd arg'] }],
  ]);
  rows('eval, bun exec, cross-env-shell, sops exec-env, npm explore', [
    [['eval', 'cmd', 'arg'], { strings: ['cmd arg'] }],
    [['bun', 'exec', 'cmd arg'], { strings: ['cmd arg'] }],
    [['cross-env-shell', 'A=1', 'cmd', 'arg'], { strings: ['cmd arg'] }],
    [['sops', 'exec-env', 'secrets.enc', 'cmd arg'], { strings: ['cmd arg'] }],
    [['npm', 'explore', 'pkg', '--', 'cmd', 'arg'], { strings: ['cmd arg'] }],
    [['npm', 'explore', '--prefix', 'VAL', 'pkg', 'cmd', 'arg'], { strings: ['cmd arg'] }],
  ]);
  rows('a shell mode flag turns the rest into a shell line', [
    [['pnpm', 'exec', '-c', 'cmd', 'arg'], { strings: ['cmd arg'] }],
    [['pnpm', 'dlx', '--shell-mode', 'cmd', 'arg'], { strings: ['cmd arg'] }],
    [['pnpx', '-c', 'cmd', 'arg'], { strings: ['cmd arg'] }],
    [['entr', '-s', 'cmd arg'], { strings: ['cmd arg'] }],
    [['entr', '-rs', 'cmd arg'], { strings: ['cmd arg'] }],
  ]);
});

describe('wrappers with a start word', () => {
  rows('dotenv', [
    [['dotenv', '-e', 'VAL', 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['dotenv', '-c', 'VAL', 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['dotenv', ...nine('-p'), 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['dotenv', ...nine('--override'), 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['dotenv', '-e', 'VAL', '--', 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
  ]);
  rows('mise, distrobox, aws-vault, nx, perf, uv tool', [
    [['mise', 'exec', '-C', 'VAL', 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['mise', 'x', ...nine('--raw'), 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['mise', 'x', 'node@20', '--', 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['mise', 'exec', '--command=cmd arg'], { strings: ['cmd arg'] }],
    [['distrobox', 'enter', '-n', 'VAL', 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['distrobox', 'enter', ...nine('--no-tty'), 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['distrobox', 'enter', 'box', '--', 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['aws-vault', 'exec', 'prod', '--', 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['nx', 'exec', '--', 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['perf', 'stat', '--', 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['uv', 'tool', 'run', 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['yarn', 'workspace', 'web', 'exec', 'cmd', 'arg'], { views: [['yarn', 'exec', 'cmd', 'arg']] }],
    [['yarn', 'workspaces', 'foreach', 'exec', 'cmd', 'arg'], { views: [['yarn', 'exec', 'cmd', 'arg']] }],
    [['direnv', 'exec', '.', 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['nix', 'develop', '.#x', '-c', 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
    [['nix', 'shell', 'nixpkgs#jq', '--command', 'cmd', 'arg'], { views: [['cmd', 'arg']] }],
  ]);
});

describe('wrappers with a command option', () => {
  rows('the option and its value, wherever it stands', [
    [['nodemon', '-x', 'cmd arg', 'app.js'], { strings: ['cmd arg'] }],
    [['nodemon', 'app.js', '--exec', 'cmd arg'], { strings: ['cmd arg'] }],
    [['nodemon', '--exec=cmd arg'], { strings: ['cmd arg'] }],
    [['expect', '-c', 'spawn cmd'], { strings: ['spawn cmd'] }],
    [['expect', '-f', 'x.exp', '-c', 'spawn cmd'], { strings: ['spawn cmd'] }],
    [['nix-shell', '--run', 'cmd arg'], { strings: ['cmd arg'] }],
    [['nix-shell', 'shell.nix', '--command=cmd arg'], { strings: ['cmd arg'] }],
    [['doppler', 'run', '--command=cmd arg'], { strings: ['cmd arg'] }],
    [['infisical', 'run', '--command', 'cmd arg'], { strings: ['cmd arg'] }],
    [['flox', 'activate', '-c', 'cmd arg'], { strings: ['cmd arg'] }],
    [['flox', 'activate', '--command=cmd arg'], { strings: ['cmd arg'] }],
    [['rsync', '-e', 'ssh -p 2', 'a', 'b:'], { strings: ['ssh -p 2'] }],
    [['rsync', '-a', '--rsh=ssh -p 2', 'a', 'b:'], { strings: ['ssh -p 2'] }],
    [['runuser', '-u', 'VAL', '-c', 'cmd arg'], { strings: ['cmd arg'] }],
    [['runuser', 'bob', '--session-command=cmd arg'], { strings: ['cmd arg'] }],
    [['flock', 'lock', '-c', 'cmd arg'], { strings: ['cmd arg'] }],
    [['flock', '--command=cmd arg', 'lock'], { strings: ['cmd arg'] }],
    [['sg', 'grp', '-c', 'cmd arg'], { strings: ['cmd arg'] }],
    [['env', '-S', 'cmd arg'], { strings: ['cmd arg'] }],
    [['env', '--split-string=cmd arg'], { strings: ['cmd arg'] }],
    [['npx', '-c', 'cmd arg'], { strings: ['cmd arg'] }],
    [['npm', 'exec', '--call=cmd arg'], { strings: ['cmd arg'] }],
    [['npm', 'x', '--call', 'cmd arg'], { strings: ['cmd arg'] }],
  ]);
  rows('su and script: only their valued options matter', [
    [['su', '-s', 'VAL', '-c', 'cmd arg'], { strings: ['cmd arg'] }],
    [['su', 'root', '--command=cmd arg'], { strings: ['cmd arg'] }],
    [['su', '-', 'root', '--session-command', 'cmd arg'], { strings: ['cmd arg'] }],
    [['script', '-O', 'VAL', '-c', 'cmd arg'], { strings: ['cmd arg'] }],
    [['script', '--command=cmd arg', 'log'], { strings: ['cmd arg'] }],
    [['script', '-qc', 'cmd arg'], { strings: ['cmd arg'] }],
  ]);
  rows('the shells: -o and -O take a name, the long options take none or one', [
    [['bash', '-o', 'VAL', '-c', 'cmd arg'], { strings: ['cmd arg'] }],
    [['sh', '-O', 'VAL', '-c', 'cmd arg'], { strings: ['cmd arg'] }],
    [['bash', '--rcfile', 'VAL', '-c', 'cmd arg'], { strings: ['cmd arg'] }],
    [['zsh', '--init-file', 'VAL', '-c', 'cmd arg'], { strings: ['cmd arg'] }],
    [['bash', ...nine('--norc'), '-c', 'cmd arg'], { strings: ['cmd arg'] }],
    [['dash', ...nine('--posix'), '-c', 'cmd arg'], { strings: ['cmd arg'] }],
    [['ksh', '-c', 'cmd arg'], { strings: ['cmd arg'] }],
  ]);
});
