// path-class.ts remembers, per directory node, the answer for each word judged there, and per
// word text its components (a word is judged in every directory a command may run in, by two
// checks, in each reading of its fragment). Remembering must never change an answer: whatever
// was asked before, in whatever order and kind (a glob or a quoted word, as written or in the
// scope), the answer equals the one a fresh directory tree gives. The rows mix the words whose
// kinds differ only in one flag, where a shared key would answer for the other kind.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DirNode, rootSpec } from '../../src/policy/dir-node.ts';
import { classifyPath } from '../../src/policy/path-class.ts';
import type { PathWord } from '../../src/policy/path-class.ts';

const ROOT = rootSpec('/projects/app');
const SEGMENTS = [
  '..',
  '.',
  'a',
  '.git',
  '.GIT',
  'hooks',
  'config',
  'permissions.json',
  '*',
  '.?',
  '.g*',
  'h?oks',
  'app',
  'projects',
  '[.]',
];
const CWDS = ['/projects/app', '/projects/app/a', '/projects/app/.git', '/projects', '/', '/projects/app/.git/hooks'];

interface Query {
  text: string;
  globbed: boolean;
  asWritten: boolean;
  cwd: string;
}

const text = fc
  .tuple(fc.boolean(), fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 6 }))
  .map(([absolute, parts]) => (absolute ? '/' : '') + parts.join('/'));

/** Questions over a few texts, so that the same text comes back in other kinds and directories. */
const queries = fc.array(text, { minLength: 1, maxLength: 4 }).chain((texts) =>
  fc.array(
    fc.record({
      text: fc.constantFrom(...texts),
      globbed: fc.boolean(),
      asWritten: fc.boolean(),
      cwd: fc.constantFrom(...CWDS),
    }),
    { minLength: 1, maxLength: 40 },
  ),
);

const word = (q: Query): PathWord => ({ text: q.text, glob: q.globbed ? q.text : null, expands: false });

describe('RN-075 path classification: remembered answers equal fresh ones', () => {
  it('any sequence of questions on one tree answers as a fresh tree does (fast-check)', () => {
    fc.assert(
      fc.property(queries, (asked: Query[]) => {
        const shared = DirNode.top(ROOT);
        for (const q of asked) {
          const warm = classifyPath(word(q), shared.cd(q.cwd), q.asWritten);
          const fresh = classifyPath(word(q), DirNode.top(ROOT).cd(q.cwd), q.asWritten);
          expect(warm).toEqual(fresh);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the same text as a glob and as a quoted word gets each its own answer, in either order', () => {
    const dir = DirNode.top(ROOT).cd('/projects/app');
    // `.?` as a glob could be `..`; quoted it is a folder named `.?` inside the root.
    const glob = classifyPath({ text: '.?/x', glob: '.?/x', expands: false }, dir);
    const quoted = classifyPath({ text: '.?/x', glob: null, expands: false }, dir);
    expect(glob).toMatchObject({ outside: true, uncertain: true });
    expect(quoted).toMatchObject({ outside: false, protected: false, uncertain: false });
    const other = DirNode.top(ROOT).cd('/projects/app');
    expect(classifyPath({ text: '.?/x', glob: null, expands: false }, other)).toEqual(quoted);
    expect(classifyPath({ text: '.?/x', glob: '.?/x', expands: false }, other)).toEqual(glob);
  });

  it('as written and in the scope are remembered apart (`permissions.json` anywhere vs at the root)', () => {
    const dir = DirNode.top(ROOT).cd('/projects/app/a');
    const path = { text: 'permissions.json', glob: null, expands: false };
    expect(classifyPath(path, dir, false).protected).toBe(false);
    expect(classifyPath(path, dir, true).protected).toBe(true);
    expect(classifyPath(path, dir, false).protected).toBe(false);
  });

  it('past the bound of remembered word shapes (5,000 distinct words), answers stay the same', () => {
    const dir = DirNode.top(ROOT).cd('/projects/app');
    const before = classifyPath(
      { text: '.gi?/config', glob: '.gi?/config', expands: false },
      DirNode.top(ROOT).cd('/projects/app'),
    );
    for (let k = 0; k < 5000; k++) classifyPath({ text: `w${k}/*`, glob: `w${k}/*`, expands: false }, dir);
    const after = classifyPath(
      { text: '.gi?/config', glob: '.gi?/config', expands: false },
      DirNode.top(ROOT).cd('/projects/app'),
    );
    expect(after).toEqual(before);
    expect(after).toMatchObject({ protected: true });
  });
});
