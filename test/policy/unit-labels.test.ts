// Labels, minimum roles, role order and protected branches (mutation testing of labels.ts,
// issue 9). The labels and minimum roles are checked against the specification's own table
// (docs/spec/permissions.en.md, "Pattern format"), read from the file, not copied here.
import { describe, expect, it } from 'vitest';
import {
  ACTION_TYPES,
  actionTypeForLabel,
  isActionType,
  isProtectedBranch,
  isRole,
  LABELS,
  MIN_ROLE,
  PROTECTED_BRANCHES,
  roleAtLeast,
  ROLES,
  TIPOS_SEM_SEMPRE_PERMITIR,
} from '../../src/policy/index.ts';
import type { Role } from '../../src/policy/index.ts';
import { allowing, typed } from './unit-fixtures.ts';
import { SPEC_TEXT as SPEC } from './spec-text.ts';

/** The rows `| \`type\` | \`Label\` | role |` of the specification's "Pattern format" table. */
const SPEC_ROWS = [...SPEC.matchAll(/^\| `([a-z_]+)` \| `([A-Za-z]+)` \| (developer|maintainer|owner) \|$/gm)].map(
  ([, type, label, role]) => ({ type: type!, label: label!, role: role as Role }),
);

describe('"Pattern format": every action type has the label and minimum role of the specification', () => {
  it('the specification table lists the 20 types, in the order of ACTION_TYPES', () => {
    expect(SPEC_ROWS.map((row) => row.type)).toEqual([...ACTION_TYPES]);
  });

  it.each(SPEC_ROWS)('$type: label $label, minimum role $role (RN-005)', ({ type, label, role }) => {
    expect(LABELS[type as (typeof ACTION_TYPES)[number]]).toBe(label);
    expect(MIN_ROLE[type as (typeof ACTION_TYPES)[number]]).toBe(role);
    expect(actionTypeForLabel(label)).toBe(type);
  });

  it.each(SPEC_ROWS)(
    'RN-005 $type proposed by a role below $role is denied before permissions.json',
    ({ type, label, role }) => {
      const below = ROLES.slice(0, ROLES.indexOf(role));
      for (const low of below) {
        const d = typed(type as (typeof ACTION_TYPES)[number], {}, { ...allowing(`${label}()`), role: low });
        expect(d).toMatchObject({ policy: 'deny', reasonCode: 'iam_role_below_minimum' });
      }
      const d = typed(
        type as (typeof ACTION_TYPES)[number],
        { command: 'ls', cwd: '/srv/workspaces/shop-1a2b3c4d' },
        { role },
      );
      expect(d.reasonCode).not.toBe('iam_role_below_minimum');
    },
  );

  it.each(['terminal', 'TERMINAL', 'Bash', 'GitPushes', '', 'git_push', 'toString', 'constructor'])(
    'label %j names no action type',
    (label) => {
      expect(actionTypeForLabel(label)).toBeUndefined();
    },
  );
});

describe('isActionType, isRole', () => {
  it.each([...ACTION_TYPES])('%s is an action type', (type) => {
    expect(isActionType(type)).toBe(true);
  });
  it.each(['Terminal', 'git-push', '', ' terminal', 'admin', 3, null, undefined, ['terminal'], { type: 'terminal' }])(
    '%j is not an action type',
    (value) => {
      expect(isActionType(value)).toBe(false);
    },
  );
  it.each(['developer', 'maintainer', 'owner'])('%s is a role', (role) => {
    expect(isRole(role)).toBe(true);
  });
  it.each(['admin', 'Owner', '', 'terminal', 1, null, undefined, ['owner']])('%j is not a role', (value) => {
    expect(isRole(value)).toBe(false);
  });
});

describe('roleAtLeast: developer < maintainer < owner', () => {
  it.each<[Role, Role, boolean]>([
    ['developer', 'developer', true],
    ['developer', 'maintainer', false],
    ['developer', 'owner', false],
    ['maintainer', 'developer', true],
    ['maintainer', 'maintainer', true],
    ['maintainer', 'owner', false],
    ['owner', 'developer', true],
    ['owner', 'maintainer', true],
    ['owner', 'owner', true],
  ])('%s at least %s: %s', (role, min, expected) => {
    expect(roleAtLeast(role, min)).toBe(expected);
  });
});

describe('RN-689 the types whose "Always allow" writes nothing', () => {
  it('are the ceiling types of the specification: push, PR, merge, instruction patch, parallelism, container remove', () => {
    expect(TIPOS_SEM_SEMPRE_PERMITIR).toEqual([
      'git_push',
      'pr_open',
      'git_merge',
      'instruction_patch',
      'parallelize',
      'raise_max_parallel',
      'container_remove',
    ]);
    expect(Object.isFrozen(TIPOS_SEM_SEMPRE_PERMITIR)).toBe(true);
  });
});

describe('RN-006 protected merge targets', () => {
  it('dev, qa, rc and main, frozen', () => {
    expect(PROTECTED_BRANCHES).toEqual(['dev', 'qa', 'rc', 'main']);
    expect(Object.isFrozen(PROTECTED_BRANCHES)).toBe(true);
  });

  // Every spelling git accepts for a protected branch is protected.
  it.each([
    'main',
    'dev',
    'qa',
    'rc',
    ' main ',
    'MAIN',
    'Dev',
    'refs/heads/main',
    'origin/main',
    'remotes/upstream/qa',
    'refs/remotes/origin/rc',
    'main/',
    'origin//main',
    'origin/ main',
    'main^{}',
    'main^',
    'main~0',
    'dev~2',
    'main@{u}',
    'qa@{1}',
    '+main',
    '++main',
    'HEAD:main',
    'feature:main',
    'feature: main',
    'main:',
    'main: ',
    '+feature:refs/heads/dev',
    'fix/main',
    // `git push origin :main` deletes main; blanks around a plus sign are still the same name.
    ':main',
    ' +main',
    'feature: +main',
  ])('%j is protected', (branch) => {
    expect(isProtectedBranch(branch)).toBe(true);
    const d = typed('git_merge', { branch }, allowing('GitMerge()'));
    expect(d).toMatchObject({ policy: 'require_approval', reasonCode: 'ceiling_protected_branch_merge' });
  });

  it.each([
    'feature',
    'mainline',
    'main-fix',
    'devel',
    'qa2',
    'rcx',
    'main/feature',
    'origin/feature',
    'main:feature',
    'HEAD:feature',
    'refs/heads/',
    '/',
    ':',
    '',
    'main@',
    'ma^in',
    'ma+in',
    'main+',
    '+',
  ])('%j is not protected', (branch) => {
    expect(isProtectedBranch(branch)).toBe(false);
  });

  it('a merge into an unprotected branch is auto-approved by GitMerge()', () => {
    expect(typed('git_merge', { branch: 'feature/main-page' }, allowing('GitMerge()')).policy).toBe('auto_approve');
  });
});
