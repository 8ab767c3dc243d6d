// Fail-closed paths: a tokenizer self-test failure and an internal error never auto-approve.
import { describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../src/policy/analysis.ts';
import { terminalCeiling } from '../../src/policy/ceilings.ts';
import { decide } from '../../src/policy/index.ts';
import { checkScope } from '../../src/policy/scope.ts';
import { AUTO_MODE, inputFor, ROOT } from './unit-fixtures.ts';

describe('fail closed', () => {
  it('a failed tokenizer self-test is an unsafe_shell_construct ceiling naming the self-test, in auto mode too', () => {
    const analysis = analyzeCommand('ls');
    const ceiling = terminalCeiling({
      analysis,
      cwd: ROOT,
      root: ROOT,
      scope: checkScope(analysis, ROOT, ROOT),
      verdicts: ['allow'],
      fragmentTexts: ['ls'],
      autoMode: true,
      tokenizerHealthy: false,
    });
    expect(ceiling?.code).toBe('unsafe_shell_construct');
    expect(ceiling?.detail.what).toContain('self-test');
  });
  it('an internal error yields require_approval (policy_internal_error), never auto_approve', () => {
    const hostile = {} as { allow: string[] };
    Object.defineProperty(hostile, 'allow', {
      get: () => {
        throw new Error('boom');
      },
    });
    const d = decide({
      ...inputFor('terminal', { command: 'ls', cwd: ROOT }, { autonomy: AUTO_MODE }),
      permissions: hostile as never,
    });
    expect(d.policy).toBe('require_approval');
    expect(d.reasonCode).toBe('policy_internal_error');
    expect(d.reason).toContain('boom');
  });
});
