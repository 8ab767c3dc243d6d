// Arguments that arrive on stdin: `awk 'BEGIN{print "../s"}' | xargs cat` under
// `Terminal(xargs:*)` read outside the root, because xargs appends words it reads from data no
// rule can see. xargs (any options, -0, -I{}, -a FILE) and GNU parallel (without `:::`, or with
// `::::`) feeding a command are judged like `cat "$f"`: the path scope cannot be judged (asks;
// auto mode lifts it like any scope), and a command that may write could name a protected path
// (asks in every mode). Feeding echo or printf, and parallel with its words after `:::`, stays.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import { AUTO, MANUAL, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const FEEDERS = {
  ...MANUAL,
  label: 'xargs, parallel and producers allowed',
  permissions: {
    allow: [
      'Terminal(xargs:*)',
      'Terminal(parallel:*)',
      'Terminal(awk:*)',
      'Terminal(find:*)',
      'Terminal(ls:*)',
      'Terminal(cat:*)',
      'Terminal(git ls-files:*)',
      'Terminal(echo:*)',
      'Terminal(printf:*)',
      'Terminal(timeout:*)',
      'Terminal(sort:*)',
    ],
    deny: [],
    ask: [],
  },
};
const SCOPE = ask('ceiling_path_scope');
const PROTECTED = ask('protected_file_write');

const FED = [
  c(`awk 'BEGIN{print "../s"}' | xargs cat`, SCOPE),
  c(`awk 'BEGIN{print "/etc/passwd"}' | xargs -n1 cat`, SCOPE),
  c('find . -print0 | xargs -0 cat', SCOPE),
  c('find . -name "*.ts" -print0 | xargs --null head', SCOPE),
  c('ls | xargs -I{} cat {}', SCOPE),
  c('ls | xargs -i cat {}', SCOPE),
  c('ls | xargs --replace={} cat {}', SCOPE),
  c('xargs -a list.txt cat', SCOPE),
  c('xargs --arg-file=list.txt cat', SCOPE),
  c('xargs cat < list.txt', SCOPE),
  c('git ls-files | xargs -P4 -n 10 wc -l', SCOPE),
  c('ls | sort | xargs -r cat', SCOPE),
  c('ls | timeout 5 xargs cat', SCOPE),
  c('ls | /usr/bin/xargs cat', ask()),
  c('ls | parallel cat', SCOPE),
  c('ls | parallel -j4 cat {}', SCOPE),
  c('parallel cat :::: list.txt', SCOPE),
  c('parallel -a list.txt cat', SCOPE),
  c('ls | xargs sh -c \'cat "$@"\' _', SCOPE),
];

runCases('a command fed arguments from its input cannot be judged for scope', FEEDERS, FED);

runCases('a writer fed arguments from its input could write a protected path, even in auto mode', AUTO, [
  c('find . -name x | xargs sed -i s/a/b/', PROTECTED),
  c('git ls-files | xargs chmod 777', PROTECTED),
  c('ls | xargs rm', PROTECTED),
  c('ls | xargs -I{} cp {} backup/', PROTECTED),
  c('ls | xargs -0 tee -a', PROTECTED),
  c('ls | parallel touch', PROTECTED),
  c('xargs -a list truncate -s0', PROTECTED),
  c('ls | xargs sh -c "echo x >> \\$0"', PROTECTED),
  c('ls | xargs kill', PROTECTED),
  c('ls | xargs perl -pi -e s/a/b/', PROTECTED),
]);

runCases('readers fed from input in auto mode keep auto mode', AUTO, [
  c('find . -name "*.ts" | xargs grep -n TODO', auto('agent_autonomy_auto_approve')),
  c('ls | xargs cat', auto('agent_autonomy_auto_approve')),
]);

runCases('words only printed, or given on the command line, stay as allowed', FEEDERS, [
  c('ls | xargs echo', auto('permissions_allow')),
  c('ls | xargs', auto('permissions_allow'), { note: 'xargs with no command runs echo' }),
  c('ls | xargs -n1 printf "%s\\n"', auto('permissions_allow')),
  c('ls | xargs -I{} echo {}', auto('permissions_allow')),
  c('parallel cat ::: a b', auto('permissions_allow')),
  c('parallel cat ::: ../a', SCOPE, { note: 'words after ::: are judged as written' }),
]);

describe('property: xargs fed from any producer, with any options, never auto-approves a path reader', () => {
  const PRODUCERS = ['ls', 'find . -print0', `awk 'BEGIN{print "../x"}'`, 'git ls-files', 'echo a', 'sort f'];
  const OPTIONS = ['', '-0 ', '-n1 ', '-n 1 ', '-I{} ', '-r ', '-P 4 ', '--null ', '-d , ', '-L1 ', '-- '];
  const READERS = ['cat', 'head -n1', 'wc -l', 'cat {}', 'sh -c cat'];
  it('in manual mode', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PRODUCERS),
        fc.array(fc.constantFrom(...OPTIONS), { maxLength: 3 }),
        fc.constantFrom(...READERS),
        fc.constantFrom('xargs', 'timeout 9 xargs', 'parallel'),
        (producer, options, reader, runner) => {
          const command = `${producer} | ${runner} ${options.join('')}${reader}`;
          const decision = decide(terminalInput(FEEDERS, { command }));
          expect(decision.policy, `${command}: ${decision.reason}`).not.toBe('auto_approve');
        },
      ),
      { numRuns: 300 },
    );
  });
});
