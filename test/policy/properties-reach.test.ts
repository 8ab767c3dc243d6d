// Issue 9 property: over random compositions of allowed commands with globs, cds and operators,
// decide() never auto-approves a command whose lexical effect could reach outside the root
// (manual) or a protected path (manual and auto mode). The oracle is independent of the engine:
// it executes the command in a brute-force model (every exit status of every fragment, every
// directory a glob cd may match, a cd in a pipeline or a background list applying or not),
// expands every glob against a small universe of names, and resolves every path reached.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import type { Permissions, ResolvedAutonomy } from '../../src/policy/index.ts';
import { isInside, resolveLexically } from '../../src/policy/paths.ts';

const ROOT = '/projects/app';
/** More runs on demand: REACH_RUNS=50000 npx vitest run test/policy/properties-reach.test.ts */
const RUNS = Number(process.env['REACH_RUNS'] ?? 1500);
const PERMISSIONS: Permissions = {
  allow: [
    'Terminal(cat)',
    'Terminal(ls)',
    'Terminal(echo)',
    'Terminal(chmod)',
    'Terminal(cd)',
    'Terminal(pushd)',
    'Terminal(command cd)',
    'Terminal(builtin cd)',
  ],
  deny: [],
  ask: [],
};

/** Names a glob may expand to. */
const UNIVERSE = [
  '..',
  '.',
  '.git',
  '.GIT',
  '.gix',
  'hooks',
  'config',
  'permissions.json',
  'PERMISSIONS.JSON',
  'x',
  'src',
  'a',
];

type Kind = 'read' | 'write' | 'cd';
interface Frag {
  kind: Kind;
  text: string;
  /** The path word as written (quotes included). */
  word: string;
}

const WORDS = [
  'x',
  'src/x',
  '../x',
  '.?/x',
  '.*/x',
  '.[.]/x',
  'config',
  'hooks/pre-commit',
  '.git/config',
  '.gi?/config',
  '.git/hook?/x',
  'permissions.json',
  'perm*',
  '*/x',
  '.??/x',
  "'.?/x'",
  'src/../x',
  'a/../../x',
  'PERMISSIONS.JSON',
  './/.git//config',
  '*',
  "'perm*'",
];
const DIRS = ['src', '.git', '.gi?', 'a', '..', 'hooks', '.git/hooks', "'.gi?'", 'src/..', '.?', '.GIT'];
const SEPARATORS = [' && ', ' || ', ' ; ', ' | ', ' & ', '\n'];

const fragArb: fc.Arbitrary<Frag> = fc.oneof(
  fc
    .tuple(fc.constantFrom('cat', 'ls'), fc.constantFrom(...WORDS))
    .map(([v, w]) => ({ kind: 'read' as const, text: `${v} ${w}`, word: w })),
  fc
    .tuple(fc.constantFrom('echo x >', 'echo x >>', 'chmod +x'), fc.constantFrom(...WORDS))
    .map(([v, w]) => ({ kind: 'write' as const, text: `${v} ${w}`, word: w })),
  fc
    .tuple(fc.constantFrom('cd', 'cd -P', 'cd -L --', 'pushd', 'command cd', 'builtin cd'), fc.constantFrom(...DIRS))
    .map(([v, d]) => ({ kind: 'cd' as const, text: `${v} ${d}`, word: d })),
);
const commandArb = fc.tuple(
  fc.array(fragArb, { minLength: 1, maxLength: 4 }),
  fc.array(fc.constantFrom(...SEPARATORS), { minLength: 3, maxLength: 3 }),
);

