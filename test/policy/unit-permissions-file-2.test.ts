// permissions.json mistakes a person makes, named exactly (mutation testing of permissions-file.ts,
// issue 9): unknown keys with the list they most likely meant, Claude Code's shapes, lists and
// entries of the wrong type, JSON syntax errors located without quoting the file. The sentence is
// what the person reads, so the rows compare it whole.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  describeIssue,
  EMPTY_PERMISSIONS,
  mergePatterns,
  parsePermissions,
  parsePermissionsText,
  PERMISSION_LISTS,
  PermissionsFileSchema,
} from '../../src/policy/index.ts';
import type { PermissionsParse } from '../../src/policy/index.ts';
import { term } from './unit-fixtures.ts';

function broken(parse: PermissionsParse) {
  if (parse.ok) throw new Error('expected a broken file');
  return parse;
}

/** The one problem a file with one mistake reports, as the person reads it. */
function message(raw: unknown): string {
  return broken(parsePermissions(raw)).error.message;
}

const ONLY_THREE = 'permissions.json has only "allow", "deny" and "ask"';

describe('unknown keys name the list they most likely meant (same letters or at most 2 edits)', () => {
  it.each([
    ['alow', 'allow'],
    ['ALLOW', 'allow'],
    [' deny ', 'deny'],
    ['  allow  ', 'allow'],
    ['allowed', 'allow'],
    ['asked', 'ask'],
    ['aks', 'ask'],
    ['dney', 'deny'],
    ['al', 'ask'],
    ['as', 'ask'],
    ['dny', 'deny'],
    // As close to two lists: the first in the file's order (allow, deny, ask) is named.
    ['all', 'allow'],
    ['desk', 'deny'],
  ])('%j -> did you mean "%s"?', (key, list) => {
    expect(message({ [key]: [] })).toBe(`unknown key ${JSON.stringify(key)}: did you mean "${list}"?`);
  });

  it.each(['denied', 'rules', 'x', 'allowance', 'permission', 'askers'])(
    '%j is more than 2 edits from every list',
    (key) => {
      expect(message({ [key]: [] })).toBe(`unknown key ${JSON.stringify(key)}: ${ONLY_THREE}`);
    },
  );

  it('a key over 40 characters is shown cut at 40, with an ellipsis', () => {
    const key = 'a'.repeat(41);
    expect(message({ [key]: [] })).toBe(`unknown key "${'a'.repeat(40)}…": ${ONLY_THREE}`);
    const fits = 'b'.repeat(40);
    expect(message({ [fits]: [] })).toBe(`unknown key "${fits}": ${ONLY_THREE}`);
  });

  it('every unknown key is its own issue, in the order of the file, and the valid lists are still read', () => {
    const r = broken(parsePermissions({ alow: [], deny: ['Terminal(curl:*)'], dney: [] }));
    expect(r.error.issues).toEqual([
      { list: null, index: null, problem: 'unknown key "alow": did you mean "allow"?' },
      { list: null, index: null, problem: 'unknown key "dney": did you mean "deny"?' },
    ]);
    expect(r.error.message).toBe('unknown key "alow": did you mean "allow"?; unknown key "dney": did you mean "deny"?');
    expect(r.salvaged).toEqual({ allow: [], deny: ['Terminal(curl:*)'], ask: [] });
  });
});

