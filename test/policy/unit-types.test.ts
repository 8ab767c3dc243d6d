// The closed sets of types.ts (mutation testing, issue 9): every reason code renders a sentence
// (RN-567), the roles are ordered developer < maintainer < owner, and the action types are the
// specification's (checked in unit-labels.test.ts against its table).
import { describe, expect, it } from 'vitest';
import { REASON_CODES, renderReason, ROLES } from '../../src/policy/index.ts';
import { term, typed } from './unit-fixtures.ts';

describe('RN-567 REASON_CODES', () => {
  it.each([...REASON_CODES])('%s renders a sentence of its own', (code) => {
    const sentence = renderReason(code);
    expect(typeof sentence).toBe('string');
    expect(sentence.length).toBeGreaterThan(10);
  });

  it('are distinct, and no two render the same sentence', () => {
    expect(new Set(REASON_CODES).size).toBe(REASON_CODES.length);
    expect(new Set(REASON_CODES.map((code) => renderReason(code))).size).toBe(REASON_CODES.length);
  });

  it('hold the codes decide() answers with', () => {
    const decisions = [
      typed('spend', {}, { role: 'developer' }),
      typed('git_commit'),
      term('rm -rf /'),
      term('mytool', { containerRunning: true }),
      typed('git_push', {}, { permissions: { allow: ['GitPush()'] } }),
      term('x'.repeat(20_000)),
      typed('terminal', {}),
    ];
    for (const d of decisions) expect(REASON_CODES).toContain(d.reasonCode);
  });
});

describe('ROLES', () => {
  it('developer < maintainer < owner (RN-005)', () => {
    expect(ROLES).toEqual(['developer', 'maintainer', 'owner']);
  });
});
