// cdForm() (cd-forms.ts, issue 9 A.2): which fragments change the shell's directory, and to
// where. A target nobody can know from the words (no target, -, +N, an expansion, a glob, ~, a
// CDPATH lookup, popd's stack) is null: the caller fails closed. Checked against bash 5.
import { describe, expect, it } from 'vitest';
import { cdForm } from '../../src/policy/cd-forms.ts';
import type { CdForm } from '../../src/policy/cd-forms.ts';
import { fragmentOfWords, tokenize } from '../../src/policy/tokenizer.ts';

const NONE: CdForm = { kind: 'none' };
const UNKNOWN: CdForm = { kind: 'unknown' };
const to = (target: string | null): CdForm => ({ kind: 'cd', target });

/** The forms of every fragment of a command line. */
const forms = (command: string, cdPathSet = false): CdForm[] =>
  tokenize(command).fragments.map((f) => cdForm(f, cdPathSet));

const rows = (title: string, table: Array<[string, CdForm[]]>, cdPathSet = false): void => {
  describe(title, () => {
    it.each(table)('%j', (command, want) => expect(forms(command, cdPathSet)).toEqual(want));
  });
};

rows('issue 9 A.2 cd, chdir, pushd and their options', [
  ['ls', [NONE]],
  ['cd a', [to('a')]],
  ['chdir a', [to('a')]],
  ['pushd a', [to('a')]],
  ['pushd -n a', [NONE]], // -n: only the stack changes
  ['popd', [to(null)]],
  ['popd -n', [to(null)]],
  ['cd -P a', [to('a')]],
  ['cd -L a', [to('a')]],
  ['cd -e a', [to('a')]],
  ['cd -@ a', [to('a')]],
  ['cd -PL a', [to('a')]],
  ['cd -Pe@ a', [to('a')]],
  ['cd -P -L a', [to('a')]],
  ['cd -- a', [to('a')]],
  ['cd -P -- a', [to('a')]],
  ['cd -Px a', [to(null)]], // not a cd option: bash refuses it
  ['cd --P a', [to(null)]],
  ['cd -- -a', [to(null)]],
  ['cd xPL', [to('xPL')]], // a folder, not a cluster of flags
  ['cd - a', [to(null)]],
  ['cd -n a', [to(null)]], // -n is pushd's, not cd's
  ['cd /abs/path', [to('/abs/path')]],
  ['cd ../x', [to('../x')]],
]);

rows('issue 9 A.2 targets nobody can know from the words', [
  ['cd', [to(null)]],
  ['cd -P', [to(null)]],
  ['cd ""', [to(null)]],
  ['cd -', [to(null)]],
  ['cd -1', [to(null)]],
  ['cd +1', [to(null)]],
  ['cd a b', [to(null)]], // zsh: cd OLD NEW
  ['cd $HOME', [to(null)]],
  ['cd "$x"', [to(null)]],
  ['cd *', [to(null)]],
  ['cd a?', [to(null)]],
  ['cd ~', [to(null)]],
  ['cd ~/src', [to(null)]],
  ["cd '~'", [to('~')]], // quoted: a folder named ~
]);

rows('issue 9 A.2 source, . and eval may change it to anything', [
  ['source x', [UNKNOWN]],
  ['. x', [UNKNOWN]],
  ['eval x', [UNKNOWN]],
  ['command eval x', [UNKNOWN]],
]);

rows('issue 9 A.2 words that run cd in this same shell', [
  ['command cd a', [to('a')]],
  ['builtin cd a', [to('a')]],
  ['time cd a', [to('a')]],
  ['! cd a', [to('a')]],
  ['{ cd a; }', [to('a'), NONE]],
  ['if cd a; then cd b; fi', [to('a'), to('b'), NONE]],
  ['if x; then :; elif cd a; then :; else cd b; fi', [NONE, NONE, to('a'), NONE, to('b'), NONE]],
  ['while cd a; do cd b; done', [to('a'), to('b'), NONE]],
  ['until cd a; do :; done', [to('a'), NONE, NONE]],
  ['command time cd a', [to('a')]],
  ['command -p cd a', [to('a')]],
  ['command -p -p cd a', [to('a')]],
  ['time -p cd a', [to('a')]],
  ['command -- cd a', [to('a')]],
  ['command -p -- cd a', [to('a')]],
  ['command cd', [to(null)]],
  ['nice cd a', [NONE]], // another process: the shell does not move
  ['! -- cd a', [NONE]], // bash: `--: command not found`
  ['sudo cd a', [NONE]],
  ['command', [NONE]],
]);

rows('issue 9 A.2 command -v / -V only print what cd is', [
  ['command -v cd a', [NONE]],
  ['command -V cd', [NONE]],
  ['command -p -v cd', [NONE]],
  ['command -pv cd', [NONE]],
  ['time command -v cd a', [NONE]],
  ['time -x cd a', [NONE]],
]);

rows('issue 9 A.2 assignments before cd; CDPATH makes a relative target a lookup', [
  ['FOO=1 cd a', [to('a')]],
  ['FOO=1', [NONE]],
  ['XCDPATH=1 cd a', [to('a')]],
  ['CDPATH=/x cd a', [to(null)]],
  ['CDPATH= cd a', [to(null)]],
  ['CDPATH=/x cd .a', [to(null)]],
  ['CDPATH=/x cd /a', [to('/a')]],
  ['CDPATH=/x cd ./a', [to('./a')]],
  ['CDPATH=/x cd ../a', [to('../a')]],
  ['CDPATH=/x cd .', [to('.')]],
  ['CDPATH=/x cd ..', [to('..')]],
  ['CDPATH=/x command cd a', [to(null)]],
]);

rows(
  'issue 9 A.2 CDPATH assigned elsewhere in the command',
  [
    ['cd a', [to(null)]],
    ['cd .a', [to(null)]],
    ['cd ..a', [to(null)]],
    ['cd /a', [to('/a')]],
    ['cd ./a', [to('./a')]],
    ['cd ../a', [to('../a')]],
    ['cd .', [to('.')]],
    ['cd ..', [to('..')]],
    ['cd', [to(null)]],
  ],
  true,
);

describe('issue 9 A.2 words without tokenizer facts (find -exec, nested readings) are read from their text', () => {
  it.each([
    [['cd', 'a'], to('a')],
    [['cd', '$x'], to(null)],
    [['cd', 'a*'], to(null)],
    [['cd', '~/x'], to(null)],
    [['ls'], NONE],
  ])('%j', (words, want) => expect(cdForm(fragmentOfWords(words), false)).toEqual(want));
});
