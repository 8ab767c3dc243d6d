// Which words of grep, sed, awk, echo and printf are data, not paths (issue 9 A.5; mutation testing
// of argument-roles.ts). The option tables are checked against the tools' own `--help` on this
// machine where it is GNU's: an option printed with `=NUM`, `=FILE`... takes the next word as its
// value, and the value is data exactly when it is a pattern, a glob, a label or a separator.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { dataWords, PRINTS_ITS_DATA } from '../../src/policy/argument-roles.ts';
import { allowing, term } from './unit-fixtures.ts';

const words = (argv: readonly string[], verbAt = 0) => [...dataWords(argv, verbAt)].sort((a, b) => a - b);

function gnuHelp(tool: string): string {
  try {
    const text = execFileSync(tool, ['--help'], { encoding: 'utf8' });
    return text.includes('GNU') || text.includes('--regexp=PATTERNS') ? text : '';
  } catch {
    return '';
  }
}
const GREP_HELP = gnuHelp('grep');

/** `--name=ARG` in grep's help, once each (the optional `--color[=WHEN]` is not one). */
const GREP_VALUED = [
  ...new Map([...GREP_HELP.matchAll(/(?:^|\s)(--[a-z-]+)=([A-Z]+)/gm)].map(([, name, arg]) => [name!, arg!])),
].map(([name, arg]) => ({ name, arg }));
/** Metavariables that name data (what grep matches or prints), not a file. */
const DATA_ARGS = new Set(['PATTERNS', 'GLOB', 'LABEL', 'SEP']);

describe.skipIf(GREP_VALUED.length === 0)("issue 9 A.5 grep's valued options, as grep --help prints them", () => {
  it('grep --help lists the 15 valued long options this table knows', () => {
    expect(GREP_VALUED.map((o) => o.name).sort()).toEqual(
      [
        '--after-context',
        '--before-context',
        '--binary-files',
        '--context',
        '--devices',
        '--directories',
        '--exclude',
        '--exclude-dir',
        '--exclude-from',
        '--file',
        '--group-separator',
        '--include',
        '--label',
        '--max-count',
        '--regexp',
      ].sort(),
    );
  });

  it.each(GREP_VALUED)(
    '$name=$arg takes the next word; the value is data only for a pattern, glob, label or separator',
    ({ name, arg }) => {
      const data = DATA_ARGS.has(arg);
      // grep OPTION VALUE pattern file: the value is skipped, then the pattern is data unless the
      // option gives the patterns itself (-e, -f).
      const replaces = name === '--regexp' || name === '--file';
      const expected = [...(data ? [2] : []), ...(replaces ? [] : [3])];
      expect(words(['grep', name, 'VALUE', 'pat', 'f'])).toEqual(expected);
      // Glued, the value is the option's own word.
      expect(words(['grep', `${name}=VALUE`, 'pat', 'f'])).toEqual([...(data ? [1] : []), ...(replaces ? [] : [2])]);
    },
  );
});

describe('issue 9 A.5 dataWords: grep', () => {
  it.each([
    // Short valued options: -e and -f give the patterns, -m/-A/-B/-C/-d/-D a number or a word.
    [
      ['grep', '-e', 'a', '-e', 'b', 'f'],
      [2, 4],
    ],
    [['grep', '-f', 'pats', 'f'], []],
    [['grep', '-m', '5', 'pat', 'f'], [3]],
    [['grep', '-A', '2', 'pat', 'f'], [3]],
    [['grep', '-B', '2', 'pat', 'f'], [3]],
    [['grep', '-C', '2', 'pat', 'f'], [3]],
    [['grep', '-d', 'skip', 'pat', 'f'], [3]],
    [['grep', '-D', 'read', 'pat', 'f'], [3]],
    // Glued values and clusters: the first valued letter takes the rest of the word, or the next.
    [['grep', '-epat', 'f'], [1]],
    [['grep', '-m5', 'pat', 'f'], [2]],
    [['grep', '-rnA', '3', 'pat', 'f'], [3]],
    [['grep', '-rne', 'pat', 'f'], [2]],
    [['grep', '-rn', 'pat', 'src'], [2]],
    // Options are over after `--`; `-` is a word, not an option.
    [['grep', '--', '-e', 'f'], [2]],
    [['grep', '-i', '--', '--regexp', 'f'], [3]],
    [['grep', '-', 'f'], [1]],
    // A trailing valued option without its value.
    [['grep', 'pat', '-m'], [1]],
    [['grep', 'pat', '--include'], [1]],
    // GNU prefixes of long options; an ambiguous one reads as the option that judges most.
    [['grep', '--rege', 'x', 'f'], [2]],
    [['grep', '--rege=x', 'f'], [1]],
    [['grep', '--max', '5', 'pat', 'f'], [3]],
    [['grep', '--exc', '../list', 'pat', 'f'], [3]],
    [
      ['grep', '--exclude-d', 'node_modules', 'pat', 'f'],
      [2, 3],
    ],
    [['grep', '--fi', 'pats', 'f'], []],
    [['grep', '--e', 'x', 'pat', 'f'], [3]],
    [['grep', '--xyz', 'pat', 'f'], [2]],
    [['egrep', 'a|b', 'f'], [1]],
    [['fgrep', '-e', 'x', 'f'], [2]],
  ])('%j -> %j', (argv, expected) => {
    expect(words(argv)).toEqual(expected);
  });
});

