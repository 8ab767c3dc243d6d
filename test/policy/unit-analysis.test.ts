// What decide() reads of a terminal command before any rule (mutation testing of analysis.ts,
// issue 9): the commands hidden in eval / sh -c, read to a bounded depth and within a bounded
// budget of commands and characters, and the constructs that make a command unsafe wherever they
// hide (an alias definition, a glob in the verb, a sed/awk program with side effects). In auto
// mode only an unsafe construct or a ceiling stops auto-approval, so each row shows what it changes.
import { describe, expect, it } from 'vitest';
import {
  analyzeCommand,
  allFragments,
  firstInViews,
  forEachView,
  MAX_NESTED_COMMANDS,
  MAX_NESTING,
} from '../../src/policy/analysis.ts';
import { MAX_COMMAND_LENGTH } from '../../src/policy/index.ts';
import { AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';
import { AUTO_MODE, term } from './unit-fixtures.ts';

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

// The finding names what was found: the reason a person reads.
runCases('each unsafe construct is named in the reason', AUTO, [
  c(`${'nice '.repeat(40)}ls`, UNSAFE, { note: 'too many readings' }),
  c("sed 'w /tmp/x' f", UNSAFE),
  c("alias ls='x'", UNSAFE),
  // A folder named with `=` is not an alias definition: only the words after the verb count.
  c('/opt/a=b/alias ls', AUTO_OK),
]);

describe('the sentence of each unsafe construct found while reading', () => {
  it.each([
    [`${'nice '.repeat(40)}ls`, 'commands nested too deeply (sh -c, eval, substitutions, wrappers)'],
    [
      "sed 'w /tmp/x' f",
      'a sed or awk program that writes, reads or runs other files or commands (w, r, e, system, |, >, getline, -f)',
    ],
    [
      "alias ls='x'",
      'an alias definition (/bin/sh expands it in the lines that follow, so the words judged are not what runs)',
    ],
  ])('%s', (command, what) => {
    expect(term(command, { autonomy: AUTO_MODE }).reason).toBe(`unsafe shell construct: ${what}`);
  });
});

runCases('every fragment is read, before and after a nested command', AUTO, [
  c("sh -c 'ls'; git push", ask('ceiling_external_effect')),
  c("sh -c 'git push'; ls", ask('ceiling_external_effect')),
  c('eval ls; eval git push; eval ls', ask('ceiling_external_effect')),
]);

describe('forEachView and firstInViews reach the commands inside substitutions', () => {
  it('visits the readings of $(…) after the fragments, and stops when told', () => {
    // Inside double quotes the substitution is a word of its own: only `substitutions` holds it.
    const a = analyzeCommand('sudo ls "$(git push)" x');
    const seen: string[] = [];
    expect(forEachView(a, (view) => void seen.push(view.join(' ')))).toBe(false);
    expect(seen).toEqual(['sudo ls $(git push) x', 'ls $(git push) x', 'git push']);
    expect(forEachView(a, (view) => view[0] === 'ls')).toBe(true);
    expect(firstInViews(a, (view) => (view[0] === 'git' ? view.join(' ') : null))).toBe('git push');
    expect(allFragments(a).map((f) => f.text)).toEqual(["sudo ls '$(git push)' x", 'git push']);
  });
});

describe('what `brabo check` lists as found, by kind', () => {
  it.each([
    [`${'nice '.repeat(40)}ls`, 'nesting_too_deep'],
    ["sed 'w /tmp/x' f", 'script_side_effect'],
    ["alias ls='x'", 'alias_definition'],
    ['l? x', 'glob_verb'],
  ])('%s -> %s', (command, kind) => {
    expect(analyzeCommand(command).findings.map((f) => f.kind)).toEqual([kind]);
  });

  it('the first match inside one of several substitutions is kept', () => {
    const a = analyzeCommand('ls "$(git push)" "$(pwd)"');
    expect(firstInViews(a, (view) => (view[0] === 'git' ? view.join(' ') : null))).toBe('git push');
    expect(forEachView(a, (view) => view[0] === 'git')).toBe(true);
  });
});
