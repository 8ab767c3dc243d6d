// What decide() reads of a terminal command before any rule (mutation testing of analysis.ts,
// issue 9): the commands hidden in eval / sh -c, read to a bounded depth and within a bounded
// budget of commands and characters, and the constructs that make a command unsafe wherever they
// hide (an alias definition, a glob in the verb, a sed/awk program with side effects). In auto
// mode only an unsafe construct or a ceiling stops auto-approval, so each row shows what it changes.
import { describe, expect, it } from 'vitest';
import { analyzeCommand, allFragments, MAX_NESTED_COMMANDS, MAX_NESTING } from '../../src/policy/analysis.ts';
import { MAX_COMMAND_LENGTH } from '../../src/policy/index.ts';
import { AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';

const AUTO_OK = auto();
const UNSAFE = ask('unsafe_shell_construct');
const evals = (n: number) => `${'eval '.repeat(n)}ls`;
const repeated = (n: number, fragment: string) => Array.from({ length: n }, () => fragment).join('; ');

describe('the bounds', () => {
  it('three levels of nesting, 48 nested commands, and as many nested characters as a command may have', () => {
    expect(MAX_NESTING).toBe(3);
    expect(MAX_NESTED_COMMANDS).toBe(48);
  });
});

runCases('nesting deeper than MAX_NESTING is unsafe, never read further', AUTO, [
  c(evals(1), AUTO_OK),
  c(evals(3), AUTO_OK),
  c(evals(4), UNSAFE),
  c(evals(6), UNSAFE),
  c("sh -c 'eval eval ls'", AUTO_OK),
  c("sh -c 'eval eval eval ls'", UNSAFE),
  c('sh -c "sh -c \'sh -c ls\'"', AUTO_OK),
]);

runCases(
  'more than MAX_NESTED_COMMANDS nested commands in all is unsafe (eval eval … cannot multiply the work)',
  AUTO,
  [
    c(repeated(48, 'eval ls'), AUTO_OK),
    c(repeated(49, 'eval ls'), UNSAFE),
    c(repeated(24, "sh -c 'eval ls'"), AUTO_OK),
    c(repeated(25, "sh -c 'eval ls'"), UNSAFE),
  ],
);

// `eval eval echo X; eval echo Y` analyses "eval echo X" (|X|+10), "echo X" (|X|+5) and "echo Y"
// (|Y|+5): with |X| = 8000 and |Y| = 364 that is exactly MAX_COMMAND_LENGTH characters.
const X = 'a'.repeat(8000);
runCases('nested text past the character budget is unsafe; up to it, it is read', AUTO, [
  c(`eval eval echo ${X}; eval echo ${'a'.repeat(364)}`, AUTO_OK, { note: 'exactly the budget' }),
  c(`eval eval echo ${X}; eval echo ${'a'.repeat(365)}`, UNSAFE, { note: 'one character over' }),
  c(`eval echo ${'a'.repeat(MAX_COMMAND_LENGTH - 10)}`, AUTO_OK, { note: 'one level of the longest command' }),
]);

runCases('a deny inside eval or sh -c is still a deny; an effect is still the ceiling', AUTO, [
  c('eval curl x', { policy: 'deny', reasonCode: 'permissions_deny' }),
  c("sh -c 'ls; curl x'", { policy: 'deny', reasonCode: 'permissions_deny' }),
  c("sh -c 'ls; git push'", ask('ceiling_external_effect')),
  c("bash -c 'eval git push'", ask('ceiling_external_effect')),
  c('eval eval eval git push', ask('ceiling_external_effect')),
]);

runCases('alias definitions are unsafe in every reading (dash expands them on later lines)', AUTO, [
  c("alias ls='cat ../s'", UNSAFE),
  c('alias a=b c=d', UNSAFE),
  c('sudo alias x=y', UNSAFE),
  c('/usr/bin/alias a=b', UNSAFE),
  c('eval alias ls=x', UNSAFE),
  c("ls; alias ls='x'", UNSAFE),
  c('alias', AUTO_OK),
  c('alias ls', AUTO_OK),
  c('alias -p', AUTO_OK),
  c('echo alias=x', AUTO_OK),
  c('aliases x=y', AUTO_OK),
]);

runCases('a glob in the command name is unsafe in every reading (the shell picks what runs)', AUTO, [
  c('l? x', UNSAFE),
  c('/usr/bin/g?t status', UNSAFE),
  c('sudo gi[t] push', UNSAFE),
  c('nice -n 5 l* x', UNSAFE),
  c("eval 'g*t status'", UNSAFE),
  c('FOO=* ls', AUTO_OK),
  c('ls *', AUTO_OK),
  c('ls ?', AUTO_OK),
]);

runCases('a sed or awk program with side effects is unsafe in every reading', AUTO, [
  c("sed 'w /tmp/x' f", UNSAFE),
  c("sudo sed 'w x' f", UNSAFE),
  c("eval sed \\'e ls\\' f", UNSAFE),
  c('awk \'{system("ls")}\' f', UNSAFE),
  c("sed -n 'p' f", AUTO_OK),
]);

runCases('too many readings behind wrappers is unsafe', AUTO, [
  c(`${'nice '.repeat(30)}ls`, AUTO_OK),
  c(`${'nice '.repeat(40)}ls`, UNSAFE),
]);

describe('analyzeCommand and allFragments', () => {
  it('lists the fragments, their readings and the commands nested in them', () => {
    const a = analyzeCommand("sudo ls; sh -c 'cat x; pwd'");
    expect(a.findings).toEqual([]);
    expect(a.fragments.map((f) => f.views)).toEqual([[['sudo', 'ls'], ['ls']], [['sh', '-c', 'cat x; pwd']]]);
    expect(a.fragments.map((f) => f.nested.map((n) => n.fragments.map((x) => x.fragment.text)))).toEqual([
      [],
      [['cat x', 'pwd']],
    ]);
    expect(a.fragments.map((f) => f.truncated)).toEqual([false, false]);
    expect(allFragments(a).map((f) => f.text)).toEqual(['sudo ls', "sh -c 'cat x; pwd'", 'cat x', 'pwd']);
  });

  it('find -exec commands are kept as fragments of their own', () => {
    const [fragment] = analyzeCommand('find . -exec grep -l x {} +').fragments;
    expect(fragment?.execs.map((f) => f.argv)).toEqual([['grep', '-l', 'x', '{}']]);
  });

  it('a finding deep inside is a finding of the whole command, named once', () => {
    const a = analyzeCommand("sh -c 'l? x'; eval 'g?t'");
    expect(a.findings.map((f) => f.kind)).toEqual(['glob_verb']);
    expect(analyzeCommand(evals(5)).findings.map((f) => f.kind)).toEqual(['nesting_too_deep']);
  });

  it('every nested command is analysed once: an unused fragment shares no state with the others', () => {
    const a = analyzeCommand('ls; pwd');
    expect(a.fragments.map((f) => f.nested)).toEqual([[], []]);
    expect(() => (a.fragments[0]?.nested as unknown[]).push(1)).toThrow();
  });
});
