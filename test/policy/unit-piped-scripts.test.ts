// The three readings piped-scripts.ts gives the engine (issue 9 A.4/RN-075 through stdin), word by
// word: which consumer runs its input as commands, which passes it on, and what text a producer
// prints. The adversarial suite checks decisions; these rows pin each branch, so a mutant that
// changes what `sh`, `at`, `cat` or printf's format is read as fails here.
import { describe, expect, it } from 'vitest';
import { MAX_COMMAND_LENGTH } from '../../src/policy/limits.ts';
import { passesInputOn, printedTexts, readsCommandsFromInput } from '../../src/policy/piped-scripts.ts';

const words = (line: string): string[] => (line === '' ? [] : line.split(' '));
const never = (): boolean => false;

/** A consumer's words, and whether it runs its standard input as commands. */
function readingRows(rows: readonly (readonly [string, boolean])[]): void {
  it.each(rows)('%s → %s', (line, expected) => {
    expect(readsCommandsFromInput(words(line))).toBe(expected);
  });
}

describe('readsCommandsFromInput: the consumer runs its standard input', () => {
  const SHELL_NAMES = [
    'sh',
    'bash',
    'dash',
    'zsh',
    'ksh',
    'ksh93',
    'mksh',
    'lksh',
    'oksh',
    'pdksh',
    'ash',
    'yash',
    'posh',
    'rbash',
    'rzsh',
  ];
  it.each(SHELL_NAMES)('%s, bare and by path, reads its input; with a script file it does not', (shell) => {
    expect(readsCommandsFromInput([shell])).toBe(true);
    expect(readsCommandsFromInput([`/usr/bin/${shell}`])).toBe(true);
    expect(readsCommandsFromInput([shell, 'build.sh'])).toBe(false);
    expect(readsCommandsFromInput(['busybox', shell])).toBe(true);
  });

  readingRows([
    ['sh -s', true],
    ['bash -s -- a b', true],
    ['sh -', true],
    ['sh - a', true],
    ['sh --', true],
    ['sh -- -', true],
    ['sh -- - x', true],
    ['sh -- run.sh', false],
    ['sh -- -s', false],
    ['sh -- -c', false],
    ['sh -e', true],
    ['sh -eu', true],
    ['sh +e', true],
    ['sh -es', true],
    ['sh +s', true],
    ['sh -xs x.sh', true],
    ['sh -e run.sh', false],
    ['sh +x run.sh', false],
    ['sh -c echo', false],
    ['sh -ec echo', false],
    ['sh -cs echo', false],
    ['sh +c', false],
    ['sh -c', false],
    ['sh -1', true],
    ['sh -3c run.sh', false],
    ['sh -x1s', true],
    ['bash --norc', true],
    ['bash --norc run.sh', false],
    ['bash --posix -- run.sh', false],
    ['sh -o pipefail', true],
    ['sh -o pipefail run.sh', false],
    ['sh -o', true],
    ['sh x -s', false],
  ]);

  it.each(['-o', '+o', '-O', '+O', '--rcfile', '--init-file'])(
    'sh %s VALUE takes the next word as the value, not as a script',
    (option) => {
      expect(readsCommandsFromInput(['bash', option, 'value'])).toBe(true);
      expect(readsCommandsFromInput(['bash', option, 'value', 'run.sh'])).toBe(false);
    },
  );

  readingRows([
    ['busybox sh', true],
    ['busybox ash -s', true],
    ['busybox sh run.sh', false],
    ['busybox', false],
    ['busybox busybox', false],
    ['busybox busybox sh', false],
    ['busybox ls', false],
    ['busybox -s', false],
    ['/bin/busybox sh', true],
  ]);

  readingRows([
    ['at now', true],
    ['at now + 1 minute', true],
    ['at -m noon', true],
    ['at --version', true],
    ['/usr/bin/at now', true],
    ['at -f job.sh now', false],
    ['at -mf job.sh now', false],
    ['at now -f job.sh', false],
    ['batch', true],
    ['batch -m', true],
    ['batch -f job.sh', false],
  ]);

  it.each(['', 'python3', 'node', 'cat', 'xargs', 'shx', 'bashful', 'at-spi', 'fish'])(
    '%s does not run its input as shell commands',
    (line) => {
      expect(readsCommandsFromInput(words(line))).toBe(false);
    },
  );
});

describe('passesInputOn: cat without files and tee print what they read', () => {
  it.each([
    ['tee', true],
    ['tee out.txt', true],
    ['/usr/bin/tee -a log', true],
    ['cat', true],
    ['cat -', true],
    ['cat -n', true],
    ['cat - -u', true],
    ['/bin/cat -A', true],
    ['cat file', false],
    ['cat -n file', false],
    ['cat - file', false],
    ['', false],
    ['head', false],
    ['less', false],
    ['tac', false],
  ] as const)('%s → %s', (line, expected) => {
    expect(passesInputOn(words(line))).toBe(expected);
  });

  it('an empty word after cat is a file name, not an option', () => {
    expect(passesInputOn(['cat', ''])).toBe(false);
  });
});