describe('issue 9 A.5 dataWords: sed, awk, echo, printf, other verbs', () => {
  it.each([
    [['sed', 's/a/b/', 'f'], [1]],
    [['sed', '-n', '/^$/d', 'f'], [2]],
    [['sed', '-e', 'p', 'f'], [2]],
    [['sed', '--expression', 'p', 'f'], [2]],
    [['sed', '--expression=p', 'f'], [1]],
    [['sed', '--e=p', 'f'], [1]],
    [['sed', '--expr', 'p', 'f'], [2]],
    [['sed', '-f', 'prog', 'f'], []],
    [['sed', '--file', 'prog', 'f'], []],
    [['sed', '-l', '70', 'p', 'f'], [3]],
    [['sed', '--line-length', '70', 'p', 'f'], [3]],
    [['sed', '--line-length=70', 'p', 'f'], [2]],
    [['awk', '{print}', 'f'], [1]],
    [
      ['awk', '-F', ':', '{print $1}', 'f'],
      [2, 3],
    ],
    [
      ['awk', '-F:', '{print $1}', 'f'],
      [1, 2],
    ],
    [
      ['awk', '--field-separator', ':', 'p', 'f'],
      [2, 3],
    ],
    [
      ['awk', '-v', 'x=1', 'p', 'f'],
      [2, 3],
    ],
    [
      ['awk', '--assign', 'x=1', 'p', 'f'],
      [2, 3],
    ],
    [['awk', '-e', 'p', 'f'], [2]],
    [['awk', '--source', 'p', 'f'], [2]],
    [['awk', '-f', 'prog', 'f'], []],
    [['awk', '--file', 'prog', 'f'], []],
    [['awk', '-i', 'lib.awk', 'p', 'f'], [3]],
    [['awk', '--include', 'lib.awk', 'p', 'f'], [3]],
    [['awk', '-l', 'ext', 'p', 'f'], [3]],
    [['awk', '--load', 'ext', 'p', 'f'], [3]],
    [
      ['gawk', '-F', ',', 'p', 'f'],
      [2, 3],
    ],
    [['mawk', 'p', 'f'], [1]],
    [['nawk', 'p', 'f'], [1]],
    [
      ['echo', '../x', '-n', 'y'],
      [1, 2, 3],
    ],
    [
      ['printf', '%s', '../x'],
      [1, 2],
    ],
    [['echo'], []],
    [['cat', '../x'], []],
    [['ls', '-la'], []],
    [['grepx', 'pat', 'f'], []],
  ])('%j -> %j', (argv, expected) => {
    expect(words(argv)).toEqual(expected);
  });

  it('the verb may come after wrappers or assignments: the indexes are of the whole argv', () => {
    expect(words(['sudo', 'grep', '-m', '1', 'pat', 'f'], 1)).toEqual([4]);
    expect(words(['LC_ALL=C', 'echo', 'x'], 1)).toEqual([2]);
    expect(words(['grep', 'pat'], 2)).toEqual([]);
  });

  it('the verbs that print their data words are echo, printf, sed and the awks (not grep: it prints lines of files)', () => {
    expect([...PRINTS_ITS_DATA].sort()).toEqual(['awk', 'echo', 'gawk', 'mawk', 'nawk', 'printf', 'sed']);
  });
});

describe('issue 9 A.5 what the data words change in a decision', () => {
  const TOOLS = allowing('Terminal(grep)', 'Terminal(sed)', 'Terminal(awk)', 'Terminal(echo)');
  it.each([
    ["grep -rn '../lib' src", 'auto_approve'],
    ["grep -m 5 '../x' src", 'auto_approve'],
    ["grep -C2 '../x' src", 'auto_approve'],
    ["grep --include '../*.ts' -e pat src", 'auto_approve'],
    ['grep --exclude-dir=../x pat src', 'auto_approve'],
    ['grep --exclude-from ../list pat src', 'require_approval'],
    ['grep -e pat ../x', 'require_approval'],
    ['grep -f ../pats src', 'require_approval'],
    ['grep pat ../x', 'require_approval'],
    ["sed -n '/\\.\\./p' f", 'auto_approve'],
    ['sed -l 5 p ../x', 'require_approval'],
    ["awk -F/ '{print $1}' f", 'auto_approve'],
    ["awk -v d=../x '{print d}' f", 'auto_approve'],
    ["awk '{print}' ../x", 'require_approval'],
    ["echo '../x'", 'auto_approve'],
  ])('%s -> %s', (command, policy) => {
    expect(term(command, TOOLS).policy).toBe(policy);
  });
});
