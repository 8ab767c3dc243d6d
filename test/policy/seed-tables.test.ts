// The specification's own tables, verbatim, as table-driven tests.
import { describe, expect, it } from 'vitest';
import { ACTION_TYPES, BUILTIN_DENY_PATTERNS, LABELS, MIN_ROLE } from '../../src/policy/index.ts';
import type { ActionType, Role } from '../../src/policy/index.ts';
import { allowing, perms, ROOT, term, typed } from './unit-fixtures.ts';

describe('seed: pattern matching table ("How patterns match commands")', () => {
  const rows: Array<[string, string, boolean]> = [
    ['Terminal(pnpm test)', 'pnpm test', true],
    ['Terminal(pnpm test)', 'pnpm test --watch', true],
    ['Terminal(pnpm test)', 'pnpm build', false],
    ['Terminal(pnpm test:*)', 'pnpm test:unit', true],
    ['Terminal(rm)', 'sudo rm -rf x', false],
  ];
  it.each(rows)('%s vs %s -> match %s', (pattern, command, match) => {
    const d = term(command, allowing(pattern));
    expect(d.fragments?.[0]?.verdict).toBe(match ? 'allow' : 'none');
    expect(d.policy).toBe(match ? 'auto_approve' : 'require_approval');
  });

  it('`*` is not a path glob: Terminal(rm -rf /*) is the literal token /*', () => {
    const d = term('rm -rf /tmp/x', { permissions: { deny: ['Terminal(rm -rf /*)'] } });
    expect(d.policy).not.toBe('deny');
    expect(term('rm -rf /*', { permissions: { deny: ['Terminal(rm -rf /*)'] } }).policy).toBe('deny');
  });
});

describe('seed: the three lists', () => {
  it('allow -> auto_approve', () =>
    expect(term('git status', allowing('Terminal(git status)')).policy).toBe('auto_approve'));
  it('deny -> deny, nothing reverses it', () => {
    const d = term('curl -s x', {
      permissions: { deny: ['Terminal(curl:*)'], allow: ['Terminal(curl)'] },
      autonomy: { mode: 'auto_approve', origin: 'curinga' },
      containerRunning: true,
    });
    expect(d.policy).toBe('deny');
  });
  it('ask -> require_approval', () =>
    expect(typed('git_push', {}, { permissions: { ask: ['GitPush()'] } }).policy).toBe('require_approval'));
  it('no list matches -> stays pending (require_approval); absence of a rule is never permission', () => {
    const d = term('make build', { permissions: perms({ allow: ['Terminal(pnpm test:*)'] }) });
    expect(d.policy).toBe('require_approval');
    expect(d.reasonCode).toBe('default_require_approval');
  });
});

describe('seed: labels and minimum roles table (RN-005, RN-083)', () => {
  const table: Array<[ActionType, string, Role]> = [
    ['terminal', 'Terminal', 'developer'],
    ['git_commit', 'GitCommit', 'developer'],
    ['write_file', 'WriteFile', 'developer'],
    ['git_push', 'GitPush', 'maintainer'],
    ['pr_open', 'PrOpen', 'maintainer'],
    ['git_repo_create', 'GitRepoCreate', 'maintainer'],
    ['git_branch_create', 'GitBranchCreate', 'maintainer'],
    ['git_branch_protect', 'GitBranchProtect', 'maintainer'],
    ['open_adr_pr', 'OpenAdrPr', 'maintainer'],
    ['open_infra_pr', 'OpenInfraPr', 'maintainer'],
    ['git_merge', 'GitMerge', 'maintainer'],
    ['instruction_patch', 'InstructionPatch', 'maintainer'],
    ['parallelize', 'Parallelize', 'maintainer'],
    ['raise_max_parallel', 'RaiseMaxParallel', 'maintainer'],
    ['propose_execution_plan', 'ProposeExecutionPlan', 'maintainer'],
    ['assess_implementability', 'AssessImplementability', 'maintainer'],
    ['container_start', 'ContainerStart', 'maintainer'],
    ['container_stop', 'ContainerStop', 'maintainer'],
    ['container_remove', 'ContainerRemove', 'maintainer'],
    ['spend', 'Spend', 'owner'],
  ];
  it('has exactly the 20 types of the table', () => {
    expect(table.map((r) => r[0])).toEqual([...ACTION_TYPES]);
  });
  it.each(table)('%s: label %s, minimum %s', (type, label, min) => {
    expect(LABELS[type]).toBe(label);
    expect(MIN_ROLE[type]).toBe(min);
  });
  it.each(table)('RN-005 %s: a role below %s is denied even when permissions.json allows it', (type, label, min) => {
    const below: Role | null = min === 'owner' ? 'maintainer' : min === 'maintainer' ? 'developer' : null;
    const payload = type === 'terminal' ? { command: 'ls', cwd: ROOT } : { branch: 'feature/x' };
    const allowAll = { permissions: { allow: [type === 'terminal' ? 'Terminal(ls)' : `${label}()`] } };
    if (below !== null) {
      const d = typed(type, payload, { ...allowAll, role: below });
      expect(d.policy).toBe('deny');
      expect(d.reasonCode).toBe('iam_role_below_minimum');
    }
    expect(typed(type, payload, { ...allowAll, role: min }).policy).not.toBe('deny');
  });
});

describe('seed: ceilings table', () => {
  const auto = { autonomy: { mode: 'auto_approve', origin: 'curinga' } as const };
  const rows: Array<[string, () => ReturnType<typeof typed>, string]> = [
    [
      'RN-006 git_merge into main',
      () => typed('git_merge', { branch: 'main' }, auto),
      'ceiling_protected_branch_merge',
    ],
    ['RN-007 instruction_patch', () => typed('instruction_patch', {}, auto), 'ceiling_instruction_patch'],
    ['RN-086 parallelize', () => typed('parallelize', {}, auto), 'ceiling_parallelism'],
    [
      'RN-418 terminal git push',
      () => term('git push origin main', { ...auto, permissions: { allow: ['Terminal(git push)'] } }),
      'ceiling_external_effect',
    ],
    [
      'RN-689 typed git_push',
      () => typed('git_push', {}, { ...auto, permissions: { allow: ['GitPush()'] } }),
      'ceiling_typed_external_effect',
    ],
    [
      'RN-495 container_remove',
      () => typed('container_remove', {}, { ...auto, permissions: { allow: ['ContainerRemove()'] } }),
      'ceiling_container_remove',
    ],
  ];
  it.each(rows)('%s: auto_approve -> require_approval', (_name, run, code) => {
    const d = run();
    expect(d.policy).toBe('require_approval');
    expect(d.reasonCode).toBe(code);
  });
  it('a ceiling never turns deny into anything else', () => {
    const d = typed('git_merge', { branch: 'main' }, { permissions: { deny: ['GitMerge()'] }, ...auto });
    expect(d.policy).toBe('deny');
  });
});

describe('seed: built-in patterns', () => {
  it('are exactly the three of the specification', () => {
    expect(BUILTIN_DENY_PATTERNS).toEqual(['Terminal(rm -rf /)', 'Terminal(rm -rf /*)', 'Terminal(rm -fr /)']);
  });
  it.each(['rm -rf /', 'rm -rf /*', 'rm -fr /'])(
    '%s is denied with an empty permissions.json, even in auto mode',
    (command) => {
      const d = term(command, { autonomy: { mode: 'auto_approve', origin: 'curinga' }, containerRunning: true });
      expect(d.policy).toBe('deny');
      expect(d.reasonCode).toBe('builtin_deny');
    },
  );
});
