// Patterns (spec "How patterns match commands"): parsing each entry, the parenthesis check
// (quote-aware), token-prefix matching with a final `name:*`, redirections matched as items,
// compiling once per object, and matching past a CLI's global options (issue 9 A.4).
import { describe, expect, it } from 'vitest';
import { parsePattern } from '../../src/policy/index.ts';
import {
  argvMatches,
  compilePermissions,
  globalOptionStarts,
  matchesPastGlobals,
  patternMatchesFragment,
  typePattern,
} from '../../src/policy/pattern.ts';
import { tokenize } from '../../src/policy/tokenizer.ts';
import { perms } from './unit-fixtures.ts';

const fragment = (command: string) => tokenize(command).fragments[0]!;

describe('parsePattern', () => {
  it.each([
    ['Terminal(ls)', { ok: true, type: 'terminal', content: 'ls' }],
    ['GitCommit()', { ok: true, type: 'git_commit', content: '' }],
    ["Terminal(echo '(')", { ok: true, type: 'terminal', content: "echo '('" }],
    ['Terminal(echo "a)b")', { ok: true, type: 'terminal', content: 'echo "a)b"' }],
    ['Terminal(echo \\))', { ok: true, type: 'terminal', content: 'echo \\)' }],
    ['Terminal(echo "\\"(")', { ok: true, type: 'terminal', content: 'echo "\\"("' }],
    [
      'Terminal(f (x))',
      {
        ok: false,
        problem: 'Terminal content must be one command (no &&, ||, ;, |, & or newline): write one pattern per command',
      },
    ],
  ])('%s parses', (text, expected) => {
    expect(parsePattern(text)).toEqual(expected);
  });
  it.each([
    ['(ls)', 'not of the form Label(content), e.g. Terminal(pnpm test) or GitPush()'],
    ['Terminal(ls', 'not of the form Label(content), e.g. Terminal(pnpm test) or GitPush()'],
    ['Terminal', 'not of the form Label(content), e.g. Terminal(pnpm test) or GitPush()'],
    ['Nope(x)', 'unknown label Nope'],
    ['Terminal(echo ))', 'unbalanced parentheses'],
    ['Terminal(echo ( )', 'unbalanced parentheses'],
    ["Terminal(echo ')", 'unbalanced parentheses'],
    ['Terminal(echo ")', 'unbalanced parentheses'],
    ['Terminal(   )', 'Terminal() needs a command, e.g. Terminal(pnpm test)'],
    [
      'Terminal(a; b)',
      'Terminal content must be one command (no &&, ||, ;, |, & or newline): write one pattern per command',
    ],
  ])('%s is refused: %s', (text, problem) => {
    expect(parsePattern(text)).toEqual({ ok: false, problem });
  });
});

describe('Pattern format: Label(x) on a non-Terminal type is valid and matches nothing (issue 15.5)', () => {
  it.each([
    [
      'GitCommit(x)',
      'git_commit',
      'x',
      'only Terminal takes content, so GitCommit(x) matches nothing; GitCommit() matches any git commit',
    ],
    [
      'GitPush(x)',
      'git_push',
      'x',
      'only Terminal takes content, so GitPush(x) matches nothing; GitPush() matches any push',
    ],
    [
      'GitPush(algo)',
      'git_push',
      'algo',
      'only Terminal takes content, so GitPush(algo) matches nothing; GitPush() matches any push',
    ],
    [
      'ContainerStart(big)',
      'container_start',
      'big',
      'only Terminal takes content, so ContainerStart(big) matches nothing; ContainerStart() matches any container start',
    ],
    ['Spend( )', 'spend', ' ', 'only Terminal takes content, so Spend( ) matches nothing; Spend() matches any spend'],
  ])('%s parses as inert', (text, type, content, inert) => {
    expect(parsePattern(text)).toEqual({ ok: true, type, content, inert });
  });
  it('an inert entry compiles to nothing in any list, while Label() of the same type still matches', () => {
    const compiled = compilePermissions(perms({ allow: ['GitPush(x)'], deny: ['GitCommit(y)'], ask: ['Spend(z)'] }));
    for (const list of [compiled.allow, compiled.deny, compiled.ask]) {
      expect(list.types.size).toBe(0);
      expect(list.terminal).toEqual([]);
    }
    expect(compilePermissions(perms({ allow: ['GitPush(x)', 'GitPush()'] })).allow.types.get('git_push')).toBe(
      'GitPush()',
    );
  });
  it('unbalanced parentheses in a non-Terminal label are still refused', () => {
    expect(parsePattern('GitPush(a))')).toEqual({ ok: false, problem: 'unbalanced parentheses' });
  });
});

