// glob.ts, the exact answers (issue 9 A.1): whether a path component written as a shell pattern
// could match a protected name or `..`. The table is checked against the shells on this machine
// (dash, bash, busybox sh): a row the matcher answers "no" must not match in any of them, a "yes"
// must match in at least one, unless the row says why the matcher over-approximates.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { couldMatch, isPattern, unescape } from '../../src/policy/glob.ts';
import { PROTECTED_NAMES } from '../../src/policy/protected-paths.ts';

/** pattern, name, whether a leading dot must be explicit, the answer, why no shell agrees (over-approximations). */
type Row = readonly [pattern: string, name: string, dotMustBeExplicit: boolean, could: boolean, over?: string];

const CASE_FOLDED = 'case-insensitive filesystems: .GIT is the same folder';
const ROWS: readonly Row[] = [
  // literals and escapes
  ['.git', '.git', false, true],
  ['.GIT', '.git', false, true, CASE_FOLDED],
  ['.gi\\t', '.git', false, true],
  ['.gi\\?', '.git', false, false],
  ['.gi\\*', '.git', false, false],
  ['.g\\\\t', '.git', false, false],
  ['config', 'config', true, true],
  // `*`: any run, never a leading dot that must be explicit
  ['*', '.git', false, true],
  ['*', '.git', true, false],
  ['*', '..', true, false],
  ['*', 'hooks', true, true],
  ['.*', '..', true, true],
  ['.*', '.git', true, true],
  ['*.', '..', false, true],
  ['*t', '.git', true, false],
  ['*t', '.git', false, true],
  ['*git', '.git', false, true],
  ['**', 'hooks', true, true],
  ['h**o**o**k**s', 'hooks', false, true],
  ['.g**t', '.git', true, true],
  ['h*s', 'hooks', true, true],
  ['h*x', 'hooks', true, false],
  ['*ok*', 'hooks', true, true],
  ['h*hooks', 'hooks', false, false],
  ['*.git', '.git', true, true, 'a * that takes nothing leaves the leading dot to the literal after it'],
  ['perm*', 'permissions.json', false, true],
  // `?`: exactly one character, not an explicit leading dot
  ['?git', '.git', true, false],
  ['?git', '.git', false, true],
  ['.?', '..', true, true],
  ['.??', '..', true, false],
  ['?????', 'hooks', true, true],
  ['??????', 'hooks', true, false],
  ['????', 'hooks', true, false],
  ['con?ig', 'config', false, true],
  ['permission?.json', 'permissions.json', false, true],
  // brackets: members, negation (`!`, and `^` in bash but a member in dash), `]` first is a member
  ['[.]git', '.git', true, true, 'POSIX leaves it open whether a bracket may match a leading dot'],
  ['[.]git', '.git', false, true],
  ['[!.]git', '.git', false, false],
  ['[!x]git', '.git', false, true],
  ['[!x]git', '.git', true, false],
  ['[^x]git', '.git', false, true],
  ['[^.]git', '.git', false, true],
  ['.[^.]', '..', true, true],
  ['.[!.]', '..', true, false],
  ['[]h]ooks', 'hooks', false, true],
  ['[]x]ooks', 'hooks', false, false],
  ['[!]h]ooks', 'hooks', false, false],
  ['[!]x]ooks', 'hooks', false, true],
  ['[p]ermissions.json', 'permissions.json', false, true],
  ['con[!f]ig', 'config', false, false],
  // an unclosed `[` is a literal (a root's segment may hold one)
  ['a[b', 'a[b', false, true],
  ['ho[ks', 'hooks', false, false],
  ['[hooks', 'hooks', false, false],
  ['hooks[', 'hooks', false, false],
  ['hook[!', 'hooks', false, false],
  // ranges, escapes inside brackets, a `-` at either end is a member
  ['[a-z]ooks', 'hooks', false, true],
  ['[i-z]ooks', 'hooks', false, false],
  ['[A-Z]ooks', 'hooks', false, true, CASE_FOLDED],
  ['hook[.-h]', 'hooks', false, true, `${CASE_FOLDED} (S is between . and h)`],
  ['[h-]ooks', 'hooks', false, true],
  ['[-h]ooks', 'hooks', false, true],
  ['[x-]ooks', 'hooks', false, false],
  ['[\\h]ooks', 'hooks', false, true],
  ['[a-\\z]ooks', 'hooks', false, true],
  ['[g-\\h]ooks', 'hooks', false, true],
  ['[h-g]ooks', 'hooks', false, false],
  ['[h-z]ooks', 'hooks', false, true],
  ['[H-Z]ooks', 'hooks', false, true, CASE_FOLDED],
  ['[A-H]ooks', 'hooks', false, true, CASE_FOLDED],
  ['[A-G]ooks', 'hooks', false, false],
  ['[a-cx]ooks', 'hooks', false, false],
  ['[a\\-z]ooks', 'hooks', false, false],
  ['.gi[t\\]', '.git', false, false],
  ['.gi[t\\\\]', '.git', false, true],
  // classes: their `]` does not end the bracket; what a class holds is not worked out
  ['[[:alpha:]]ooks', 'hooks', false, true],
  ['[[:digit:]]ooks', 'hooks', false, true, 'a class is taken to match anything'],
  ['[![:alpha:]]ooks', 'hooks', false, true, 'a class is taken to match anything'],
  ['[[=h=]]ooks', 'hooks', false, true],
  ['[[.h.]]ooks', 'hooks', false, true],
  ['[[:alpha:]x]ooks', 'hooks', false, true],
  ['[x[:alpha:]]ooks', 'hooks', false, true],
  ['[[:alpha]ooks', 'hooks', false, true],
  ['[[:alpha]xyz', 'hooks', false, false],
  ['[[:]ooks', 'hooks', false, true, 'a class is taken to match anything'],
  ['.gi[[:alpha:]]', '.git', false, true],
  ['.g[[=i=]t', '.git', false, true],
  ['.gi[[:alpha:]', '.git', false, true, 'a class past the last ] is taken as one character'],
  ['.g[[:alpha:]it', '.git', false, false],
  [`.g[${'[:alpha:]'.repeat(8)}]t`, '.git', false, true],
  [`hoo[${'[:alpha:]'.repeat(8)}`, 'hooks', false, false],
  [`.g[${'[:alpha:]'.repeat(9)}]t`, '.git', false, true],
  [`.g[${'[:alpha:]'.repeat(9)}]`, '.git', false, true, 'past eight classes anything may follow the bracket'],
];