describe('Claude Code\'s settings shape {"permissions": {...}}', () => {
  const SHAPE =
    'unknown key "permissions": this is Claude Code\'s settings shape {"permissions": {"allow": [...]}}; in permissions.json put "allow", "deny" and "ask" at the top level';

  it('is named as such, and its deny and ask entries still count while allow never does', () => {
    const r = broken(
      parsePermissions({
        permissions: { allow: ['Terminal(ls)'], deny: ['Terminal(curl:*)'], ask: ['GitPush()'] },
        deny: ['Terminal(wget:*)'],
      }),
    );
    expect(r.error.message).toBe(SHAPE);
    expect(r.salvaged).toEqual({ allow: [], deny: ['Terminal(wget:*)', 'Terminal(curl:*)'], ask: ['GitPush()'] });
    // What a user notices: the nested deny still denies, the nested allow does not allow.
    const o = { permissions: r.salvaged, permissionsBroken: true, containerRunning: true };
    expect(term('curl x', o).policy).toBe('deny');
    expect(term('ls', o)).toMatchObject({ policy: 'require_approval', reasonCode: 'permissions_file_invalid' });
  });

  it('its broken entries are not reported twice, and are not kept', () => {
    const r = broken(parsePermissions({ permissions: { deny: [7, 'Nope()', 'Terminal(nc)'], ask: 'GitPush()' } }));
    expect(r.error.issues).toHaveLength(1);
    expect(r.salvaged).toEqual({ allow: [], deny: ['Terminal(nc)'], ask: [] });
  });

  it('a "permissions" array is named as the shape too, but nothing in it is read', () => {
    const r = broken(parsePermissions({ permissions: ['Terminal(curl:*)'] }));
    expect(r.error.message).toBe(SHAPE);
    expect(r.salvaged).toEqual({ allow: [], deny: [], ask: [] });
  });

  it.each([['Terminal(curl:*)'], [null], [1]])(
    'a "permissions" key that is not an object (%j) is an unknown key like any other, and salvages nothing',
    (value) => {
      const r = broken(parsePermissions({ permissions: value }));
      expect(r.error.message).toBe(`unknown key "permissions": ${ONLY_THREE}`);
      expect(r.salvaged).toEqual({ allow: [], deny: [], ask: [] });
    },
  );
});

describe('lists and entries of the wrong type', () => {
  it.each([
    [{ allow: 'Terminal(ls)' }, 'allow: must be an array of strings; did you mean ["Terminal(ls)"]?'],
    [{ deny: { curl: true } }, 'deny: must be an array of strings, got object'],
    [{ ask: null }, 'ask: must be an array of strings, got null'],
    [{ allow: 3 }, 'allow: must be an array of strings, got number'],
    [{ deny: true }, 'deny: must be an array of strings, got boolean'],
    [{ allow: [null] }, 'allow[0]: must be a string, got null'],
    [{ ask: ['GitPush()', ['GitMerge()']] }, 'ask[1]: must be a string, got object'],
    [{ deny: [false] }, 'deny[0]: must be a string, got boolean'],
  ])('%j: %s', (raw, text) => {
    expect(message(raw)).toBe(text);
  });

  it('a list given as undefined is a missing list, hence empty', () => {
    expect(parsePermissions({ allow: undefined, deny: ['Terminal(nc)'] })).toEqual({
      ok: true,
      value: { allow: [], deny: ['Terminal(nc)'], ask: [] },
      warnings: [],
    });
  });
});

describe("Claude Code's Bash(...) entries say which Terminal(...) to write", () => {
  it.each([
    ['Bash(npm run test:*)', 'Terminal(npm run test:*)'],
    ['bash(ls)', 'Terminal(ls)'],
    ['BASH(git status)', 'Terminal(git status)'],
    [' Bash (make build) ', 'Terminal(make build)'],
    ['Bash()', 'Terminal()'],
    ['Bash(echo a\necho b)', 'Terminal(echo a\necho b)'],
  ])('%j -> write %j', (entry, written) => {
    const r = broken(parsePermissions({ deny: ['Terminal(nc)', entry] }));
    expect(r.error.issues).toEqual([
      {
        list: 'deny',
        index: 1,
        entry,
        problem: `Claude Code's Bash(...) is Terminal(...) here; write ${JSON.stringify(written)}`,
      },
    ]);
    expect(r.salvaged.deny).toEqual(['Terminal(nc)']);
  });

  it.each(['Bashful(ls)', 'xBash(ls)', 'Bash(ls) x'])(
    '%j is not a Bash entry: it is an ordinary bad pattern',
    (entry) => {
      expect(message({ allow: [entry] })).not.toContain('Claude Code');
    },
  );
});

describe('describeIssue: list, index, entry, problem', () => {
  it.each([
    [{ list: null, index: null, problem: 'p' }, 'p'],
    [{ list: 'ask' as const, index: null, problem: 'p' }, 'ask: p'],
    [{ list: 'deny' as const, index: 2, problem: 'p' }, 'deny[2]: p'],
    [{ list: 'allow' as const, index: 0, entry: 'X()', problem: 'p' }, 'allow[0] "X()": p'],
    [{ list: 'allow' as const, index: 0, entry: '', problem: 'p' }, 'allow[0] "": p'],
  ])('%j -> %j', (issue, text) => {
    expect(describeIssue(issue)).toBe(text);
  });
});