describe('matching', () => {
  it('token prefix; a final name:* matches name and name:anything, never name-anything', () => {
    expect(argvMatches(['pnpm', 'test:*'], ['pnpm', 'test'])).toBe(true);
    expect(argvMatches(['pnpm', 'test:*'], ['pnpm', 'test:unit', '--run'])).toBe(true);
    expect(argvMatches(['pnpm', 'test:*'], ['pnpm', 'testing'])).toBe(false);
    expect(argvMatches(['pnpm', 'test:*'], ['pnpm'])).toBe(false);
    expect(argvMatches(['a:*', 'b'], ['a:x', 'b'])).toBe(false); // only the LAST token is special
    expect(argvMatches(['a:*', 'b'], ['a:*', 'b'])).toBe(true);
    expect(argvMatches([':*'], [':*'])).toBe(true); // too short to be name:*: literal
    expect(argvMatches([':*'], [''])).toBe(false);
    expect(argvMatches([], ['ls'])).toBe(false);
    expect(argvMatches(['ls'], ['x', 'ls'], 1)).toBe(true);
    expect(argvMatches(['ls', '-la'], ['x', 'ls'], 1)).toBe(false);
  });
  it('a pattern with redirections matches the items, operators included', () => {
    const compiled = compilePermissions(perms({ allow: ['Terminal(pnpm test 2>/dev/null)'] })).allow.terminal[0]!;
    expect(compiled.hasRedirects).toBe(true);
    expect(patternMatchesFragment(compiled, fragment('pnpm test 2>/dev/null'))).toBe(true);
    expect(patternMatchesFragment(compiled, fragment('pnpm test 2>/dev/null --watch'))).toBe(true);
    expect(patternMatchesFragment(compiled, fragment('pnpm test >/dev/null'))).toBe(true); // the fd is not an item of its own
    expect(patternMatchesFragment(compiled, fragment('pnpm test >>/dev/null'))).toBe(false);
    expect(patternMatchesFragment(compiled, fragment('pnpm test 2>/tmp/x'))).toBe(false);
    expect(patternMatchesFragment(compiled, fragment('pnpm test'))).toBe(false);
    expect(patternMatchesFragment(compiled, fragment('pnpm test x /dev/null'))).toBe(false);
  });
  it('compiles once per object and ignores entries that do not parse', () => {
    const p = perms({
      allow: ['Terminal(ls)', 'Bad(', 7 as unknown as string, 'GitCommit()', 'GitCommit()'],
      deny: ['Terminal(rm -rf)'],
    });
    const a = compilePermissions(p);
    expect(compilePermissions(p)).toBe(a);
    expect(a.allow.terminal.map((t) => t.source)).toEqual(['Terminal(ls)']);
    expect([...a.allow.types]).toEqual([['git_commit', 'GitCommit()']]);
    expect(a.deny.terminal[0]).toMatchObject({ argv: ['rm', '-rf'], hasRedirects: false });
    expect(compilePermissions(perms({ allow: ['Terminal(ls)'] }))).not.toBe(a);
  });
  it('typePattern names the label', () => {
    expect(typePattern('git_commit')).toBe('GitCommit()');
    expect(typePattern('container_start')).toBe('ContainerStart()');
  });
});