describe('issue 9 A.1 couldMatch: the exact answer for each pattern, name and dot rule', () => {
  for (const [pattern, name, dot, could] of ROWS) {
    it(`${JSON.stringify(pattern)} ${dot ? 'with' : 'without'} the dot rule could match ${name}: ${could}`, () => {
      expect(couldMatch(pattern, name, dot)).toBe(could);
    });
  }
  it('a trailing backslash is a literal backslash, not an escape of nothing', () => {
    expect(couldMatch('.gi\\', '.git', false)).toBe(false);
    expect(couldMatch('hook\\', 'hooks', false)).toBe(false);
    expect(couldMatch('.git\\', '.git', false)).toBe(false);
  });
});

describe('issue 9 A.1 isPattern: whether a component has an active glob character', () => {
  const rows: readonly (readonly [string, boolean])[] = [
    ['.git', false],
    ['.gi?', true],
    ['.gi\\?', false],
    ['*', true],
    ['\\*', false],
    ['[x]', true],
    ['\\[x]', false],
    ['[', false],
    ['x]', false],
    ['[]', false],
    ['[]]', true],
    ['[!]', false],
    ['[!]]', true],
    ['a[^]', true], // dash: the set of `^`; bash: an unclosed `[^`
    ['a\\', false],
  ];
  for (const [component, active] of rows) {
    it(`${JSON.stringify(component)}: ${active}`, () => expect(isPattern(component)).toBe(active));
  }
});

describe('issue 9 A.1 unescape: a component without its escapes', () => {
  const rows: readonly (readonly [string, string])[] = [
    ['.gi\\?', '.gi?'],
    ['a\\\\b', 'a\\b'],
    ['a\\', 'a\\'],
    ['abc', 'abc'],
    ['\\\\', '\\'],
  ];
  for (const [component, plain] of rows) {
    it(`${JSON.stringify(component)} -> ${JSON.stringify(plain)}`, () => expect(unescape(component)).toBe(plain));
  }
});

