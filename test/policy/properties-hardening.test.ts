// Property tests for the hardening: the incremental working directory (DirNode + classifyPath) answers
// exactly what re-resolving the joined path would (scope and protected files), and the new
// look-through never turns a never-auto command into an auto-approved one when wrapped.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'shell-quote';
import { decide } from '../../src/policy/index.ts';
import { simpleEntries } from '../../src/policy/tokenizer.ts';
import { DirNode, rootSpec } from '../../src/policy/dir-node.ts';
import { classifyPath } from '../../src/policy/path-class.ts';
import { isInside, resolveLexically } from '../../src/policy/paths.ts';
import { AUTO, FLOOR, terminalInput } from './adversarial-harness.ts';

const RUNS = 400;
const SEGMENTS = [
  'a',
  'b',
  '..',
  '.',
  '',
  'app',
  'projects',
  'APP',
  '.git',
  '.GIT',
  'hooks',
  'Hooks',
  'config',
  'permissions.json',
  'PERMISSIONS.JSON',
];
const pathArb = fc
  .tuple(fc.boolean(), fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 7 }))
  .map(([absolute, segments]) => (absolute ? '/' : '') + segments.join('/'));
const rootArb = fc.constantFrom('/', '/projects/app', '/a', '/projects/app/a');
const absoluteArb = pathArb.map((p) => (p.startsWith('/') ? p : `/${p}`));

/** The reference: protected files by re-resolving the whole path, case-folded. */
function referenceProtected(path: string, root: string): boolean {
  const folded = path.toLowerCase();
  if (folded === (root === '/' ? '/permissions.json' : `${root.toLowerCase()}/permissions.json`)) return true;
  const segments = folded.split('/');
  for (let i = 0; i + 1 < segments.length; i++) {
    if (segments[i] !== '.git') continue;
    if (segments[i + 1] === 'hooks') return true;
    if (segments[i + 1] === 'config' && i + 2 === segments.length) return true;
    // Issue 9 A.3 review: anything inside a .git folder (commondir, modules/*/config, …).
    if (segments[i + 1] !== '') return true;
  }
  return false;
}

describe('DirNode and classifyPath agree with resolving the joined path', () => {
  it('cwd, inside-root and protected answers match resolveLexically after any cd chain', () => {
    fc.assert(
      fc.property(
        rootArb,
        absoluteArb,
        fc.array(pathArb, { maxLength: 6 }),
        pathArb,
        (rootInput, start, cds, query) => {
          const root = resolveLexically('/', rootInput);
          let dir = DirNode.top(rootSpec(root)).cd(start);
          let reference = resolveLexically('/', start);
          for (const target of cds) {
            dir = dir.cd(target);
            reference = resolveLexically(reference, target);
          }
          expect(dir.toString()).toBe(reference);
          expect(dir.insideRoot()).toBe(isInside(reference, root));
          const resolved = resolveLexically(reference, query);
          const c = classifyPath({ text: query, glob: null, expands: false }, dir);
          expect(c.outside).toBe(!isInside(resolved, root));
          expect(c.protected).toBe(referenceProtected(resolved, root));
          for (const last of ['permissions.json', 'hooks', 'config', 'x']) {
            const withLast = classifyPath(
              { text: query === '' ? last : `${query}/${last}`, glob: null, expands: false },
              dir,
            );
            expect(withLast.protected, `${resolved} + ${last}`).toBe(
              referenceProtected(resolveLexically(resolved, last), root),
            );
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});

const NEVER_AUTO_INNER = [
  'git push',
  'gh pr create',
  'sudo ls',
  'git config alias.p push',
  'GIT_SSH_COMMAND=x git fetch',
  'cp x permissions.json',
  'g?t push',
  'gh api -X POST x',
];
const WRAPPERS = [
  (c: string) => `npx ${c}`,
  (c: string) => `npm exec -- ${c}`,
  (c: string) => `pnpm exec ${c}`,
  (c: string) => `pnpm dlx ${c}`,
  (c: string) => `yarn exec ${c}`,
  (c: string) => `bunx ${c}`,
  (c: string) => `eval ${c}`,
  (c: string) => `watch -n 1 ${c}`,
  (c: string) => `flock /tmp/l ${c}`,
  (c: string) => `stdbuf -oL ${c}`,
  (c: string) => `ionice -c 3 ${c}`,
  (c: string) => `chrt 1 ${c}`,
  (c: string) => `unshare -r ${c}`,
  (c: string) => `taskset 1 ${c}`,
  (c: string) => `nsenter -t 1 ${c}`,
  (c: string) => `chroot /x ${c}`,
  (c: string) => `busybox ${c}`,
  (c: string) => `find . -exec ${c} \\;`,
  (c: string) => `ssh host ${c}`,
  (c: string) => `timeout 5 ${c}`,
];

describe('wrapping a never-auto command in any known runner keeps it never-auto', () => {
  it('in auto mode and under the container floor, through up to three wrappers', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...NEVER_AUTO_INNER),
        fc.array(fc.constantFrom(...WRAPPERS), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(AUTO, FLOOR),
        (inner, wrappers, setup) => {
          const command = wrappers.reduce((c, wrap) => wrap(c), inner);
          const decision = decide(terminalInput(setup, { command }));
          expect(decision.policy, `${command}: ${decision.reason}`).not.toBe('auto_approve');
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('tokenizer fast path: reads a simple line exactly as shell-quote does', () => {
  const CHARS = [...'abcXYZ019-_./:=@%+,*? \t&|;<>', '\u0001'];
  const ANY = [...CHARS, '"', "'", '$', '(', ')', '\\', '#', '{', '~', '!'];
  const literal = (name: string): string => `$${name}`;
  const shellQuote = (line: string): unknown[] =>
    parse(line, literal).map((e) =>
      typeof e === 'object' && e !== null && 'op' in e && e.op === 'glob' ? (e as { pattern: string }).pattern : e,
    );
  it('words, blanks and every operator built from & | ; < >', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CHARS), { maxLength: 40 }), (chars) => {
        const line = chars.join('');
        expect(simpleEntries(line), JSON.stringify(line)).toEqual(shellQuote(line));
      }),
      { numRuns: 2000 },
    );
  });
  it('hands every other line to shell-quote', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ANY), { maxLength: 30 }), (chars) => {
        const line = chars.join('');
        const simple = simpleEntries(line);
        if (simple !== null) expect(simple).toEqual(shellQuote(line));
        else expect(ANY.slice(CHARS.length).some((c) => line.includes(c))).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});
