// kill, pkill and killall reaching past the command's own processes: under an allowed
// `Terminal(kill:*)`, `kill -9 -1` killed every process of the runner's user, the runner too.
// pid 1, 0, -1, any negative id (a process group), a name or an id the engine cannot read, and
// every name- or owner-based killer ask, named (signals_other_processes), in every mode and
// through wrappers. Specific positive pids, `$!` and job specs stay as allowed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import { AUTO, FLOOR, MANUAL, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const KILLERS = {
  ...MANUAL,
  label: 'kill, pkill and killall allowed',
  permissions: {
    allow: [
      'Terminal(kill:*)',
      'Terminal(pkill:*)',
      'Terminal(killall:*)',
      'Terminal(killall5:*)',
      'Terminal(skill:*)',
      'Terminal(timeout:*)',
      'Terminal(sh:*)',
      'Terminal(env:*)',
      'Terminal(command:*)',
      'Terminal(/bin/kill:*)',
      'Terminal(/usr/bin/pkill:*)',
    ],
    deny: [],
    ask: [],
  },
};
const ASKS = ask('signals_other_processes');

const REACHING = [
  c('kill -9 1', ASKS),
  c('kill -9 -1', ASKS),
  c('kill -- -1', ASKS),
  c('kill 0', ASKS),
  c('kill -s KILL -1', ASKS),
  c('kill -sKILL -1', ASKS),
  c('kill --signal=KILL -1', ASKS),
  c('kill --signal KILL 0', ASKS),
  c('kill -n 9 -1', ASKS),
  c('kill -KILL -- -4242', ASKS, { note: 'a whole process group' }),
  c('kill -TERM -4242', ASKS),
  c('kill 4242 1', ASKS, { note: 'one good target does not hide a bad one' }),
  c('kill 01', ASKS, { note: 'leading zero is still pid 1' }),
  c('kill +1', ASKS),
  c('kill -HUP 00', ASKS),
  c('kill node', ASKS, { note: 'util-linux kill takes process names' }),
  c('kill -9 $PID', ASKS, { note: 'an id the engine cannot read' }),
  c('kill --timeout 1000 KILL -1', ASKS),
  c('/bin/kill -9 -1', ASKS),
  c('command kill -9 -1', ASKS),
  c('env kill 0', ASKS),
  c('timeout 5 kill -9 -1', ASKS),
  c("sh -c 'kill -9 -1'", ASKS),
  c('pkill -9 .', ASKS),
  c('pkill -f node', ASKS),
  c('pkill -u root', ASKS),
  c('killall node', ASKS),
  c('killall -9 -r .', ASKS),
  c('killall5 -9', ASKS),
  c('skill -KILL -u me', ASKS),
  c('/usr/bin/pkill -x node', ASKS),
];

runCases('kill and friends reaching other processes ask', KILLERS, REACHING);
runCases('not lifted by auto mode', AUTO, REACHING.slice(0, 12));
runCases('not lifted by the container floor', FLOOR, REACHING.slice(20));

runCases('signalling processes the command names exactly stays as allowed', KILLERS, [
  c('kill 4242', auto('permissions_allow')),
  c('kill -9 4242 4243', auto('permissions_allow')),
  c('kill -s TERM 4242', auto('permissions_allow')),
  c('kill -- 4242', auto('permissions_allow')),
  c('kill -9 %1', auto('permissions_allow')),
  c('kill %1', auto('permissions_allow')),
  c('kill -l', auto('permissions_allow')),
  c('kill -l 9', auto('permissions_allow')),
  c('killall -l', auto('permissions_allow')),
  c('pkill --version', auto('permissions_allow')),
]);

describe('property: a reaching target under any signal spelling and wrapper never auto-approves', () => {
  const SIGNALS = ['', '-9 ', '-KILL ', '-s KILL ', '-sTERM ', '--signal=HUP ', '-n 15 ', '-- ', '-9 -- '];
  const TARGETS = ['1', '0', '-1', '-2', '-31337', '001', 'node', '$PID', '${P}'];
  const WRAP = [
    (cmd: string) => cmd,
    (cmd: string) => `timeout 5 ${cmd}`,
    (cmd: string) => `env A=1 ${cmd}`,
    (cmd: string) => `sh -c '${cmd}'`,
    (cmd: string) => `command ${cmd}`,
  ];
  it('in manual, auto mode and under the container floor', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SIGNALS),
        fc.array(fc.constantFrom('4242', '77'), { maxLength: 2 }),
        fc.constantFrom(...TARGETS),
        fc.constantFrom(...WRAP),
        fc.constantFrom(KILLERS, AUTO, FLOOR),
        (signal, good, target, wrap, setup) => {
          // `kill -1` alone is signal 1 with no target (an error): a bare negative target needs `--`.
          const spec = signal === '' && good.length === 0 && target.startsWith('-') ? '-- ' : signal;
          const command = wrap(`kill ${spec}${[...good, target].join(' ')}`);
          const decision = decide(terminalInput(setup, { command, permissions: KILLERS.permissions }));
          expect(decision.policy, `${command}: ${decision.reason}`).toBe('require_approval');
          expect(decision.reasonCode, command).toBe('signals_other_processes');
        },
      ),
      { numRuns: 300 },
    );
  });
});