describe('issue 9 A.4 past global options', () => {
  it('finds where the subcommand may start', () => {
    expect(globalOptionStarts(['git', 'status'])).toBeNull(); // nothing to skip
    expect(globalOptionStarts(['git'])).toBeNull();
    expect(globalOptionStarts(['ls', '-la'])).toBeNull(); // not a CLI with a table
    expect(globalOptionStarts(['git', '-C', '.', 'reset'])).toEqual([3]);
    expect(globalOptionStarts(['git', '--no-pager', 'reset'])).toEqual([2]);
    expect(globalOptionStarts(['git', '--bogus', 'x', 'reset'])).toEqual([2, 3]); // read both ways
    expect(globalOptionStarts(['git', '--', 'reset'])).toEqual([2]);
    expect(globalOptionStarts(['docker', '--context=prod', 'rm'])).toEqual([2]);
  });
  it('matches the pattern after the CLI name at those places only', () => {
    const argv = ['git', '-C', 'reset', 'status'];
    const starts = globalOptionStarts(argv);
    expect(matchesPastGlobals(['git', 'status'], argv, starts)).toBe(true);
    expect(matchesPastGlobals(['git', 'reset'], argv, starts)).toBe(false); // `reset` is -C's value
    expect(matchesPastGlobals(['docker', 'status'], argv, starts)).toBe(false);
    expect(matchesPastGlobals(['git'], argv, starts)).toBe(false); // a bare CLI needs no skipping
    expect(matchesPastGlobals(['git', 'status'], argv, null)).toBe(false);
    expect(
      matchesPastGlobals(
        ['git', 'reset', '--hard'],
        ['git', '-P', 'reset', '--hard', 'HEAD'],
        globalOptionStarts(['git', '-P', 'reset', '--hard', 'HEAD']),
      ),
    ).toBe(true);
    expect(
      matchesPastGlobals(
        ['git', 'reset', '--hard'],
        ['git', '-P', 'reset'],
        globalOptionStarts(['git', '-P', 'reset']),
      ),
    ).toBe(false);
  });
});

// Mutation testing of pattern.ts (issue 9): behaviours no other test pinned down.
describe('pattern edges', () => {
  it('a backslash inside single quotes is literal: the quote still closes', () => {
    expect(parsePattern("Terminal(echo '\\')")).toEqual({ ok: true, type: 'terminal', content: "echo '\\'" });
  });
  it('a list that is not an array compiles to nothing instead of throwing', () => {
    const compiled = compilePermissions({ allow: undefined, deny: [], ask: [] } as unknown as Parameters<
      typeof compilePermissions
    >[0]);
    expect(compiled.allow.terminal).toEqual([]);
    expect(compiled.allow.types.size).toBe(0);
  });
  it('a pattern longer than what is left of argv never matches, even with a final name:*', () => {
    expect(argvMatches(['ls', 'a:*'], ['x', 'ls'], 1)).toBe(false);
    expect(argvMatches(['ls', 'a:*'], ['x', 'ls', 'a:b'], 1)).toBe(true);
  });
  it('with redirections, only the last item is name:*', () => {
    const last = compilePermissions(perms({ allow: ['Terminal(>/dev/null pnpm test:*)'] })).allow.terminal[0]!;
    expect(patternMatchesFragment(last, fragment('>/dev/null pnpm test:unit'))).toBe(true);
    expect(patternMatchesFragment(last, fragment('>/dev/null pnpm testing'))).toBe(false);
    const inner = compilePermissions(perms({ allow: ['Terminal(pnpm test:* >/dev/null)'] })).allow.terminal[0]!;
    expect(patternMatchesFragment(inner, fragment('pnpm test:* >/dev/null'))).toBe(true);
    expect(patternMatchesFragment(inner, fragment('pnpm test:unit >/dev/null'))).toBe(false);
  });
});
