// Issue 13.6: one table of action types. The derived lists must say what the specification says,
// and every consumer must read the table, so changing a row changes every derived fact.
import { describe, expect, it } from 'vitest';
import {
  ACTION_TYPE_FACTS,
  ACTION_TYPES,
  CONTAINER_ACTION_TYPES,
  decide,
  EMPTY_PERMISSIONS,
  EXTERNAL_EXECUTOR_TYPES,
  LABELS,
  MIN_ROLE,
  patternsForAction,
  TIPOS_SEM_SEMPRE_PERMITIR,
  typesWhere,
} from '../../src/policy/index.ts';
import type { ActionType } from '../../src/policy/index.ts';
import { credentialRefFor } from '../../src/actions/handoff.ts';
import { isContainerAction } from '../../src/execution/plan.ts';
import type { Project } from '../../src/store/types.ts';

const GIT_TYPES: ActionType[] = [
  'git_commit',
  'git_push',
  'pr_open',
  'git_repo_create',
  'git_branch_create',
  'git_branch_protect',
  'open_adr_pr',
  'open_infra_pr',
  'git_merge',
];

describe('issue 13.6: one table of action types', () => {
  it('has one row per action type, in the order of the specification', () => {
    expect(Object.keys(ACTION_TYPE_FACTS)).toEqual([...ACTION_TYPES]);
  });

  it.each([...ACTION_TYPES])('%s: labels, minimum roles and always-allow refusals are read from its row', (type) => {
    const facts = ACTION_TYPE_FACTS[type];
    expect(LABELS[type]).toBe(facts.label);
    expect(MIN_ROLE[type]).toBe(facts.minRole);
    expect(TIPOS_SEM_SEMPRE_PERMITIR.includes(type)).toBe(facts.alwaysAllow === 'refused');
    const plan = patternsForAction(type, type === 'terminal' ? { command: 'ls' } : {});
    expect(plan.kind === 'refused').toBe(facts.alwaysAllow === 'refused');
  });

  it('RN-082 the git types, and only they, carry the owner credential reference', () => {
    const project = { ownerId: 'olivia' } as Project;
    expect(typesWhere('credential', 'owner')).toEqual(GIT_TYPES);
    for (const type of ACTION_TYPES)
      expect(credentialRefFor(project, type)).toBe(GIT_TYPES.includes(type) ? 'owner:olivia' : null);
  });

  it('RN-495 container_stop and container_remove are the only human-only types', () => {
    expect(typesWhere('proposer', 'human_only')).toEqual(['container_stop', 'container_remove']);
  });

  it('the container types are the lifecycle the gateway runs; the rest but terminal wait for an external executor', () => {
    expect([...CONTAINER_ACTION_TYPES]).toEqual(['container_start', 'container_stop', 'container_remove']);
    for (const type of ACTION_TYPES)
      expect(isContainerAction(type)).toBe(CONTAINER_ACTION_TYPES.includes(type as never));
    expect(typesWhere('executedBy', 'gateway_terminal')).toEqual(['terminal']);
    expect(EXTERNAL_EXECUTOR_TYPES).toEqual(
      ACTION_TYPES.filter((type) => type !== 'terminal' && !CONTAINER_ACTION_TYPES.includes(type as never)),
    );
    expect(EXTERNAL_EXECUTOR_TYPES).toEqual(expect.arrayContaining(['git_push', 'pr_open', 'git_merge']));
  });

  it.each([...ACTION_TYPES])(
    'RN-006 %s: an owner allowing Label() is held back exactly when its row names a typed ceiling',
    (type) => {
      const label = `${LABELS[type]}()`;
      const decision = decide({
        actionType: type,
        payload: type === 'terminal' ? { command: 'ls', cwd: '/srv/p' } : { branch: 'main' },
        role: 'owner',
        autonomy: null,
        permissions: { ...EMPTY_PERMISSIONS, allow: [type === 'terminal' ? 'Terminal(ls)' : label] },
        scopeRoot: '/srv/p',
        containerRunning: true,
      });
      expect(decision.policy).toBe(ACTION_TYPE_FACTS[type].typedCeiling === null ? 'auto_approve' : 'require_approval');
    },
  );

  it.each(['assess_implementability', 'propose_execution_plan'] as const)(
    'RN-340 / RN-284 %s is maintainer, outside the absolute-ceiling block: Label() in allow auto-approves it',
    (type) => {
      expect(ACTION_TYPE_FACTS[type]).toMatchObject({
        minRole: 'maintainer',
        typedCeiling: null,
        alwaysAllow: 'writes_pattern',
      });
      const input = {
        actionType: type,
        payload: {},
        autonomy: null,
        permissions: { ...EMPTY_PERMISSIONS, allow: [`${LABELS[type]}()`] },
        scopeRoot: '/srv/p',
        containerRunning: false,
      };
      expect(decide({ ...input, role: 'maintainer' }).policy).toBe('auto_approve');
      expect(decide({ ...input, role: 'developer' }).reasonCode).toBe('iam_role_below_minimum');
    },
  );
});
