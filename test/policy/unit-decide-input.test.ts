// decide() on malformed input: every shape a caller can send gets require_approval (or the IAM
// deny) with a reason naming what is wrong, never a throw and never auto_approve (kills the
// mutants Stryker found surviving in decide.ts's input checks).
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import type { DecisionInput } from '../../src/policy/index.ts';
import { inputFor, perms, ROOT } from './unit-fixtures.ts';

const LS = perms({ allow: ['Terminal(ls)'] });
const decideRaw = (input: unknown) => decide(input as DecisionInput);
const lsWith = (patch: Record<string, unknown>) =>
  decideRaw({ ...inputFor('terminal', { command: 'ls', cwd: ROOT }, { permissions: LS }), ...patch });

describe('decide() input checks name what is wrong', () => {
  it('RN a decision input that is not an object is an invalid payload', () => {
    for (const input of [null, undefined, 'terminal', 7]) {
      expect(decideRaw(input), String(input)).toEqual({
        policy: 'require_approval',
        reasonCode: 'invalid_payload',
        reason: 'invalid payload: the decision input is not an object',
      });
    }
  });
  it('RN an unknown action type is named', () => {
    expect(lsWith({ actionType: 'format_disk' })).toEqual({
      policy: 'require_approval',
      reasonCode: 'invalid_payload',
      reason: 'invalid payload: unknown action type format_disk',
    });
  });
  it('RN a role below the type minimum is denied, naming role, minimum and type', () => {
    const d = decideRaw({ ...inputFor('git_push', { remote: 'origin', branch: 'x' }), role: 'developer' });
    expect(d).toEqual({
      policy: 'deny',
      reasonCode: 'iam_role_below_minimum',
      reason: 'iam: role developer is below the minimum maintainer for git_push',
    });
  });
  it('RN a terminal payload without a command string is an invalid payload', () => {
    const reason = 'invalid payload: terminal needs a non-empty string "command"';
    for (const payload of [null, 'ls', {}, { command: 5 }, { command: '' }, { command: ' \t ' }]) {
      expect(lsWith({ payload }), JSON.stringify(payload)).toEqual({
        policy: 'require_approval',
        reasonCode: 'invalid_payload',
        reason,
      });
    }
  });
  it('RN a cwd that is not a string is an invalid payload; a missing cwd is the root', () => {
    for (const cwd of [5, null, ['/x']]) {
      expect(lsWith({ payload: { command: 'ls', cwd } }).reason, JSON.stringify(cwd)).toBe(
        'invalid payload: terminal "cwd" must be a string',
      );
    }
    expect(lsWith({ payload: { command: 'ls' } })).toMatchObject({
      policy: 'auto_approve',
      reason: 'permissions.json: allow Terminal(ls)',
    });
  });
  it('RN a scope root that is not a string is no scope root', () => {
    for (const scopeRoot of [5, null, undefined]) {
      expect(lsWith({ scopeRoot }).reason, String(scopeRoot)).toBe(
        'ceiling: path scope: (no scope root) is outside the project folder (RN-075)',
      );
    }
  });
  it('RN a malformed permissions.json grants nothing: its allow entries do not count', () => {
    for (const permissions of [
      null,
      'Terminal(ls)',
      { allow: 'Terminal(ls)', deny: [], ask: [] },
      { allow: ['Terminal(ls)', 3], deny: [], ask: [] },
      { allow: ['Terminal(ls)'], deny: [] },
      { allow: ['Terminal(ls)'], ask: [] },
      { allow: ['Terminal(ls)'], deny: [], ask: 'x' },
    ]) {
      expect(lsWith({ permissions }), JSON.stringify(permissions)).toMatchObject({
        policy: 'require_approval',
        reasonCode: 'default_require_approval',
        reason: 'no rule: approval required by default',
      });
    }
    expect(lsWith({ permissions: LS }).policy).toBe('auto_approve');
  });
  it('RN a malformed agent_autonomy is no autonomy', () => {
    for (const autonomy of [
      'auto_approve',
      7,
      { mode: 'auto_approve' },
      { mode: 'yes', origin: 'curinga' },
      { mode: 'deny', origin: 'elsewhere' },
    ]) {
      expect(lsWith({ autonomy, permissions: perms() }), JSON.stringify(autonomy)).toMatchObject({
        policy: 'require_approval',
        reason: 'no rule: approval required by default',
      });
    }
    expect(lsWith({ autonomy: { mode: 'deny', origin: 'especifica' } }).reason).toBe('agent_autonomy: deny');
    expect(lsWith({ autonomy: { mode: 'deny', origin: 'curinga' } }).reason).toBe('agent_autonomy: deny');
  });
  it('RN a typed Label() deny or ask names its entry', () => {
    const typed = (permissions: unknown) =>
      decideRaw({ ...inputFor('git_commit', { message: 'm' }), permissions }).reason;
    expect(typed({ allow: [], deny: ['GitCommit()'], ask: [] })).toBe('permissions.json: deny GitCommit()');
    expect(typed({ allow: ['GitCommit()'], deny: [], ask: ['GitCommit()'] })).toBe('permissions.json: ask GitCommit()');
  });
  it('RN an ask seen past global options names the ask pattern', () => {
    const permissions = perms({ allow: ['Terminal(git)'], ask: ['Terminal(git commit)'] });
    expect(lsWith({ payload: { command: 'git -C . commit -m x', cwd: ROOT }, permissions }).reason).toBe(
      'permissions.json: ask Terminal(git commit)',
    );
  });
});

describe('fragment verdicts name the rule that judged them', () => {
  it('RN each fragment says whether allow, ask or a built-in deny judged it', () => {
    const permissions = perms({ allow: ['Terminal(ls)'], ask: ['Terminal(git commit)'] });
    expect(lsWith({ payload: { command: 'ls ; git commit -m x', cwd: ROOT }, permissions }).fragments).toEqual([
      { text: 'ls', verdict: 'allow', pattern: 'Terminal(ls)', source: 'allow' },
      { text: 'git commit -m x', verdict: 'ask', pattern: 'Terminal(git commit)', source: 'ask' },
    ]);
    expect(lsWith({ payload: { command: 'ls ; rm -rf /', cwd: ROOT } }).fragments).toEqual([
      { text: 'ls', verdict: 'none' },
      { text: 'rm -rf /', verdict: 'deny', pattern: 'Terminal(rm -rf /)', source: 'builtin' },
    ]);
  });
  it('RN an ambiguous abbreviation of a denied command keeps the reason of a decision that already asks', () => {
    const permissions = perms({ deny: ['Terminal(npm exec)'] });
    expect(lsWith({ payload: { command: 'npm ex cowsay', cwd: ROOT }, permissions }).reason).toBe(
      'no rule: approval required by default',
    );
  });
});
