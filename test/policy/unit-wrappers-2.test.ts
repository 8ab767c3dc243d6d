// unwrap() (wrappers.ts), second part: command lines handed to a shell (sh -c, env -S, su -c,
// watch, eval, pnpm exec -c), and the bounds that make a command unsafe instead of unread
// (more than 8 forked readings of unknown options, more than 32 readings).
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../src/policy/wrappers.ts';

type Row = [argv: string[], commandStrings: string[], views: string[][]];

/** views: the readings besides argv itself (argv is always the first). */
function rows(title: string, table: Row[]): void {
  describe(title, () => {
    it.each(table)('%j -> %j', (argv, commandStrings, views) => {
      const got = unwrap(argv);
      expect({ commandStrings: got.commandStrings, views: got.views, truncated: got.truncated }).toEqual({
        commandStrings,
        views: [argv, ...views],
        truncated: false,
      });
    });
  });
}

rows('sh -c: the first word after all the options is the command line; the rest are $0, $1...', [
  [['sh', '-c', 'x', 'a', 'b'], ['x'], []],
  [['sh', 'script', '-c', 'x'], [], []], // the arguments of a script
  [['sh', '-c'], [], []],
  [['sh'], [], []],
  [['bash', '-o', 'pipefail', '-c', 'x'], ['x'], []],
  [['bash', '-c', '-o', 'pipefail', 'x'], ['x'], []],
  [['bash', '-oc', 'pipefail', 'x'], ['x'], []],
  [['bash', '+o', 'pipefail', '-c', 'x'], ['x'], []],
  [['bash', '+x', '-c', 'x'], ['x'], []],
  [['bash', '-', '-c', 'x'], [], []], // `-` ends the options: -c is the script's name
  [['bash', '-c', '--', '-x'], ['-x'], []],
  [['bash', '--rcfile', 'f', '-c', 'x'], ['x'], []],
  [['bash', '--rcfile', '-c', 'x'], [], []], // -c is the rc file, x the script
  [['bash', '--norc', '-c', 'x'], ['x'], []],
  [['bash', '--norc', 'f', '-c', 'x'], [], []],
  [['bash', '-Q', '-c', 'x'], ['x'], []], // an unknown letter: bash refuses it, read as a flag
  [['bash', '+', '-c', 'x'], ['x'], []], // a lone + is skipped
  [['bash', '-c', '--frob', 'x', 'y'], ['x', 'y'], []], // the reading where --frob takes x keeps -c
]);

rows('env -S and --split-string, alone or after flags in one word', [
  [['env', '-S', 'x y'], ['x y'], []],
  [['env', '-Sx'], ['x'], []],
  [['env', '--split-string=x'], ['x'], []],
  [['env', '--split-string', 'x'], ['x'], []],
  [['env', '-iS', 'x'], ['x'], []],
  [['env', '-i0vSx'], ['x'], []],
  [['env', '-uS', 'ls'], [], [['ls']]], // S is -u's value
  [['env', '-u', 'S', 'ls'], [], [['ls']]],
  [['env', '--chdir=/S', 'ls'], [], [['ls']]], // a long option is no cluster
  [['env', 'FOO=S', 'ls'], [], [['ls']]],
  [['env', '-S'], [], []],
  [['env', '-i'], [], []],
]);

rows('command options read anywhere: su, script, flock, rsync -e', [
  [['su', 'root', '-c', 'x'], ['x'], []],
  [['su', '-c'], [], []],
  [['su', '--command=x'], ['x'], []],
  [['su', '-c=x'], ['=x'], []], // a short option's attached value starts right after it
  [['su', '--session-command', 'x'], ['x'], []],
  [['su', '-lc', 'x', 'root'], ['x'], []],
  [['su', '-sc', 'x'], [], []], // c is -s's value (the shell)
  [['su', '-', 'root'], [], []],
  [['script', '-qcx', 'log'], ['x'], []],
  [['script', '--command', 'x', 'log'], ['x'], []],
  [['script', '-Oc', 'x'], [], []], // c is -O's value (the log file)
  [['script', 'log'], [], []],
  [['script', 'log', '-c', 'x'], ['x'], []], // getopt reads options after the file too
  [['rsync', '-av', 'a', 'b', '-e'], [], []],
  [['rsync', 'a', 'b', '-e', 'ssh'], ['ssh'], []],
  [['rsync', '--rsh=ssh -p 1', 'a', 'b'], ['ssh -p 1'], []],
  [['rsync', '-avze', 'ssh', 'a', 'b'], ['ssh'], []],
  [['rsync', '-Scurl', 'a', 'b'], [], []], // --sparse --checksum --update --recursive --links
  [['flock', '-w', '5', 'f', 'ls'], [], [['ls']]],
  [['flock', '-c', 'x', 'f'], ['x'], []],
]);

