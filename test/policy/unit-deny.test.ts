// Deny matching details (kills the mutants Stryker found surviving in deny.ts): patterns with
// redirections, which pattern is named, only truncated readings try every position, and a deny
// found in a substitution belongs to no fragment.
import { describe, expect, it } from 'vitest';
import { allowing, perms, term } from './unit-fixtures.ts';

describe('deny matching', () => {
  it('RN a deny pattern with a redirection denies exactly that fragment', () => {
    const o = { permissions: perms({ allow: ['Terminal(cat)', 'Terminal(ls)'], deny: ['Terminal(cat > .env)'] }) };
    expect(term('cat > .env', o)).toMatchObject({
      policy: 'deny',
      reasonCode: 'permissions_deny',
      reason: 'permissions.json: deny Terminal(cat > .env)',
    });
    expect(term('ls', o).policy).toBe('auto_approve');
  });
  it('RN the first pattern of the first reading is the one named', () => {
    const o = { permissions: perms({ deny: ['Terminal(sudo)', 'Terminal(rm)'] }) };
    expect(term('sudo rm x', o).reason).toBe('permissions.json: deny Terminal(sudo)');
    const p = { permissions: perms({ deny: ['Terminal(rm)', 'Terminal(sudo)'] }) };
    expect(term('sudo rm x', p).reason).toBe('permissions.json: deny Terminal(sudo)');
  });
  it('RN a deny is matched from the start of a reading, not anywhere in it', () => {
    expect(term('echo rm -rf /', allowing('Terminal(echo)')).policy).not.toBe('deny');
    expect(
      term('echo rm -rf /x', { permissions: perms({ allow: ['Terminal(echo)'], deny: ['Terminal(rm)'] }) }).policy,
    ).not.toBe('deny');
    expect(term('grep rm -rf /', allowing('Terminal(grep)')).policy).not.toBe('deny');
  });
  it('RN a built-in deny found in a substitution names the pattern and marks no fragment', () => {
    const d = term('echo "$(rm -rf /)" ; ls', allowing('Terminal(ls)', 'Terminal(echo)'));
    expect(d).toMatchObject({ policy: 'deny', reasonCode: 'builtin_deny', reason: 'built-in deny Terminal(rm -rf /)' });
    expect(d.fragments?.map((f) => f.verdict)).toEqual(['none', 'none']);
  });
  it('RN a deny in a fragment marks that fragment only', () => {
    const d = term('ls ; curl x ; ls', { permissions: perms({ allow: ['Terminal(ls)'], deny: ['Terminal(curl:*)'] }) });
    expect(d.fragments?.map((f) => f.verdict)).toEqual(['none', 'deny', 'none']);
    expect(d.fragments?.[1]).toMatchObject({ pattern: 'Terminal(curl:*)', source: 'deny' });
  });
  const CLI = perms({
    allow: ['Terminal(echo)', 'Terminal(ls)', 'Terminal(npm)'],
    deny: ['Terminal(npm exec)', 'Terminal(git reset --hard)'],
  });
  it('RN an ambiguous abbreviation asks and names the deny pattern it may be', () => {
    const reason =
      'permissions.json: the command may be one that deny Terminal(npm exec) forbids (an abbreviation with several readings); approval required';
    expect(term('npm ex cowsay', { permissions: CLI })).toMatchObject({
      policy: 'require_approval',
      reasonCode: 'permissions_deny_uncertain',
      reason,
    });
    expect(term('ls ; npm e x ; npm ex y', { permissions: CLI }).reason).toBe(reason);
  });
  it('RN a deny in a later substitution is found past a harmless one', () => {
    for (const command of ['echo "$(ls)" "$(git reset --hard)"', 'echo "$(ls) $(echo x) $(git reset --hard)"']) {
      const d = term(command, { permissions: CLI });
      expect(d, command).toMatchObject({
        policy: 'deny',
        reasonCode: 'permissions_deny',
        reason: 'permissions.json: deny Terminal(git reset --hard)',
      });
      expect(d.fragments?.every((f) => f.verdict === 'none')).toBe(true);
    }
  });
  it('RN a certain deny in a substitution wins over an ambiguous abbreviation in a fragment', () => {
    const d = term('npm ex cowsay ; echo "$(git reset --hard)"', { permissions: CLI });
    expect(d).toMatchObject({
      policy: 'deny',
      reasonCode: 'permissions_deny',
      reason: 'permissions.json: deny Terminal(git reset --hard)',
    });
    expect(d.fragments?.map((f) => f.verdict)).toEqual(['none', 'none']);
  });
});
