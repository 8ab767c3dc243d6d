// permissions.json parsing: every error names the list, the index and the problem; a broken
// file never loosens (salvaged keeps valid deny/ask, never allow).
import { describe, expect, it } from 'vitest';
import {
  EMPTY_PERMISSIONS,
  mergePatterns,
  parsePermissions,
  parsePermissionsText,
  PermissionsError,
} from '../../src/policy/index.ts';
import { term } from './unit-fixtures.ts';

function failure(raw: unknown) {
  const r = parsePermissions(raw);
  if (r.ok) throw new Error('expected a failure');
  return r;
}

describe('parsePermissions', () => {
  it('accepts the specification example and missing lists', () => {
    const example = {
      allow: ['Terminal(pnpm test:*)', 'Terminal(git status)'],
      deny: ['Terminal(curl:*)'],
      ask: ['GitPush()'],
    };
    expect(parsePermissions(example)).toEqual({ ok: true, value: example, warnings: [] });
    expect(parsePermissions({})).toEqual({ ok: true, value: { allow: [], deny: [], ask: [] }, warnings: [] });
  });
  it.each([[null], [[]], ['x'], [3]])('not an object (%j) is a named error', (raw) => {
    const r = failure(raw);
    expect(r.error).toBeInstanceOf(PermissionsError);
    expect(r.error.name).toBe('PermissionsError');
    expect(r.error.code).toBe('permissions_invalid');
    expect(r.error.issues[0]).toMatchObject({ list: null, index: null });
    expect(r.salvaged).toEqual(EMPTY_PERMISSIONS);
  });
  it('a list that is not an array', () => {
    const r = failure({ ask: 'GitPush()' });
    // e93e021 (permissions.json hints) added the suggestion to the same sentence.
    expect(r.error.issues).toEqual([
      { list: 'ask', index: null, problem: 'must be an array of strings; did you mean ["GitPush()"]?' },
    ]);
    expect(r.error.message).toBe('ask: must be an array of strings; did you mean ["GitPush()"]?');
  });
  it('an entry that is not a string', () => {
    expect(failure({ deny: ['Terminal(curl)', 7] }).error.issues[0]).toMatchObject({
      list: 'deny',
      index: 1,
      problem: 'must be a string, got number',
    });
  });
  it('an unknown label', () => {
    const r = failure({ allow: ['Termnal(ls)'] });
    expect(r.error.message).toBe('allow[0] "Termnal(ls)": unknown label Termnal');
  });
  it('Pattern format: content on a non-Terminal label is kept, valid, and named in a warning', () => {
    const raw = { allow: ['GitCommit(x)'], deny: ['Terminal(a)', 'Terminal(b)', 'GitPush(algo)'] };
    const r = parsePermissions(raw);
    expect(r).toEqual({
      ok: true,
      value: { allow: ['GitCommit(x)'], deny: ['Terminal(a)', 'Terminal(b)', 'GitPush(algo)'], ask: [] },
      warnings: [
        {
          list: 'allow',
          index: 0,
          entry: 'GitCommit(x)',
          problem: 'only Terminal takes content, so GitCommit(x) matches nothing; GitCommit() matches any git commit',
        },
        {
          list: 'deny',
          index: 2,
          entry: 'GitPush(algo)',
          problem: 'only Terminal takes content, so GitPush(algo) matches nothing; GitPush() matches any push',
        },
      ],
    });
  });
  it('an inert entry next to a broken one: the file is broken for the broken one only', () => {
    const r = failure({ deny: ['GitPush(algo)', 'Nope(x)'] });
    expect(r.error.issues.map((i) => i.index)).toEqual([1]);
    expect(r.salvaged.deny).toEqual(['GitPush(algo)']);
  });
  it('unbalanced parentheses, empty Terminal(), not Label(...), several commands', () => {
    expect(failure({ allow: ['Terminal(echo (x)'] }).error.issues[0]?.problem).toBe('unbalanced parentheses');
    expect(failure({ allow: ['Terminal()'] }).error.issues[0]?.problem).toContain('Terminal() needs a command');
    expect(failure({ allow: ['Terminal( )'] }).error.issues[0]?.problem).toContain('Terminal() needs a command');
    expect(failure({ allow: ['ls'] }).error.issues[0]?.problem).toContain('Label(content)');
    expect(failure({ allow: ['Terminal(ls && rm x)'] }).error.issues[0]?.problem).toContain('one command');
  });
  it('one sentence per issue in the message', () => {
    const r = failure({ allow: ['X()'], ask: 1 });
    expect(r.error.issues).toHaveLength(2);
    expect(r.error.message).toBe('allow[0] "X()": unknown label X; ask: must be an array of strings, got number');
  });
  it('salvaged keeps valid deny and ask, never allow', () => {
    const r = failure({ allow: ['Terminal(ls)', 'Bad()'], deny: ['Terminal(curl:*)', 'Nope()'], ask: ['GitPush()'] });
    expect(r.salvaged).toEqual({ allow: [], deny: ['Terminal(curl:*)'], ask: ['GitPush()'] });
  });
  it('a broken file never loosens: salvaged + permissionsBroken never auto-approves, still denies', () => {
    const r = failure({ allow: ['Terminal(ls)', 'Bad()'], deny: ['Terminal(curl:*)'] });
    const o = {
      permissions: r.salvaged,
      permissionsBroken: true,
      containerRunning: true,
      autonomy: { mode: 'auto_approve', origin: 'curinga' } as const,
    };
    expect(term('ls', o)).toMatchObject({ policy: 'require_approval', reasonCode: 'permissions_file_invalid' });
    expect(term('curl x', o).policy).toBe('deny');
  });
});

describe('parsePermissionsText', () => {
  it('bad JSON is a named error (permissions_invalid_json)', () => {
    const r = parsePermissionsText('{"allow": [');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('permissions_invalid_json');
      expect(r.error.message).toContain('not valid JSON');
      expect(r.salvaged).toEqual(EMPTY_PERMISSIONS);
    }
  });
  it('valid text parses', () => {
    expect(parsePermissionsText('{"deny":["Terminal(curl:*)"]}')).toEqual({
      ok: true,
      value: { allow: [], deny: ['Terminal(curl:*)'], ask: [] },
      warnings: [],
    });
  });
});

describe('mergePatterns', () => {
  it('dedupes, keeps order, returns a new object', () => {
    const base = { allow: ['Terminal(ls)'], deny: [], ask: [] };
    const merged = mergePatterns(base, 'allow', ['Terminal(cd)', 'Terminal(ls)', 'Terminal(cd)', 'Terminal(npm test)']);
    expect(merged.allow).toEqual(['Terminal(ls)', 'Terminal(cd)', 'Terminal(npm test)']);
    expect(base.allow).toEqual(['Terminal(ls)']);
  });
});