rows('npx -c, --call; pnpm exec -c, --shell-mode; watch and eval hand their words to a shell', [
  [['npx', '-c', 'x'], ['x'], []],
  [['npx', '--call=x'], ['x'], []],
  [['npx', '--call', 'x'], ['x'], []],
  [['npx', '-yc', 'x'], ['x'], []],
  [['npx', '-pc', 'x'], [], [['x']]], // c is -p's value (the package)
  [['npm', 'exec', '-c', 'x'], ['x'], []],
  [['npm', 'x', '--call', 'x'], ['x'], []],
  [['pnpm', 'exec', '-c', 'a', 'b'], ['a b'], []],
  [['pnpm', 'dlx', '--shell-mode', 'a'], ['a'], []],
  [['pnpx', '-c', 'a'], ['a'], []],
  [['pnpm', 'exec', 'a', 'b'], [], [['a', 'b']]],
  [['watch', '-n', '1', 'ls;', 'rm'], ['ls; rm'], []],
  [['watch', '-d', 'ls'], ['ls'], []],
  [['eval', 'a', 'b'], ['a b'], []],
  [['eval'], [], []],
  [['xargs', '-I', '{}', 'sh', '-c', 'x'], ['x'], [['sh', '-c', 'x']]],
]);

rows('each unknown option forks a reading where it takes the next word', [
  [
    ['sudo', '-Z', 'a', '-Y', 'b', '-X', 'c', 'ls'],
    [],
    [['a', '-Y', 'b', '-X', 'c', 'ls'], ['b', '-X', 'c', 'ls'], ['c', 'ls'], ['ls']],
  ],
  [['sudo', '-Z', '-Y', 'ls'], [], [['ls']]],
  [['sudo', '--frob', 'x', 'ls'], [], [['x', 'ls'], ['ls']]],
  [['sudo', '--frob=x', 'ls'], [], [['ls']]], // =value never takes the next word
  [['bash', '-c', '-Q', 'x', 'y'], ['x'], []],
  [['pnpm', 'exec', '-c', '--frob', 'a', 'b'], ['a b', 'b'], []], // shell mode stays on in the fork
]);

describe('the bounds: past them the command is unsafe (truncated), never half read', () => {
  // `sudo -Z v1 -Y v2 …`: each pair forks once.
  const UNKNOWN = ['-Z', '-Y', '-X', '-W', '-Q', '-R', '-O', '-M', '-F'];
  const pairs = (n: number): string[] => ['sudo', ...UNKNOWN.slice(0, n).flatMap((o, k) => [o, `v${k}`]), 'ls'];
  it('su, script and rsync read only their command options: no fork, never unsafe', () => {
    const su = ['su', ...UNKNOWN.flatMap((o, k) => [o, `v${k}`]), 'root'];
    expect([unwrap(su).truncated, unwrap(su).views]).toEqual([false, [su]]);
  });
  it('8 forked readings are read; a 9th makes the command unsafe', () => {
    expect(unwrap(pairs(8)).truncated).toBe(false);
    expect(unwrap(pairs(8)).views.at(-1)).toEqual(['ls']);
    expect(unwrap(pairs(9)).truncated).toBe(true);
  });
  // find with n -exec commands: argv plus n readings.
  const execs = (n: number): string[] => [
    'find',
    '.',
    ...Array.from({ length: n }, (_, k) => ['-exec', `c${k}`, ';']).flat(),
  ];
  it('32 readings are kept; a 33rd makes the command unsafe', () => {
    const at = unwrap(execs(31));
    expect([at.views.length, at.truncated]).toEqual([32, false]);
    const over = unwrap(execs(32));
    expect([over.views.length, over.truncated]).toEqual([32, true]);
    expect(over.execs.length).toBe(32);
  });
  it('a repeated reading is kept once and does not count against the bound', () => {
    const same = ['find', '.', ...Array.from({ length: 40 }, () => ['-exec', 'c', ';']).flat()];
    const got = unwrap(same);
    expect([got.views.length, got.truncated]).toEqual([2, false]);
  });
});
