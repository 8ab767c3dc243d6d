// Each wrapper's own options, one valued option and one flag per row of the wrappers table
// (wrapper-table.ts; mutation testing at stop 24 left whole option lists unread). A value is not
// the command (`sudo -u VAL cmd arg` runs cmd), and a flag takes no value (`time -p cmd arg` runs
// cmd, not arg). The option names are the tools' own, as the table lists them; a row fails when its
// option goes missing from the table. Wrappers with a shell flag, a start or end word, or no
// visible command (sh, parallel, hyperfine, su...) have rows of their own elsewhere.
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../src/policy/wrappers.ts';

type Kind = 'valued' | 'flag';
type Rest = 'command' | 'shell' | 'subcommand';

const ROWS: Array<[Kind, string[], Rest]> = [
  ['valued', ['sudo', '-u', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['sudo', '-A', 'cmd', 'arg'], 'command'],
  ['valued', ['doas', '-u', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['doas', '-n', 'cmd', 'arg'], 'command'],
  ['valued', ['env', '-u', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['env', '-i', 'cmd', 'arg'], 'command'],
  ['valued', ['timeout', '-s', 'VAL', 'P0', 'cmd', 'arg'], 'command'],
  ['flag', ['timeout', '-v', 'P0', 'cmd', 'arg'], 'command'],
  ['valued', ['nice', '-n', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['setsid', '-c', 'cmd', 'arg'], 'command'],
  ['flag', ['command', '-p', 'cmd', 'arg'], 'command'],
  ['valued', ['exec', '-a', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['exec', '-c', 'cmd', 'arg'], 'command'],
  ['valued', ['time', '-o', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['time', '-p', 'cmd', 'arg'], 'command'],
  ['valued', ['xargs', '-a', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['xargs', '-0', 'cmd', 'arg'], 'command'],
  ['valued', ['npx', '-p', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['npx', '-y', 'cmd', 'arg'], 'command'],
  ['valued', ['pnpx', '--package', 'VAL', 'cmd', 'arg'], 'command'],
  ['valued', ['bunx', '-p', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['bunx', '--bun', 'cmd', 'arg'], 'command'],
  ['valued', ['npm', 'exec', '-p', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['npm', 'exec', '-y', 'cmd', 'arg'], 'command'],
  ['valued', ['npm', 'x', '-p', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['npm', 'x', '-y', 'cmd', 'arg'], 'command'],
  ['valued', ['pnpm', 'exec', '--package', 'VAL', 'cmd', 'arg'], 'command'],
  ['valued', ['pnpm', 'dlx', '--package', 'VAL', 'cmd', 'arg'], 'command'],
  ['valued', ['yarn', 'dlx', '-p', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['yarn', 'dlx', '-q', 'cmd', 'arg'], 'command'],
  ['valued', ['bun', 'x', '-p', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['bun', 'x', '--bun', 'cmd', 'arg'], 'command'],
  ['valued', ['pnpm', 'recursive', '--package', 'VAL', 'exec', 'cmd', 'arg'], 'subcommand'],
  ['flag', ['pnpm', 'recursive', '-c', 'exec', 'cmd', 'arg'], 'subcommand'],
  ['valued', ['pnpm', 'm', '--package', 'VAL', 'exec', 'cmd', 'arg'], 'subcommand'],
  ['flag', ['pnpm', 'm', '-c', 'exec', 'cmd', 'arg'], 'subcommand'],
  ['valued', ['pnpm', 'multi', '--package', 'VAL', 'exec', 'cmd', 'arg'], 'subcommand'],
  ['flag', ['pnpm', 'multi', '-c', 'exec', 'cmd', 'arg'], 'subcommand'],
  ['valued', ['uv', 'run', '--with', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['uv', 'run', '--no-project', 'cmd', 'arg'], 'command'],
  ['valued', ['uvx', '--with', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['uvx', '--no-project', 'cmd', 'arg'], 'command'],
  ['valued', ['pdm', 'run', '-p', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['pdm', 'run', '-g', 'cmd', 'arg'], 'command'],
  ['valued', ['conda', 'run', '-n', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['conda', 'run', '--no-capture-output', 'cmd', 'arg'], 'command'],
  ['valued', ['mamba', 'run', '-n', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['mamba', 'run', '--no-capture-output', 'cmd', 'arg'], 'command'],
  ['valued', ['micromamba', 'run', '-n', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['micromamba', 'run', '--no-capture-output', 'cmd', 'arg'], 'command'],
  ['flag', ['rustup', 'run', '--install', 'P0', 'cmd', 'arg'], 'command'],
  ['valued', ['volta', 'run', '--node', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['volta', 'run', '--bundled-npm', 'cmd', 'arg'], 'command'],
  ['valued', ['strace', '-e', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['strace', '-f', 'cmd', 'arg'], 'command'],
  ['valued', ['ltrace', '-e', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['ltrace', '-f', 'cmd', 'arg'], 'command'],
  ['flag', ['unbuffer', '-p', 'cmd', 'arg'], 'command'],
  ['flag', ['faketime', '-f', 'P0', 'cmd', 'arg'], 'command'],
  ['valued', ['nocache', '-n', 'VAL', 'cmd', 'arg'], 'command'],
  ['valued', ['numactl', '-N', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['numactl', '-a', 'cmd', 'arg'], 'command'],
  ['valued', ['systemd-run', '-p', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['systemd-run', '--user', 'cmd', 'arg'], 'command'],
  ['valued', ['fakeroot', '-l', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['fakeroot', '-u', 'cmd', 'arg'], 'command'],
  ['valued', ['xvfb-run', '-e', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['xvfb-run', '-a', 'cmd', 'arg'], 'command'],
  ['valued', ['runuser', '-u', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['runuser', '-l', 'cmd', 'arg'], 'command'],
  ['valued', ['torsocks', '-u', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['torsocks', '-i', 'cmd', 'arg'], 'command'],
  ['valued', ['proxychains', '-f', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['proxychains', '-q', 'cmd', 'arg'], 'command'],
  ['valued', ['proxychains4', '-f', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['proxychains4', '-q', 'cmd', 'arg'], 'command'],
  ['valued', ['prlimit', '-p', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['prlimit', '--noheadings', 'cmd', 'arg'], 'command'],
  ['valued', ['tini', '-p', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['tini', '-s', 'cmd', 'arg'], 'command'],
  ['valued', ['dumb-init', '-r', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['dumb-init', '-c', 'cmd', 'arg'], 'command'],
  ['valued', ['dbus-run-session', '--config-file', 'VAL', 'cmd', 'arg'], 'command'],
  ['valued', ['proot', '-r', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['proot', '-0', 'cmd', 'arg'], 'command'],
  ['flag', ['entr', '-a', 'cmd', 'arg'], 'command'],
  ['valued', ['bundle', 'exec', '--gemfile', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['bundle', 'exec', '--keep-file-descriptors', 'cmd', 'arg'], 'command'],
  ['valued', ['env-cmd', '-f', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['env-cmd', '--fallback', 'cmd', 'arg'], 'command'],
  ['valued', ['summon', '-p', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['summon', '--yaml', 'cmd', 'arg'], 'command'],
  ['valued', ['chpst', '-u', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['chpst', '-P', 'cmd', 'arg'], 'command'],
  ['valued', ['setpriv', '--reuid', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['setpriv', '-d', 'cmd', 'arg'], 'command'],
  ['valued', ['screen', '-S', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['screen', '-d', 'cmd', 'arg'], 'command'],
  ['valued', ['watch', '-n', 'VAL', 'cmd', 'arg'], 'shell'],
  ['flag', ['watch', '-d', 'cmd', 'arg'], 'shell'],
  ['valued', ['flock', '-w', 'VAL', 'P0', 'cmd', 'arg'], 'command'],
  ['flag', ['flock', '-s', 'P0', 'cmd', 'arg'], 'command'],
  ['flag', ['busybox', '--list', 'cmd', 'arg'], 'command'],
  ['valued', ['stdbuf', '-i', 'VAL', 'cmd', 'arg'], 'command'],
  ['valued', ['ionice', '-c', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['ionice', '-t', 'cmd', 'arg'], 'command'],
  ['valued', ['chrt', '-T', 'VAL', 'P0', 'cmd', 'arg'], 'command'],
  ['flag', ['chrt', '-a', 'P0', 'cmd', 'arg'], 'command'],
  ['flag', ['taskset', '-a', 'P0', 'cmd', 'arg'], 'command'],
  ['valued', ['unshare', '-S', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['unshare', '-m', 'cmd', 'arg'], 'command'],
  ['valued', ['nsenter', '-t', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['nsenter', '-a', 'cmd', 'arg'], 'command'],
  ['flag', ['chroot', '--skip-chdir', 'P0', 'cmd', 'arg'], 'command'],
  ['flag', ['sg', '-', 'P0', 'cmd', 'arg'], 'shell'],
  ['valued', ['caffeinate', '-t', 'VAL', 'cmd', 'arg'], 'command'],
  ['flag', ['caffeinate', '-d', 'cmd', 'arg'], 'command'],
  ['flag', ['chronic', '-e', 'cmd', 'arg'], 'command'],
];

const same = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((w, i) => w === b[i]);

describe('every wrapper reads its own options', () => {
  it.each(ROWS)('%s: %j', (kind, argv, rest) => {
    const { views, commandStrings } = unwrap(argv);
    const command = rest === 'subcommand' ? [argv[0]!, 'exec', 'cmd', 'arg'] : ['cmd', 'arg'];
    if (rest === 'shell') expect(commandStrings).toContain('cmd arg');
    else expect(views.some((view) => same(view, command))).toBe(true);
    // A valued option's value is never the command; a flag never takes `cmd` as its value.
    const wrong = kind === 'valued' ? (w: string) => w.startsWith('VAL') : (w: string) => w === 'arg';
    expect(views.filter((view) => wrong(view[0]!))).toEqual([]);
    expect(commandStrings.filter(wrong)).toEqual([]);
  });
});

// An unknown option forks a reading, and past MAX_FORKS (8) the command is unsafe (truncated): a
// flag the table lists is no such option, however often it is given (an empty flag list would make
// nine of them too many).
describe('a listed flag is not an unknown option, given nine times', () => {
  it.each(ROWS.filter(([kind]) => kind === 'flag'))('%s: %j', (_kind, argv, rest) => {
    const flagAt = argv.findIndex((w) => w.startsWith('-'));
    const flag = argv[flagAt]!;
    const repeated = [...argv.slice(0, flagAt), ...Array<string>(9).fill(flag), ...argv.slice(flagAt + 1)];
    const { views, commandStrings, truncated } = unwrap(repeated);
    expect(truncated).toBe(false);
    const command = rest === 'subcommand' ? [argv[0]!, 'exec', 'cmd', 'arg'] : ['cmd', 'arg'];
    if (rest === 'shell') expect(commandStrings).toContain('cmd arg');
    else expect(views.some((view) => same(view, command))).toBe(true);
  });
});
