// unwrap() (wrappers.ts): every reading of a command through its wrappers, which deny, the RN-418
// ceilings and the external-effect checks look through (allow matching never does). Each row is
// a concrete argv and the exact readings, command lines and find -exec commands it yields.
import { describe, expect, it } from 'vitest';
import { basename, unwrap } from '../../src/policy/wrappers.ts';

interface Readings {
  views: string[][];
  commandStrings?: string[];
  execs?: string[][];
  truncated?: boolean;
}

function expectReadings(argv: string[], want: Readings): void {
  const got = unwrap(argv);
  expect({ views: got.views, commandStrings: got.commandStrings, execs: got.execs, truncated: got.truncated }).toEqual({
    views: want.views,
    commandStrings: want.commandStrings ?? [],
    execs: want.execs ?? [],
    truncated: want.truncated ?? false,
  });
}

type Row = [argv: string[], want: Readings];
const rows = (title: string, table: Row[]): void => {
  describe(title, () => {
    it.each(table)('%j', (argv, want) => expectReadings(argv, want));
  });
};

describe('basename: the last path segment of a verb', () => {
  it.each([
    ['/usr/bin/git', 'git'],
    ['git', 'git'],
    ['./bin/sudo', 'sudo'],
    ['dir/', ''],
  ])('%s -> %j', (word, name) => expect(basename(word)).toBe(name));
});

rows('a plain command has one reading, itself', [
  [['ls', '-l'], { views: [['ls', '-l']] }],
  [[], { views: [] }],
  [['npm', 'test'], { views: [['npm', 'test']] }],
  [['npm'], { views: [['npm']] }],
  [['yarn', 'install', 'x'], { views: [['yarn', 'install', 'x']] }],
]);

rows('a path verb is also read by its name, then through the wrapper it names', [
  [['/usr/bin/sudo', 'ls'], { views: [['/usr/bin/sudo', 'ls'], ['sudo', 'ls'], ['ls']] }],
  [
    ['./curl', 'x'],
    {
      views: [
        ['./curl', 'x'],
        ['curl', 'x'],
      ],
    },
  ],
]);

rows('leading NAME=value words are skipped (FOO=1 cmd), and after env', [
  [['FOO=1', 'BAR=2', 'ls'], { views: [['FOO=1', 'BAR=2', 'ls'], ['ls']] }],
  [['FOO=1', 'sudo', 'ls'], { views: [['FOO=1', 'sudo', 'ls'], ['sudo', 'ls'], ['ls']] }],
  [['FOO=1'], { views: [['FOO=1']] }],
  [
    ['env', 'FOO=1', 'curl', 'x'],
    {
      views: [
        ['env', 'FOO=1', 'curl', 'x'],
        ['curl', 'x'],
      ],
    },
  ],
  [['env', '-i', 'A=1', 'B=2', 'ls'], { views: [['env', '-i', 'A=1', 'B=2', 'ls'], ['ls']] }],
]);

rows('two-word runners (npm exec, pnpm dlx, yarn exec, bun x); their first word alone is no wrapper', [
  [['npm', 'exec', '-y', 'curl'], { views: [['npm', 'exec', '-y', 'curl'], ['curl']] }],
  [['npm', 'x', '--', 'curl'], { views: [['npm', 'x', '--', 'curl'], ['curl']] }],
  [['pnpm', 'dlx', 'curl'], { views: [['pnpm', 'dlx', 'curl'], ['curl']] }],
  [['yarn', 'exec', 'curl'], { views: [['yarn', 'exec', 'curl'], ['curl']] }],
  [['bun', 'x', 'curl'], { views: [['bun', 'x', 'curl'], ['curl']] }],
  [['/usr/bin/npm', 'exec', 'curl'], { views: [['/usr/bin/npm', 'exec', 'curl'], ['npm', 'exec', 'curl'], ['curl']] }],
  [['npm', 'run', 'x'], { views: [['npm', 'run', 'x']] }],
  [['pnpm', '-r', 'exec', 'curl'], { views: [['pnpm', '-r', 'exec', 'curl'], ['pnpm', 'exec', 'curl'], ['curl']] }],
  [
    ['npm', '--prefix', 'p', 'x', 'curl'],
    { views: [['npm', '--prefix', 'p', 'x', 'curl'], ['npm', 'x', 'curl'], ['curl']] },
  ],
  [
    ['npm', '--prefix', 'p', 'run', 'x'],
    {
      views: [
        ['npm', '--prefix', 'p', 'run', 'x'],
        ['npm', 'run', 'x'],
      ],
    },
  ],
  [['npm', '-g'], { views: [['npm', '-g']] }],
  [['exec', 'curl'], { views: [['exec', 'curl'], ['curl']] }],
  [['npm exec', 'x', 'curl'], { views: [['npm exec', 'x', 'curl']] }], // one word: no such program
]);