describe('printedTexts: what echo, yes and printf print', () => {
  it.each([
    [['echo', 'a', 'b'], ['a b']],
    [['echo'], ['']],
    [['/bin/echo', 'hi'], ['hi']],
    [['echo', '-n', 'x'], ['x']],
    [['echo', '-e', 'x'], ['x']],
    [['echo', '-E', 'x'], ['x']],
    [['echo', '-neE', 'x'], ['x']],
    [['echo', '-n', '-e', 'x', '-n'], ['x -n']],
    [['echo', '-x', 'y'], ['-x y']],
    [['echo', '-nx', 'y'], ['-nx y']],
    [['echo', '-', 'y'], ['- y']],
    [['yes', 'y'], ['y']],
    [['yes', 'git', 'push'], ['git push']],
    [['printf', 'git push'], ['git push']],
    [['printf', '--', 'x'], ['x']],
    [['printf', 'x', '-v'], ['x']],
  ])('%j → %j', (view, expected) => {
    expect(printedTexts(view, never)).toEqual(expected);
  });

  it.each([
    [['yes']],
    [['printf']],
    [['printf', '--']],
    [['printf', '-v', 'var', 'x']],
    [['printf', '--', '-v', 'var', 'x']],
    [['cat', 'x']],
    [['tee']],
    [[]],
    [['echoes', 'x']],
  ])('%j prints nothing known', (view) => {
    expect(printedTexts(view, never)).toEqual([]);
  });

  it('a word the shell expands makes the text unknown; the verb itself is not asked', () => {
    const dollar = (w: string): boolean => w.includes('$');
    expect(printedTexts(['echo', 'a', '$X'], dollar)).toEqual([]);
    expect(printedTexts(['printf', '%s', '$X'], dollar)).toEqual([]);
    expect(printedTexts(['yes', '$X'], dollar)).toEqual([]);
    expect(printedTexts(['echo', 'a'], (w) => w === 'echo')).toEqual(['a']);
  });

  it.each([
    ['%s', ['a'], 'a'],
    ['%s-%s', ['a', 'b', 'c'], 'a-bc-'],
    ['%s,', ['a', 'b'], 'a,b,'],
    ['%s %s', ['a'], 'a '],
    ['x', ['a', 'b'], 'x'],
    ['%%', [], '%'],
    ['%%%s', ['a'], '%a'],
    ['%d', ['12'], '12'],
    ['%i', ['x'], 'x'],
    ['%u', ['x'], 'x'],
    ['%b', ['x'], 'x'],
    ['%c', ['xyz'], 'x'],
    ['%5s', ['ab'], '   ab'],
    ['%-5s|', ['ab'], 'ab   |'],
    ['%+5s', ['ab'], '   ab'],
    ['% 5s', ['ab'], '   ab'],
    ['%05s', ['ab'], '   ab'],
    ['%#3s', ['a'], '  a'],
    ['%-05s|', ['ab'], 'ab   |'],
    ['%1s', ['abc'], 'abc'],
    ['%*s|', ['4', 'a'], '   a|'],
    ['%*s|', ['-4', 'a'], 'a   |'],
    ['%*s|', ['x', 'a'], 'a|'],
    ['%.2s', ['abcd'], 'ab'],
    ['%.2b', ['abcd'], 'ab'],
    ['%.1d', ['123'], '123'],
    ['%.1c', ['xyz'], 'x'],
    ['%.*s', ['1', 'abc'], 'a'],
    ['%.*s', ['x', 'abc'], ''],
    ['%.s', ['abc'], ''],
    ['%4.2s|', ['abcd'], '  ab|'],
    ['%-4.2s|', ['abcd'], 'ab  |'],
    ['%*.*s|', ['3', '1', 'xyz'], '  x|'],
  ])('printf %j %j → %j', (format, args, expected) => {
    expect(printedTexts(['printf', format, ...args], never)).toEqual([expected]);
  });

  it.each([['%q'], ['%x'], ['%f'], ['%'], ['a%'], ['%-'], ['%5']])(
    'printf %j: a conversion it does not read',
    (format) => {
      expect(printedTexts(['printf', format, 'a'], never)).toEqual([]);
    },
  );

  it('a width past the command cap pads only up to the cap', () => {
    const [text] = printedTexts(['printf', `%${MAX_COMMAND_LENGTH * 4}s`, 'a'], never);
    expect(text).toHaveLength(MAX_COMMAND_LENGTH);
    expect(text!.endsWith(' a')).toBe(true);
    const [left] = printedTexts(['printf', `%-${MAX_COMMAND_LENGTH + 9}s`, 'ab'], never);
    expect(left).toHaveLength(MAX_COMMAND_LENGTH);
    expect(left!.startsWith('ab ')).toBe(true);
  });

  it.each([
    ['a\\nb', 'a\nb'],
    ['a\\tb', 'a\tb'],
    ['a\\rb', 'a\nb'],
    ['a\\vb', 'a\nb'],
    ['a\\fb', 'a\nb'],
    ['a\\ab', 'a b'],
    ['a\\bb', 'a b'],
    ['a\\eb', 'a b'],
    ['a\\cb', 'a b'],
    ['a\\\\b', 'a\\b'],
    ['\\101', 'A'],
    ['\\0101', 'A'],
    ['\\60x', '0x'],
    ['\\7', '\u0007'],
    ['\\400', '\u0000'],
    ['\\x41', 'A'],
    ['\\x4G', '\u0004G'],
    ['\\u0041', 'A'],
    ['\\u41', 'A'],
    ['git\\040push', 'git push'],
    ['a\\qb\\n', 'a\\qb\n'],
  ])('echo %j is also read as %j', (written, read) => {
    expect(printedTexts(['echo', written], never)).toEqual([written, read]);
  });

  it('text without a backslash, or with only unknown escapes, is read once', () => {
    expect(printedTexts(['echo', 'plain'], never)).toEqual(['plain']);
    expect(printedTexts(['echo', 'a\\qb'], never)).toEqual(['a\\qb']);
    expect(printedTexts(['echo', 'a\\8'], never)).toEqual(['a\\8']);
  });

  it('printf reads the escapes of its format after the conversions', () => {
    expect(printedTexts(['printf', '%s\\n', 'git push'], never)).toEqual(['git push\\n', 'git push\n']);
    expect(printedTexts(['printf', '%s', 'a\\tb'], never)).toEqual(['a\\tb', 'a\tb']);
  });
});
