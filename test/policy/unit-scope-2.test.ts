// scope.ts, more word-level rows: pathPart's exact answer for glued options and assignments, and
// the decisions (in auto mode, which lifts the path scope but not the protected paths) that show
// which readings of an argument (the word, `-oF`, list parts, `~`, expansions) reach the protected
// check. Each row pins one reading: without it the decision or the word the reason names changes.
import { describe, expect, it } from 'vitest';
import { AUTO_MODE, term } from './unit-fixtures.ts';
import { pathPart } from '../../src/policy/path-words.ts';

describe('RN-075 pathPart: the part of a token that names a path', () => {
  const rows: readonly (readonly [string, string | null])[] = [
    // `-f./x`: after a letter the path starts at the dot (relative), else at the `/`
    ['-a./x', './x'],
    ['-z./x', './x'],
    ['-A./x', './x'],
    ['-Z./x', './x'],
    ['--a./x', './x'],
    ['-@./x', '/x'],
    ['-`./x', '/x'],
    ['-{./x', '/x'],
    ['-[./x', '/x'],
    ['-1./x', '/x'],
    ['-./x', '/x'],
    ['-f./', './'],
    // the path starts at the first `/` or `..`
    ['-f/x', '/x'],
    ['-/x', '/x'],
    ['-f../x', '../x'],
    ['-fa../x', '../x'],
    ['-a..', '..'],
    ['-..', '..'],
    ['-f.x/../../y', '/../../y'],
    ['-ab.c/d', '/d'],
    ['-I/usr', '/usr'],
    // `--opt=value` and `-o=value`: the value
    ['--out=../x', '../x'],
    ['--out=x/../y', 'x/../y'],
    ['-=x', 'x'],
    ['-o=', ''],
    ['-o=a=b', 'a=b'],
    // an option with no path in it
    ['-', null],
    ['-x', null],
    ['-a.', null],
    // assignments: the value; any other word is the path itself
    ['x=../y', '../y'],
    ['FOO=bar', 'bar'],
    ['A=b=c', 'b=c'],
    ['=x', '=x'],
    ['../x', '../x'],
    ['x', 'x'],
  ];
  for (const [token, part] of rows) {
    it(`${JSON.stringify(token)} -> ${JSON.stringify(part)}`, () => expect(pathPart(token)).toBe(part));
  }
});

const AUTO = 'agent_autonomy: auto_approve';
const protectedFile = (word: string): string => `writes the protected file ${word}; approval required`;
const couldBe = (word: string): string => protectedFile(`${word} (could name a protected path)`);

function autoRows(title: string, rows: readonly (readonly [command: string, reason: string])[]): void {
  describe(title, () => {
    for (const [command, reason] of rows) {
      it(`${JSON.stringify(command)} -> ${reason}`, () => {
        const d = term(command, { autonomy: AUTO_MODE });
        expect(d.reason, command).toBe(reason);
        expect(d.policy, command).toBe(reason === AUTO ? 'auto_approve' : 'require_approval');
      });
    }
  });
}

autoRows('issue 9 A.3 an expansion in an argument could name a protected path', [
  ['mytool $X', couldBe('$X')],
  ['mytool "$X"', couldBe('$X')],
  ['mytool -f$FILE', couldBe('-f$FILE')],
  ['mytool "$X":.git', couldBe('$X:.git')],
]);

autoRows('issue 9 A.3 every reading of an argument: the word, its option value, its list parts', [
  ['mytool --out=.gi?', protectedFile('--out=.gi?')],
  ['mytool --a=.git', protectedFile('--a=.git')],
  ['mytool :.git', protectedFile(':.git')],
  ['mytool .git:', protectedFile('.git:')],
  ['mytool .git/', protectedFile('.git/')],
  ['mytool ./.git', protectedFile('./.git')],
  ['mytool sub/.git', protectedFile('sub/.git')],
  ['mytool a/b/.git/config', protectedFile('a/b/.git/config')],
  ['mytool -o.gi?', protectedFile('-o.gi?')],
  ["mytool '-o.gi?'", AUTO],
  ["mytool 'a:.gi?'", AUTO],
  ['mytool --.git', AUTO],
  ['mytool -o=', AUTO],
  ['mytool -', AUTO],
  ['mytool a,-', AUTO],
  ['mytool -o-', AUTO],
  ['mytool x:', AUTO],
  ['mytool ~/x', AUTO],
  ['mytool ~/.git', protectedFile('~/.git')],
  ['mytool "~/.git"', protectedFile('~/.git')],
]);