describe('parsePermissionsText: a JSON syntax error says where, never quoting the file', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it.each([
    ['{"allow": [', 'permissions.json is not valid JSON (it ends too early)'],
    ['', 'permissions.json is not valid JSON (it ends too early)'],
    ['{"allow": ["Terminal(ls)"],}', 'permissions.json is not valid JSON (line 1, column 28)'],
    ['{\n  "deny": []\n  "ask": []\n}', 'permissions.json is not valid JSON (line 3, column 3)'],
    [`{${'\n'.repeat(11)}"deny": [],            "ask" []}`, 'permissions.json is not valid JSON (line 12, column 30)'],
    // V8 quotes the text in this one ("...secret..." is not valid JSON): nothing of it is kept.
    ['{"deny": [secret]}', 'permissions.json is not valid JSON'],
  ])('%j -> %s', (text, problem) => {
    const r = broken(parsePermissionsText(text));
    expect(r.error.code).toBe('permissions_invalid_json');
    expect(r.error.issues).toEqual([{ list: null, index: null, problem }]);
    expect(r.error.message).toBe(problem);
    expect(r.salvaged).toEqual(EMPTY_PERMISSIONS);
  });

  // Older runtimes (Node 20) give only the offset; the location is still named.
  it.each([
    ['Unexpected token } in JSON at position 12', 'permissions.json is not valid JSON (at character 12)'],
    ['Unexpected end of JSON input', 'permissions.json is not valid JSON (it ends too early)'],
    ['something else', 'permissions.json is not valid JSON'],
  ])('a runtime whose JSON.parse says %j -> %s', (thrown, problem) => {
    vi.spyOn(JSON, 'parse').mockImplementation(() => {
      throw new SyntaxError(thrown);
    });
    expect(broken(parsePermissionsText('{')).error.message).toBe(problem);
  });

  it('a thrown value that is not an Error still gives the named error, without a location', () => {
    vi.spyOn(JSON, 'parse').mockImplementation(() => {
      // What a foreign runtime could throw: not an Error.
      throw 'at position 3';
    });
    expect(broken(parsePermissionsText('{')).error.message).toBe('permissions.json is not valid JSON');
  });
});

describe('the empty file and the schema', () => {
  it('EMPTY_PERMISSIONS is three empty lists that nobody can fill by accident', () => {
    expect(EMPTY_PERMISSIONS).toEqual({ allow: [], deny: [], ask: [] });
    expect(Object.isFrozen(EMPTY_PERMISSIONS)).toBe(true);
    for (const list of PERMISSION_LISTS) expect(Object.isFrozen(EMPTY_PERMISSIONS[list])).toBe(true);
  });

  it('the lists, in the order the specification gives them', () => {
    expect(PERMISSION_LISTS).toEqual(['allow', 'deny', 'ask']);
  });

  it('PermissionsFileSchema fills missing lists with empty ones and refuses non-string entries', () => {
    expect(PermissionsFileSchema.parse({})).toEqual({ allow: [], deny: [], ask: [] });
    expect(PermissionsFileSchema.parse({ ask: ['GitPush()'] })).toEqual({ allow: [], deny: [], ask: ['GitPush()'] });
    expect(PermissionsFileSchema.safeParse({ deny: [1] }).success).toBe(false);
  });
});

describe('mergePatterns writes into one list and leaves the others as they were', () => {
  it.each(PERMISSION_LISTS)('into %s', (list) => {
    const base = { allow: ['Terminal(ls)'], deny: ['Terminal(curl:*)'], ask: ['GitPush()'] };
    const merged = mergePatterns(base, list, ['Terminal(make)', 'Terminal(make)']);
    const expected = { ...base, [list]: [...base[list], 'Terminal(make)'] };
    expect(merged).toEqual(expected);
    // A new object: the caller's lists are untouched, and the result shares none of them.
    expect(base).toEqual({ allow: ['Terminal(ls)'], deny: ['Terminal(curl:*)'], ask: ['GitPush()'] });
    for (const other of PERMISSION_LISTS) expect(merged[other]).not.toBe(base[other]);
  });
});
