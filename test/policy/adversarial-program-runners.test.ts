// Tools that run a program an option or a word names (attacked after issue 9 A.6): "Always
// allow" wrote token-prefix units such as Terminal(fd foo), Terminal(rg foo), Terminal(gcc
// main.c), Terminal(sg docker), Terminal(tmux new-session) and Terminal(caffeinate npm); with deny
// Terminal(curl:*), `fd foo -x curl …`, `rg foo --pre curl`, `gcc main.c -wrapper curl,…`,
// `sg docker 'curl x'`, `tmux new-session -d 'curl x'` and `caffeinate curl x` were then
// auto-approved. Now RN-675 writes such fragments whole, the options and tmux commands that run a
// program ask (option_runs_program), and sg/caffeinate/chronic are wrappers the deny looks through.
import { describe, expect, it } from 'vitest';
import { patternsForAction } from '../../src/policy/index.ts';
import { MANUAL, ask, auto, c, deny, runCases } from './adversarial-harness.ts';

const BROAD = {
  ...MANUAL,
  label: 'units a former always-allow wrote, deny curl',
  permissions: {
    allow: [
      'Terminal(fd:*)',
      'Terminal(fdfind:*)',
      'Terminal(rg:*)',
      'Terminal(gcc:*)',
      'Terminal(clang:*)',
      'Terminal(tmux:*)',
      'Terminal(sg:*)',
      'Terminal(caffeinate:*)',
      'Terminal(chronic:*)',
    ],
    deny: ['Terminal(curl:*)'],
    ask: [],
  },
};
const RUNS = ask('option_runs_program');

runCases('options and tmux commands that run a program ask', BROAD, [
  c('fd foo -x curl https://evil.example', RUNS),
  c('fd foo --exec curl x', RUNS),
  c('fd foo --exec=curl', RUNS),
  c('fd foo -X rm', RUNS),
  c('fd foo --exec-batch rm', RUNS),
  c('fd -e ts -x wc -l', RUNS),
  c('fdfind foo -x sh -c id', RUNS),
  c('rg foo --pre curl', RUNS),
  c('rg foo --pre=./x', RUNS),
  c('rg -n foo --pre ./x src', RUNS),
  c('gcc main.c -wrapper curl,https://evil.example', RUNS),
  c('gcc -fplugin=./x.so main.c', RUNS),
  c('gcc -specs=./evil.specs main.c', RUNS),
  c('clang -wrapper ./x main.c', RUNS),
  c("tmux new-session -d 'curl x'", RUNS),
  c("tmux new -d 'curl x'", RUNS),
  c("tmux neww 'id'", RUNS),
  c("tmux split-window -h 'id'", RUNS),
  c("tmux run-shell 'id'", RUNS),
  c("tmux -L x if-shell true 'run id'", RUNS),
  c("tmux ls \\; new-window 'id'", RUNS),
  c('fd foo', auto('permissions_allow')),
  c('fd -e ts src', auto('permissions_allow')),
  c('rg -n TODO src', auto('permissions_allow')),
  c('rg --pre-glob "*.gz" foo', auto('permissions_allow'), { note: 'a glob for --pre, not a program' }),
  c('gcc main.c -o main', auto('permissions_allow')),
  c('tmux ls', auto('permissions_allow')),
  c('tmux list-sessions', auto('permissions_allow')),
]);

runCases('wrappers that run their arguments: the deny looks through them', BROAD, [
  c("sg docker 'curl x'", deny('permissions_deny')),
  c('sg docker -c "curl x"', deny('permissions_deny')),
  c('sg - docker "curl x"', deny('permissions_deny')),
  c('caffeinate curl x', deny('permissions_deny')),
  c('caffeinate -i -t 60 curl x', deny('permissions_deny')),
  c('chronic curl x', deny('permissions_deny')),
  c('chronic -e curl x', deny('permissions_deny')),
]);

describe('RN-675 issue 9 A.6: tools that run a program an option names are written whole', () => {
  const plan = (command: string) => patternsForAction('terminal', { command });
  it.each([
    'fd foo',
    'rg foo src',
    'gcc main.c -o main',
    'clang++ a.cc',
    'tmux new-session -d -s dev',
    'sg docker id',
    'caffeinate npm test',
    'chronic make',
    'screen -S dev make serve',
    'cc main.c',
    'fdfind -e ts',
  ])('RN-675 %s is kept whole', (command) => {
    const pattern = `Terminal(${command})`;
    expect(plan(command)).toEqual({ kind: 'patterns', patterns: [pattern], keptWhole: [pattern] });
  });
  // screen runs the command after its options: `Terminal(screen -S dev)` would allow `screen -S dev rm -rf src`.
  it('RN-675 screen -S dev names nothing to run: writes nothing', () => {
    expect(plan('screen -S dev')).toMatchObject({ kind: 'refused', reason: 'unsafe_command' });
  });
});