/** Glob component -> regex, dotglob and case-insensitive; `.`/`..` need an explicit leading dot. */
function componentMatches(pattern: string, name: string): boolean {
  if ((name === '.' || name === '..') && !(pattern.startsWith('.') || pattern.startsWith('['))) return false;
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        let body = pattern.slice(i + 1, end);
        if (body.startsWith('!')) body = '^' + body.slice(1);
        re += `[${body.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'i').test(name);
}

/** Every path a word may stand for. */
function expansions(word: string): string[] {
  if (word.startsWith("'")) return [word.slice(1, -1)];
  let paths = [''];
  for (const component of word.split('/')) {
    const options = /[*?[]/.test(component) ? UNIVERSE.filter((n) => componentMatches(component, n)) : [component];
    if (options.length === 0) options.push(component); // no match: the shell keeps the word as written
    const next: string[] = [];
    for (const p of paths) for (const o of options) next.push(p === '' && o !== '' ? o : `${p}/${o}`);
    paths = next;
  }
  return paths;
}

function isProtected(path: string): boolean {
  const folded = path.toLowerCase();
  if (folded === `${ROOT.toLowerCase()}/permissions.json`) return true;
  const s = folded.split('/');
  for (let i = 0; i + 1 < s.length; i++) {
    if (s[i] === '.git' && (s[i + 1] === 'hooks' || (s[i + 1] === 'config' && i + 2 === s.length))) return true;
  }
  return false;
}

interface Reach {
  outside: boolean;
  protected: boolean;
}

/** Runs the command in the model under every choice and reports what it could reach. */
function reach(frags: readonly Frag[], seps: readonly string[]): Reach {
  const n = frags.length;
  const sep = (i: number): string => (i < n - 1 ? seps[i]!.trim() || '\n' : '\n');
  // A cd in a pipeline runs in a subshell, except (zsh) as its last part: it may or may not apply.
  const subshell = new Array<boolean>(n).fill(false);
  for (let i = 0; i < n; i++) {
    if (sep(i) === '|' || (i > 0 && sep(i - 1) === '|')) subshell[i] = true;
  }
  const targets = frags.map((f) => (f.kind === 'cd' ? expansions(f.word) : []));
  const choices = frags.map((f, i) => (f.kind === 'cd' ? 1 + targets[i]!.length * (subshell[i] ? 2 : 1) : 2));
  const result: Reach = { outside: false, protected: false };
  const seen = new Set<string>();
  const pick = new Array<number>(n).fill(0);
  const record = (f: Frag, dir: string): void => {
    const key = `${f.text}\u0000${dir}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (!isInside(dir, ROOT)) result.outside = true;
    if (f.kind === 'cd') return;
    for (const p of expansions(f.word)) {
      const resolved = resolveLexically(dir, p);
      if (!isInside(resolved, ROOT)) result.outside = true;
      if (f.kind === 'write' && isProtected(resolved)) result.protected = true;
    }
  };
  const simulate = (): void => {
    let dir = ROOT;
    let listStart = ROOT;
    let status = 0;
    let link = '';
    let i = 0;
    while (i < n) {
      if (link === '') listStart = dir;
      let j = i;
      while (j < n - 1 && sep(j) === '|') j++;
      const runs = link === '' || (link === '&&' ? status === 0 : status !== 0);
      if (runs) {
        let next = dir;
        for (let k = i; k <= j; k++) {
          record(frags[k]!, dir);
          const f = frags[k]!;
          if (f.kind !== 'cd' || pick[k] === 0) continue;
          const t = targets[k]!;
          const index = (pick[k]! - 1) % t.length;
          const applies = !subshell[k] || pick[k]! - 1 < t.length;
          const to = resolveLexically(dir, t[index]!);
          if (!isInside(to, ROOT)) result.outside = true;
          if (applies) next = to;
        }
        dir = next;
        const last = frags[j]!;
        status = last.kind === 'cd' ? (pick[j] === 0 ? 1 : 0) : pick[j]!;
      }
      const s = sep(j);
      link = s === '&&' || s === '||' ? s : '';
      if (s === '&') dir = listStart; // a background list runs in a subshell
      i = j + 1;
    }
  };
  const enumerate = (k: number): void => {
    if (k === n) return simulate();
    for (let c = 0; c < choices[k]!; c++) {
      pick[k] = c;
      enumerate(k + 1);
    }
  };
  enumerate(0);
  return result;
}