// --- The shells as the source of truth ---------------------------------------------------------

const SHELLS: readonly (readonly string[])[] = [['dash'], ['bash'], ['busybox', 'sh']].filter(
  (s) => spawnSync(s[0]!, [...s.slice(1), '-c', 'true']).status === 0,
);

/** A folder holding every protected name, so pathname expansion (the dot rule) can find them. */
let names: string | null = null;
function namesFolder(): string {
  if (names !== null) return names;
  names = mkdtempSync(join(tmpdir(), 'unit-glob-'));
  for (const name of PROTECTED_NAMES) {
    if (name === '.git') mkdirSync(join(names, name));
    else writeFileSync(join(names, name), '');
  }
  return names;
}
afterAll(() => {
  if (names !== null) rmSync(names, { recursive: true, force: true });
});

/** For each case, whether `shell` matches it: `case` without the dot rule, pathname expansion with it. */
function shellMatches(shell: readonly string[], cases: readonly (readonly [string, string, boolean])[]): boolean[] {
  const lines = cases.map(([pattern, name, dot]) =>
    dot
      ? `r=n; for f in ${pattern}; do [ "$f" = '${name}' ] && r=y; done; echo $r`
      : `case '${name}' in ${pattern}) echo y;; *) echo n;; esac`,
  );
  const run = spawnSync(shell[0]!, [...shell.slice(1), '-s'], {
    input: `cd '${namesFolder()}' || exit 1\n${lines.join('\n')}\n`,
    encoding: 'utf8',
  });
  const answers = run.stdout.trim().split('\n');
  expect(answers.length, `${shell.join(' ')}: ${run.stderr}`).toBe(cases.length);
  return answers.map((a) => a === 'y');
}

describe.skipIf(SHELLS.length === 0)(
  `issue 9 A.1 the table agrees with ${SHELLS.map((s) => s.join(' ')).join(', ')}`,
  () => {
    it('no shell matches a "no"; some shell matches a "yes" unless the row says why not', () => {
      const cases = ROWS.map(([p, n, d]) => [p, n, d] as const);
      const answers = SHELLS.map((s) => shellMatches(s, cases));
      ROWS.forEach(([pattern, name, dot, could, over], i) => {
        const some = answers.some((a) => a[i] === true);
        expect(some, `${JSON.stringify(pattern)} ${name} dot=${dot}`).toBe(could && over === undefined);
      });
    });

    // Patterns built from each name with its characters replaced by `?`, `*`, brackets, ranges,
    // escapes and classes (a fixed seed): every match a shell finds, the matcher must find too.
    it('every match a shell finds in 1500 generated patterns, couldMatch finds', () => {
      let seed = 9;
      const rnd = (n: number): number => {
        seed = (seed + 0x6d2b79f5) | 0;
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) % n;
      };
      const pick = <T>(a: readonly T[]): T => a[rnd(a.length)]!;
      const piece = (c: string): string =>
        pick([
          '?',
          '*',
          `[${c}x]`,
          `[!${c}]`,
          `[!x]`,
          `[^${c}]`,
          `[^x]`,
          `[a-${pick(['z', 'h', '.'])}]`,
          `\\${c}`,
          `[]${c}]`,
          `[\\${c}]`,
          `[[=${c}=]`,
          `[[.${c}.]]`,
          `[[:alpha:]]`,
          `[[:alpha:]`,
          '[',
          ']',
          '',
        ]);
      const targets = [...PROTECTED_NAMES, '..'];
      const cases: (readonly [string, string, boolean])[] = [];
      for (let k = 0; k < 1500; k++) {
        const name = pick(targets);
        let pattern = '';
        for (const c of name) pattern += rnd(3) === 0 ? piece(c) : c;
        if (pattern !== '') cases.push([pattern, rnd(5) === 0 ? pick(targets) : name, rnd(2) === 0]);
      }
      for (const shell of SHELLS) {
        const answers = shellMatches(shell, cases);
        const missed = cases.filter(([p, n, d], i) => answers[i] === true && !couldMatch(p, n, d));
        expect(missed, shell.join(' ')).toEqual([]);
      }
    });
  },
);
