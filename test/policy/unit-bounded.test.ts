// Issue 9 A.7: decide() is bounded. Over MAX_COMMAND_LENGTH nothing is parsed (require_approval,
// command_too_long, not even a deny); below it the crafted shapes that used to take seconds
// decide correctly. Timing lives in bench/policy.bench.ts, never here.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide, explainFragments, MAX_COMMAND_LENGTH, patternsForAction } from '../../src/policy/index.ts';
import { allowing, AUTO_MODE, term } from './unit-fixtures.ts';

describe('issue 9 A.7 the command cap', () => {
  it('is 16 384 characters', () => {
    expect(MAX_COMMAND_LENGTH).toBe(16_384);
  });
  it('over the cap: require_approval command_too_long, a named reason, nothing parsed', () => {
    const over = 'rm -rf / ' + 'x'.repeat(MAX_COMMAND_LENGTH);
    const d = term(over, { autonomy: AUTO_MODE });
    expect(d).toMatchObject({ policy: 'require_approval', reasonCode: 'command_too_long' });
    expect(d.reason).toContain(String(MAX_COMMAND_LENGTH));
    expect(d.fragments).toBeUndefined();
    expect(explainFragments(over).fragments).toEqual([]);
    expect(patternsForAction('terminal', { command: over })).toMatchObject({
      kind: 'refused',
      reason: 'unsafe_command',
    });
  });
  it('exactly at the cap it is parsed', () => {
    const at = 'ls ' + 'a'.repeat(MAX_COMMAND_LENGTH - 3);
    expect(at.length).toBe(MAX_COMMAND_LENGTH);
    expect(term(at, allowing('Terminal(ls)')).policy).toBe('auto_approve');
    expect(term(at + 'a', allowing('Terminal(ls)')).reasonCode).toBe('command_too_long');
  });
  it('the crafted shapes of the issue decide correctly just below the cap', () => {
    const ls = allowing('Terminal(ls)', 'Terminal(echo)');
    expect(term('A=1 '.repeat(4_000) + 'ls', ls).reasonCode).toBe('default_require_approval');
    expect(term('A=1 '.repeat(4_000) + 'ls', allowing('Terminal(A=1)')).policy).toBe('auto_approve');
    expect(term('echo ' + 'word '.repeat(3_200), ls).policy).toBe('auto_approve');
    expect(term('echo "' + '$('.repeat(8_000) + '"', ls).reasonCode).toBe('unsafe_shell_construct');
    expect(term('echo a' + '#'.repeat(16_000), ls).policy).toBe('auto_approve');
    expect(term('#'.repeat(16_000), ls).reasonCode).toBe('invalid_payload');
    expect(term('echo ' + 'a# '.repeat(5_000), ls).policy).toBe('auto_approve');
    expect(term('cd a && '.repeat(2_000) + 'ls', ls).policy).toBe('auto_approve');
    expect(term('cd a; '.repeat(2_500) + 'ls', ls).policy).toBe('require_approval');
    expect(term('echo x > ' + '.?/'.repeat(5_000) + 'y', ls).policy).toBe('require_approval');
    expect(term('cat ' + '['.repeat(16_000), allowing('Terminal(cat)')).policy).toBe('auto_approve');
  });
  it('property: any string up to the cap gets a decision, never a throw, and over it command_too_long', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.nat({ max: 3 }), (text, pad) => {
        const command = pad === 3 ? text + ' x'.repeat(MAX_COMMAND_LENGTH / 2) : text;
        const d = decide({
          actionType: 'terminal',
          payload: { command, cwd: '/p/app' },
          role: 'developer',
          autonomy: null,
          permissions: { allow: ['Terminal(ls)'], deny: [], ask: [] },
          scopeRoot: '/p/app',
          containerRunning: false,
        });
        expect(typeof d.reason).toBe('string');
        if (command.length > MAX_COMMAND_LENGTH) expect(d.reasonCode).toBe('command_too_long');
        else expect(d.reasonCode).not.toBe('command_too_long');
      }),
      { numRuns: 300 },
    );
  });
});