rows('an unknown option is read both ways: a flag, or taking the next word', [
  [['sudo', '-Z', 'x', 'ls'], { views: [['sudo', '-Z', 'x', 'ls'], ['x', 'ls'], ['ls']] }],
  [['nice', '-10', 'ls'], { views: [['nice', '-10', 'ls'], ['ls']] }], // a numeric option, not unknown
  [['nice', '-1a', 'x', 'ls'], { views: [['nice', '-1a', 'x', 'ls'], ['x', 'ls'], ['ls']] }],
  [['nice', '-1.5', 'a', 'ls'], { views: [['nice', '-1.5', 'a', 'ls'], ['a', 'ls'], ['ls']] }], // no number
  [['sudo', 'FOO=1', 'ls'], { views: [['sudo', 'FOO=1', 'ls'], ['FOO=1', 'ls'], ['ls']] }],
  [
    ['nice', '-09', 'a', 'ls'],
    {
      views: [
        ['nice', '-09', 'a', 'ls'],
        ['a', 'ls'],
      ],
    },
  ],
  [
    ['nice', '-', 'ls'],
    {
      views: [
        ['nice', '-', 'ls'],
        ['-', 'ls'],
      ],
    },
  ], // `-` is the program
  [['nohup', '-x', 'ls'], { views: [['nohup', '-x', 'ls'], ['ls']] }],
  [['sudo', 'sudo', 'ls'], { views: [['sudo', 'sudo', 'ls'], ['sudo', 'ls'], ['ls']] }],
]);

rows('wrappers with positionals before the command', [
  [['timeout', '5', 'ls'], { views: [['timeout', '5', 'ls'], ['ls']] }],
  [['timeout', '-k', '1', '5', 'ls'], { views: [['timeout', '-k', '1', '5', 'ls'], ['ls']] }],
  [['chroot', '/srv', 'ls'], { views: [['chroot', '/srv', 'ls'], ['ls']] }],
  [['flock', '/tmp/l', 'ls'], { views: [['flock', '/tmp/l', 'ls'], ['ls']] }],
  [['timeout', '5'], { views: [['timeout', '5']] }],
]);

rows('find -exec, -execdir, -ok run commands; -delete reads as rm -f {}', [
  [
    ['find', '.', '-name', 'x', '-exec', 'rm', '{}', ';', '-delete'],
    {
      views: [
        ['find', '.', '-name', 'x', '-exec', 'rm', '{}', ';', '-delete'],
        ['rm', '{}'],
        ['rm', '-f', '{}'],
      ],
      execs: [
        ['rm', '{}'],
        ['rm', '-f', '{}'],
      ],
    },
  ],
  [
    ['find', '.', '-exec', 'grep', 'x', '{}', '+', '-ok', 'rm', ';'],
    {
      views: [['find', '.', '-exec', 'grep', 'x', '{}', '+', '-ok', 'rm', ';'], ['grep', 'x', '{}'], ['rm']],
      execs: [['grep', 'x', '{}'], ['rm']],
    },
  ],
  [
    ['find', '.', '-execdir', 'echo', '+', 'x', ';'],
    {
      views: [
        ['find', '.', '-execdir', 'echo', '+', 'x', ';'],
        ['echo', '+', 'x'],
      ],
      execs: [['echo', '+', 'x']],
    },
  ],
  [
    ['find', '.', '-okdir', 'rm', '{}', '+'],
    {
      views: [
        ['find', '.', '-okdir', 'rm', '{}', '+'],
        ['rm', '{}'],
      ],
      execs: [['rm', '{}']],
    },
  ],
  [['find', '.', '-exec', ';'], { views: [['find', '.', '-exec', ';']] }],
  [['find', '.', '-exec', 'rm'], { views: [['find', '.', '-exec', 'rm'], ['rm']], execs: [['rm']] }],
  [
    ['find', '-delete'],
    {
      views: [
        ['find', '-delete'],
        ['rm', '-f', '{}'],
      ],
      execs: [['rm', '-f', '{}']],
    },
  ],
]);

rows('ssh: the remote command line and the commands ssh runs here (-o ProxyCommand=...)', [
  [
    ['ssh', '-o', 'ProxyCommand=nc x', 'host', 'git', 'push'],
    { views: [['ssh', '-o', 'ProxyCommand=nc x', 'host', 'git', 'push']], commandStrings: ['nc x', 'git push'] },
  ],
  [
    ['ssh', '-oProxyCommand nc x', '-p', '22', 'host', '-v', 'ls', '-la'],
    {
      views: [['ssh', '-oProxyCommand nc x', '-p', '22', 'host', '-v', 'ls', '-la']],
      commandStrings: ['nc x', 'ls -la'],
    },
  ],
  [['ssh', '-o', 'localcommand=id', 'h'], { views: [['ssh', '-o', 'localcommand=id', 'h']], commandStrings: ['id'] }],
  [['ssh', '-oKnownHostsCommand=id', 'h'], { views: [['ssh', '-oKnownHostsCommand=id', 'h']], commandStrings: ['id'] }],
  [['ssh', '-o', 'User=git', 'host'], { views: [['ssh', '-o', 'User=git', 'host']] }],
  [['ssh', '-o', 'ProxyCommandX', 'h'], { views: [['ssh', '-o', 'ProxyCommandX', 'h']] }], // no such key
  [['ssh', '-v', 'ProxyCommand=id'], { views: [['ssh', '-v', 'ProxyCommand=id']] }], // the host's name
  [['ssh', '-o', '=ProxyCommand', 'host'], { views: [['ssh', '-o', '=ProxyCommand', 'host']] }],
  [['ssh', '-o'], { views: [['ssh', '-o']] }],
  [['ssh', '-Z', 'host', 'ls'], { views: [['ssh', '-Z', 'host', 'ls']], commandStrings: ['ls'] }],
  [['ssh', '-vp', '22', 'host', 'ls'], { views: [['ssh', '-vp', '22', 'host', 'ls']], commandStrings: ['ls'] }],
  [['ssh', 'host'], { views: [['ssh', 'host']] }],
]);