const MANUAL: ResolvedAutonomy | null = null;
const AUTO: ResolvedAutonomy = { mode: 'auto_approve', origin: 'curinga' };

function decideFor(command: string, autonomy: ResolvedAutonomy | null) {
  return decide({
    actionType: 'terminal',
    payload: { command, cwd: ROOT },
    role: 'developer',
    autonomy,
    permissions: PERMISSIONS,
    scopeRoot: ROOT,
    containerRunning: false,
  });
}

const build = (frags: readonly Frag[], seps: readonly string[]): string =>
  frags.map((f, i) => (i === 0 ? f.text : seps[i - 1]! + f.text)).join('');

describe('issue 9 property: nothing auto-approved can lexically reach outside the root or a protected path', () => {
  it('RN-075 manual: reach outside or protected -> never auto_approve', () => {
    let generated = 0;
    let autoApproved = 0;
    let reaching = 0;
    fc.assert(
      fc.property(commandArb, ([frags, seps]) => {
        generated++;
        const command = build(frags, seps);
        const r = reach(frags, seps);
        const d = decideFor(command, MANUAL);
        if (d.policy === 'auto_approve') autoApproved++;
        if (r.outside || r.protected) {
          reaching++;
          expect(
            d.policy,
            `${JSON.stringify(command)} reaches ${r.outside ? 'outside' : 'a protected path'}: ${d.reason}`,
          ).not.toBe('auto_approve');
        }
      }),
      { numRuns: RUNS },
    );
    // The property is not vacuous: both kinds of commands were generated (over 50 and 200 of the
    // default 1 500 runs; the mutation run caps the runs, test/policy/mutation/fast-check-capped.ts).
    expect(autoApproved).toBeGreaterThan(generated / 30);
    expect(reaching).toBeGreaterThan((generated * 2) / 15);
  });
  it('RN-603 auto mode: reach a protected path -> never auto_approve', () => {
    let generated = 0;
    let autoApproved = 0;
    fc.assert(
      fc.property(commandArb, ([frags, seps]) => {
        generated++;
        const command = build(frags, seps);
        const r = reach(frags, seps);
        const d = decideFor(command, AUTO);
        if (d.policy === 'auto_approve') autoApproved++;
        if (r.protected)
          expect(d.policy, `${JSON.stringify(command)} reaches a protected path: ${d.reason}`).not.toBe('auto_approve');
      }),
      { numRuns: RUNS },
    );
    expect(autoApproved).toBeGreaterThan(generated / 15);
  });
  it('the oracle itself: the issue examples reach what they should', () => {
    expect(reach([{ kind: 'read', text: 'cat .?/x', word: '.?/x' }], ['', '', ''])).toEqual({
      outside: true,
      protected: false,
    });
    expect(
      reach(
        [
          { kind: 'cd', text: 'cd nope', word: 'nope' },
          { kind: 'read', text: 'cat ../x', word: '../x' },
        ],
        [' || ', '', ''],
      ).outside,
    ).toBe(true);
    expect(
      reach(
        [
          { kind: 'cd', text: 'cd a', word: 'a' },
          { kind: 'read', text: 'cat ../x', word: '../x' },
        ],
        [' && ', '', ''],
      ).outside,
    ).toBe(false);
    expect(
      reach(
        [
          { kind: 'cd', text: 'cd .gi?', word: '.gi?' },
          { kind: 'write', text: 'echo x >> config', word: 'config' },
        ],
        [' && ', '', ''],
      ).protected,
    ).toBe(true);
    expect(
      reach([{ kind: 'write', text: "echo x > '.gi?/config'", word: "'.gi?/config'" }], ['', '', '']).protected,
    ).toBe(false);
  });
});
