// DirNode (dir-node.ts, issue 9 A.2): a working directory as a shared chain of segments. What the
// scope and protected-path checks read from a node: how far it matches the project root (exactly
// and case-folded), whether a .git/hooks pair or a .git folder lies on it, its printed path.
import { describe, expect, it } from 'vitest';
import { DirNode, fold, forEachSegment, rootSpec } from '../../src/policy/dir-node.ts';

const segments = (path: string): string[] => {
  const out: string[] = [];
  forEachSegment(path, (s) => out.push(s));
  return out;
};

describe('forEachSegment: empty and . segments dropped, .. kept', () => {
  it.each([
    ['/a//b/./c/', ['a', 'b', 'c']],
    ['a/../b', ['a', '..', 'b']],
    ['', []],
    ['.', []],
    ['/', []],
    ['a', ['a']],
    ['./a/.', ['a']],
    ['..', ['..']],
    ['.a/..b', ['.a', '..b']],
  ])('%j -> %j', (path, want) => expect(segments(path)).toEqual(want));
});

describe('rootSpec: the root split once, .. resolved lexically', () => {
  it.each([
    ['/Projects/App', ['Projects', 'App'], ['projects', 'app']],
    ['/a/../b/./c', ['b', 'c'], ['b', 'c']],
    ['/', [], []],
    ['/../a', ['a'], ['a']],
    ['/x/y/../../z', ['z'], ['z']],
  ])('%s', (root, exact, folded) => expect(rootSpec(root)).toEqual({ exact, folded }));
  it('fold lower-cases a segment', () => expect(fold('.GiT')).toBe('.git'));
});

describe('DirNode against the root /Projects/App', () => {
  const top = DirNode.top(rootSpec('/Projects/App'));
  const at = (path: string) => {
    const node = top.cd(path);
    return {
      path: node.toString(),
      depth: node.depth,
      rootMatch: node.rootMatch,
      rootMatchFolded: node.rootMatchFolded,
      inside: node.insideRoot(),
      hooks: node.hooks,
      inGit: node.inGit,
    };
  };
  const row = (path: string, depth: number, rootMatch: number, rootMatchFolded: number, inside: boolean) => ({
    path,
    depth,
    rootMatch,
    rootMatchFolded,
    inside,
    hooks: false,
    inGit: false,
  });
  it.each([
    ['/', row('/', 0, 0, 0, false)],
    ['/Projects', row('/Projects', 1, 1, 1, false)],
    ['/Projects/App', row('/Projects/App', 2, 2, 2, true)],
    ['/Projects/App/src/lib', row('/Projects/App/src/lib', 4, 2, 2, true)],
    ['/projects/app', row('/projects/app', 2, 0, 2, false)], // case-folded only: outside the scope
    ['/Projects/app', row('/Projects/app', 2, 1, 2, false)],
    ['/Projects/Other', row('/Projects/Other', 2, 1, 1, false)],
    ['/x/Projects/App', row('/x/Projects/App', 3, 0, 0, false)], // the root's segments, too late
    ['/Projects/x/App', row('/Projects/x/App', 3, 1, 1, false)],
    ['/x/App', row('/x/App', 2, 0, 0, false)], // the root's last segment at its depth, under another parent
    ['/x/app', row('/x/app', 2, 0, 0, false)],
    ['/Projects/App/../App/./src', row('/Projects/App/src', 3, 2, 2, true)],
    ['/Projects/App/../..', row('/', 0, 0, 0, false)],
  ])('%s', (path, want) => expect(at(path)).toEqual(want));

  it.each([
    ['/Projects/App/.git', false, true],
    ['/Projects/App/.GIT/Hooks', true, true],
    ['/Projects/App/.git/hooks/pre-commit.d', true, true],
    ['/Projects/App/hooks', false, false],
    ['/Projects/App/.git/x/hooks', false, true],
    ['/Projects/App/git/hooks', false, false],
    ['/Projects/App/.git/..', false, false],
  ])('%s: hooks %s, inside .git %s', (path, hooks, inGit) => {
    const node = top.cd(path);
    expect([node.hooks, node.inGit]).toEqual([hooks, inGit]);
  });
});

describe('DirNode chains: one node per path from the same /', () => {
  const top = DirNode.top(rootSpec('/r'));
  it('the same path is the same node, however it was reached', () => {
    const a = top.cd('/r/a');
    expect(top.cd('/r').child('a')).toBe(a);
    expect(top.cd('/r/a/../a')).toBe(a);
    expect(top.cd('/r/b').cd('../a')).toBe(a);
    expect(a.cd('/r/a')).toBe(a);
    expect(a.cd('')).toBe(a);
    expect(a.cd('.')).toBe(a);
  });
  it('an absolute cd starts from /, a relative one from the node', () => {
    const a = top.cd('/r/a');
    expect(a.cd('/b').toString()).toBe('/b');
    expect(a.cd('b').toString()).toBe('/r/a/b');
    expect(a.cd('..').toString()).toBe('/r');
    expect(a.top).toBe(top);
    expect(top.top).toBe(top);
  });
  it('.. above / stays at /', () => {
    expect(top.up()).toBe(top);
    expect(top.cd('../../..')).toBe(top);
    expect(top.cd('/r').up()).toBe(top);
  });
  it('a node keeps its parent, segment and root', () => {
    const b = top.cd('/r/A/b');
    expect([b.segment, b.folded, b.parent?.segment, b.parent?.folded]).toEqual(['b', 'b', 'A', 'a']);
    expect(b.root).toEqual({ exact: ['r'], folded: ['r'] });
    expect([top.parent, top.segment, top.folded]).toEqual([null, '', '']);
  });
  it('every root has its own /', () => {
    const other = DirNode.top(rootSpec('/r'));
    expect(other).not.toBe(top);
    expect(other.cd('/r/a')).not.toBe(top.cd('/r/a'));
  });
  it('with the root /, every directory is inside', () => {
    const all = DirNode.top(rootSpec('/'));
    expect([all.insideRoot(), all.cd('/etc').insideRoot()]).toEqual([true, true]);
  });
});
