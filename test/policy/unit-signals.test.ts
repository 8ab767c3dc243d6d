// Signals sent past the command's own processes (signals.ts, issue 9, attacked after A), word by
// word: signalsOutside returns the text the decision's reason names, or null when kill signals
// only specific positive process ids or jobs of this shell, or only lists signals. The option
// spellings are the ones of bash's and dash's builtin kill, procps and util-linux kill(1).
import { describe, expect, it } from 'vitest';
import { signalsOutside } from '../../src/policy/signals.ts';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, terminalInput } from './adversarial-harness.ts';

const CANNOT_NAME = 'a process the engine cannot name (a name or an expansion)';
const target = (word: string, why: string): string => `kill ${word} signals ${why}`;
const mass = (name: string): string => `${name} picks the processes it signals by name or owner`;

function table(title: string, rows: readonly (readonly [string, string | null])[]): void {
  describe(title, () => {
    for (const [command, expected] of rows) {
      it(`${command || '(empty)'} -> ${expected ?? 'null'}`, () => {
        expect(signalsOutside(command === '' ? [] : command.split(' '))).toBe(expected);
      });
    }
  });
}

table('issue 9 A: kill of specific positive ids and jobs stays as allowed', [
  ['kill 4242', null],
  ['kill 4242 4343', null],
  ['kill -9 4242', null],
  ['kill -KILL 4242', null],
  ['kill -sKILL 4242', null],
  ['kill +5', null],
  ['kill 2', null],
  ['kill $!', null],
  ['kill ${!}', null],
  ['kill %1', null],
  ['kill -9 %+', null],
  ['kill --verbose 4242', null],
  ['kill --signal=KILL 4242', null],
  ['kill', null],
  ['', null],
  ['ls -1', null],
  ['killer 0', null],
]);

table('issue 9 A: kill of pid 1, 0, -1, a group, a name or an expansion', [
  ['kill -9 -1', target('-1', 'every process the user may signal')],
  ['kill -- -1', target('-1', 'every process the user may signal')],
  ['kill 0', target('0', 'its whole process group')],
  ['kill 00', target('00', 'its whole process group')],
  ['kill -- -0', target('-0', 'its whole process group')],
  ['kill -- -42', target('-42', 'a whole process group')],
  ['kill -9 -42', target('-42', 'a whole process group')],
  ['kill 1', target('1', 'init (pid 1)')],
  ['kill +1', target('+1', 'init (pid 1)')],
  ['/bin/kill 1', target('1', 'init (pid 1)')],
  ['kill 4242 -1', target('-1', 'every process the user may signal')],
  ['kill 4242 0', target('0', 'its whole process group')],
  ['kill $PID', target('$PID', CANNOT_NAME)],
  ['kill node', target('node', CANNOT_NAME)],
  ['kill 12abc', target('12abc', CANNOT_NAME)],
  ['kill abc12', target('abc12', CANNOT_NAME)],
  ['kill -', target('-', CANNOT_NAME)],
  ['kill -- -l', target('-l', CANNOT_NAME)],
  ['kill -- --', target('--', CANNOT_NAME)],
  ['kill -- -s 4242', target('-s', CANNOT_NAME)],
  ['kill -- --signal 4242', target('--signal', CANNOT_NAME)],
]);

table('issue 9 A: kill options that take a value are not targets', [
  ['kill -s 1 4242', null],
  ['kill -n 1 4242', null],
  ['kill -q 1 4242', null],
  ['kill --signal 1 4242', null],
  ['kill --queue 1 4242', null],
  ['kill --timeout 1000 KILL 4242', null],
  ['kill -s KILL 1', target('1', 'init (pid 1)')],
  ['kill --timeout 1000 KILL 0', target('0', 'its whole process group')],
  ['kill --signal=KILL 0', target('0', 'its whole process group')],
  ['kill -9 -s 1 4242', null],
  // After a valued option or a long one the signal is read: a negative word is a target.
  ['kill -s 9 -42', target('-42', 'a whole process group')],
  ['kill --signal=KILL -42', target('-42', 'a whole process group')],
  ['kill --verbose -1', target('-1', 'every process the user may signal')],
  // A long option after the signal is still an option, not a target.
  ['kill -9 --verbose 4242', null],
  ['kill -s KILL --verbose 4242', null],
  ['kill -9 --verbose 1', target('1', 'init (pid 1)')],
]);

table('issue 9 A: kill that only lists signals or prints help', [
  ...['-l', '-L', '--list', '--table', '--help', '-h', '-V', '--version'].map(
    (option) => [`kill ${option} 0`, null] as const,
  ),
  ['kill -9 -l', null],
]);

table('issue 9 A: pkill, killall, killall5 and skill always ask, unless they only list', [
  ['pkill node', mass('pkill')],
  ['pkill', mass('pkill')],
  ['killall node', mass('killall')],
  ['/usr/bin/killall -9 node', mass('killall')],
  ['killall5', mass('killall5')],
  ['skill -u bob', mass('skill')],
  ['killall -l node', mass('killall')],
  ...['-l', '--list', '-L', '--table', '-V', '--version', '-h', '--help'].map(
    (option) => [`killall ${option}`, null] as const,
  ),
  ['pkill -V', null],
  ['skill -l -V', null],
]);

describe('issue 9 A: decide() under Terminal(kill:*)', () => {
  const permissions = { ...MANUAL.permissions, allow: ['Terminal(kill:*)', 'Terminal(pkill:*)'] };
  const rows: readonly (readonly [string, string])[] = [
    ['kill 4242', 'auto_approve'],
    ['kill -s 1 4242', 'auto_approve'],
    ['kill -l', 'auto_approve'],
    ['kill -9 -1', 'require_approval'],
    ['kill 1', 'require_approval'],
    ['pkill node', 'require_approval'],
  ];
  for (const [command, policy] of rows) {
    it(`${command} -> ${policy}`, () => {
      const decision = decide(terminalInput(MANUAL, { command, permissions }));
      expect(decision.policy, decision.reason).toBe(policy);
    });
  }
});
