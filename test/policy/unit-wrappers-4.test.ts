// Readings through the wrappers, fourth round (mutation testing of wrappers.ts at stop 24): each
// row pins the exact readings, command lines and find commands of one input, so a reading lost,
// added or cut short shows. Decisions on the same shapes are in adversarial-wrappers*.test.ts.
import { describe, expect, it } from 'vitest';
import { runsWordsAfterOptions, unwrap, wrapperLength } from '../../src/policy/wrappers.ts';

type Row = [argv: string[], readings: { views?: string[][]; commandStrings?: string[]; execs?: string[][] }];

function readingRows(title: string, rows: Row[]): void {
  it.each(rows)(`${title}: %j`, (argv, expected) => {
    const got = unwrap(argv);
    if (expected.views !== undefined) expect(got.views).toEqual(expected.views);
    if (expected.commandStrings !== undefined) expect(got.commandStrings).toEqual(expected.commandStrings);
    if (expected.execs !== undefined) expect(got.execs).toEqual(expected.execs);
    expect(got.truncated).toBe(false);
  });
}

describe('unwrap, round 4', () => {
  it('an empty argv names no wrapper and runs nothing', () => {
    expect(wrapperLength([])).toBe(0);
    expect(runsWordsAfterOptions([])).toBe(false);
    expect(unwrap([]).views).toEqual([]);
  });

  readingRows('find commands alike at both ends are distinct readings; a repeated one is read once', [
    [
      ['find', '.', '-exec', 'rm', 'a', 'z', ';', '-exec', 'rm', 'b', 'z', ';'],
      {
        views: [
          ['find', '.', '-exec', 'rm', 'a', 'z', ';', '-exec', 'rm', 'b', 'z', ';'],
          ['rm', 'a', 'z'],
          ['rm', 'b', 'z'],
        ],
      },
    ],
    [
      ['find', '.', '-exec', 'rm', 'a', 'z', ';', '-exec', 'rm', 'b', 'z', ';', '-exec', 'rm', 'a', 'z', ';'],
      {
        views: [
          ['find', '.', '-exec', 'rm', 'a', 'z', ';', '-exec', 'rm', 'b', 'z', ';', '-exec', 'rm', 'a', 'z', ';'],
          ['rm', 'a', 'z'],
          ['rm', 'b', 'z'],
        ],
        execs: [
          ['rm', 'a', 'z'],
          ['rm', 'b', 'z'],
          ['rm', 'a', 'z'],
        ],
      },
    ],
    // `{} +` ends the command only as a pair: a word after {} is still the command's.
    [['find', '.', '-exec', 'rm', '{}', 'x', ';'], { execs: [['rm', '{}', 'x']] }],
  ]);

  readingRows('a path verb is also read by its name', [[['/usr/bin/npm'], { views: [['/usr/bin/npm'], ['npm']] }]]);

  readingRows("a CLI's runner word counts only after the CLI's options", [
    [['uv', '-q', 'pip', 'list'], { views: [['uv', '-q', 'pip', 'list']] }],
    // `add` is a subcommand, so `run` is its argument (a package named run).
    [['uv', 'add', 'run', 'rm'], { views: [['uv', 'add', 'run', 'rm']] }],
    [['bundle', 'foo_', 'exec', 'rm'], { views: [['bundle', 'foo_', 'exec', 'rm']] }],
    [
      ['bundle', '_2.4.0_', 'exec', 'rm'],
      {
        views: [['bundle', '_2.4.0_', 'exec', 'rm'], ['bundle', 'exec', 'rm'], ['rm']],
      },
    ],
  ]);

  readingRows("a command option's value, attached or not", [
    [['env', '-Srm -rf /'], { commandStrings: ['rm -rf /'] }],
    // A longer word is another option, not --split-string with a value.
    [['env', '--split-stringfoo', 'ls'], { views: [['env', '--split-stringfoo', 'ls'], ['ls']], commandStrings: [] }],
  ]);

  readingRows("parallel's arguments", [
    [['parallel', 'echo', 'a'], { commandStrings: ['echo a'] }],
    [['parallel', 'echo', 'a', ':::', 'b'], { commandStrings: ['echo a b', 'echo a'] }],
    [['parallel', ':::', 'git push'], { commandStrings: ['git push'] }],
    // After ::::+ come files of arguments.
    [['parallel', 'echo', '::::+', 'list.txt'], { commandStrings: ['echo'] }],
  ]);

  readingRows("pnpm recursive's subcommand", [
    [['pnpm', 'recursive'], { views: [['pnpm', 'recursive']] }],
    [
      ['pnpm', 'recursive', 'exec', 'ls'],
      { views: [['pnpm', 'recursive', 'exec', 'ls'], ['pnpm', 'exec', 'ls'], ['ls']] },
    ],
  ]);
});
