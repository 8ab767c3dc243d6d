// Arguments that arrive on stdin (input-arguments.ts, issue 9, attacked after A.5): which command
// xargs or GNU parallel runs with words read from its input, past their options (findutils
// xargs, BSD xargs, GNU parallel), and whether that command only reads. null: nothing is fed
// (parallel with its arguments after `:::`, or a printer).
import { describe, expect, it } from 'vitest';
import { inputArguments } from '../../src/policy/input-arguments.ts';
import type { InputArguments } from '../../src/policy/input-arguments.ts';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, terminalInput } from './adversarial-harness.ts';

const fed = (what: string, readOnly: boolean): InputArguments => ({ what, readOnly });

function table(title: string, rows: readonly (readonly [string, InputArguments | null])[]): void {
  describe(title, () => {
    for (const [command, expected] of rows) {
      it(`${command} -> ${expected === null ? 'null' : `${expected.what}${expected.readOnly ? ' (reads)' : ''}`}`, () => {
        expect(inputArguments(command === '' ? [] : command.split(' '))).toEqual(expected);
      });
    }
  });
}

table('issue 9 A.5: xargs feeds its input to the command after its options', [
  ['xargs cat', fed('xargs cat', true)],
  ['xargs rm', fed('xargs rm', false)],
  ['/usr/bin/xargs rm', fed('xargs rm', false)],
  ['xargs /bin/rm -f', fed('xargs rm', false)],
  ['xargs -0 rm', fed('xargs rm', false)],
  ['xargs -0 cat', fed('xargs cat', true)],
  ['xargs grep -l x', fed('xargs grep', true)],
  ['xargs sort -o out', fed('xargs sort', false)],
  // The words xargs appends may be any option: sort, tree, find and git have writing ones.
  ['xargs sort -u', fed('xargs sort', false)],
  ['xargs tree', fed('xargs tree', false)],
  ['xargs find', fed('xargs find', false)],
  ['xargs git log', fed('xargs git', false)],
  ['xargs wc -l', fed('xargs wc', true)],
  // Options whose value is the next word, short and long.
  ...['-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s', '-J', '-R', '-S'].map(
    (option) => [`xargs ${option} v rm`, fed('xargs rm', false)] as const,
  ),
  ...['--arg-file', '--delimiter', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'].map(
    (option) => [`xargs ${option} v rm`, fed('xargs rm', false)] as const,
  ),
  ['xargs --max-args=1 rm', fed('xargs rm', false)],
  ['xargs -n1 rm', fed('xargs rm', false)],
  ['xargs -I{} rm {}', fed('xargs rm', false)],
  ['xargs --null rm', fed('xargs rm', false)],
  ['xargs -- rm', fed('xargs rm', false)],
  ['xargs -0 -- -rm', fed('xargs -rm', false)],
  ['xargs - rm', fed('xargs -', false)],
  // No command is echo: it only prints the words.
  ['xargs', null],
  ['xargs -0', null],
  ['xargs -n 1', null],
  ['xargs echo', null],
  ['xargs /bin/echo', null],
  ['xargs printf %s', null],
]);

table('issue 9 A.5: GNU parallel feeds its input unless its arguments follow :::', [
  ['parallel rm', fed('parallel rm', false)],
  // With no command, parallel runs each line it reads (or each argument of `::::` FILE) as a command.
  ['parallel', fed('parallel', false)],
  ['parallel -j2', fed('parallel', false)],
  ['parallel :::: cmds.txt', fed('parallel', false)],
  ['parallel ::: a :::: cmds.txt', fed('parallel', false)],
  ['parallel -a cmds.txt', fed('parallel', false)],
  ['parallel ::: a b', null],
  // xargs has no `:::`: the word is its command (or an argument of it).
  ['xargs rm ::: a', fed('xargs rm', false)],
  ['xargs ::: a', fed('xargs :::', false)],
  ['parallel cat', fed('parallel cat', true)],
  ['parallel rm ::: a b', null],
  ['parallel rm :::: list', fed('parallel rm', false)],
  ['parallel rm ::: a :::: list', fed('parallel rm', false)],
  ['parallel -a list rm ::: a', fed('parallel rm', false)],
  ['parallel -alist rm ::: a', fed('parallel rm', false)],
  ['parallel --arg-file list rm ::: a', fed('parallel rm', false)],
  ['parallel --arg-file=list rm ::: a', fed('parallel rm', false)],
  ['parallel cat :::: list', fed('parallel cat', true)],
  // The words after ::: are appended to the command: with them it must still only read.
  ['parallel sort ::: -o :::: list', fed('parallel sort', false)],
  ['parallel cat ::: -n :::: list', fed('parallel cat', true)],
  ['parallel git ::: log :::: list', fed('parallel git', false)],
  ['parallel git log ::: --output=x :::+ y :::: list', fed('parallel git', false)],
  ['parallel -j 4 rm', fed('parallel rm', false)],
  ['parallel --jobs 4 rm', fed('parallel rm', false)],
  ['parallel --timeout 9 --joblog log rm', fed('parallel rm', false)],
  ['parallel --max-args 2 rm', fed('parallel rm', false)],
  ['parallel -N 2 rm', fed('parallel rm', false)],
  ['parallel --workdir x rm', fed('parallel rm', false)],
  ['parallel -k rm', fed('parallel rm', false)],
  ['parallel echo', null],
]);

table('issue 9 A.5: other commands feed nothing', [
  ['', null],
  ['cat', null],
  ['find . -print0', null],
  ['env xargs rm', null],
]);

describe('issue 9 A.5: decide() under Terminal(xargs:*) and Terminal(parallel:*)', () => {
  const permissions = { ...MANUAL.permissions, allow: ['Terminal(xargs:*)', 'Terminal(parallel:*)'] };
  const rows: readonly (readonly [string, string])[] = [
    ['xargs -n 1 cat', 'require_approval'],
    ['xargs echo', 'auto_approve'],
    ['parallel cat ::: a.txt b.txt', 'auto_approve'],
    ['parallel cat :::: list', 'require_approval'],
  ];
  for (const [command, policy] of rows) {
    it(`${command} -> ${policy}`, () => {
      const decision = decide(terminalInput(MANUAL, { command, permissions }));
      expect(decision.policy, decision.reason).toBe(policy);
    });
  }
});
