// What activating execution pre-seeds into allow (spec "What is pre-seeded when execution is
// activated"; mutation testing of dev-terminal-patterns.ts). The families are read from the
// specification's own bullets, and each seeded pattern is shown auto-approving its command.
import { describe, expect, it } from 'vitest';
import { DEV_TERMINAL_ALLOW_PATTERNS } from '../../src/policy/index.ts';
import { DEV_ALLOW } from './adversarial-harness.ts';
import { term } from './unit-fixtures.ts';
import { SPEC_TEXT as SPEC } from './spec-text.ts';

/** The code spans of the bullet that starts with `lead`; `git branch -a/-r` is two commands. */
function bullet(lead: string): string[] {
  const line = SPEC.split('\n').find((l) => l.startsWith(`- ${lead}`));
  if (line === undefined) throw new Error(`no bullet "${lead}" in the specification`);
  return [...line.matchAll(/`([^`]+)`/g)].flatMap(([, span]) => {
    const words = span!.split(' ');
    const last = words.pop()!;
    return last.includes('/') ? last.split('/').map((flag) => [...words, flag].join(' ')) : [span!];
  });
}

const FAMILIES = {
  worktree: bullet('Reading its own worktree:'),
  history: bullet('Reading git history/remotes/config:'),
  build: bullet('Build and test:'),
};

describe('the pre-seeded allow patterns', () => {
  it('the specification names 12 worktree reads, 13 history reads and 8 build and test commands', () => {
    expect([FAMILIES.worktree.length, FAMILIES.history.length, FAMILIES.build.length]).toEqual([12, 13, 8]);
  });

  it.each(Object.entries(FAMILIES))(
    'every %s command of the specification is seeded as Terminal(...)',
    (_family, commands) => {
      for (const command of commands) expect(DEV_TERMINAL_ALLOW_PATTERNS).toContain(`Terminal(${command})`);
    },
  );

  it('are the DEV preset of the semantics, in its order, and cannot be changed by a caller', () => {
    expect(DEV_TERMINAL_ALLOW_PATTERNS).toEqual(DEV_ALLOW);
    expect(Object.isFrozen(DEV_TERMINAL_ALLOW_PATTERNS)).toBe(true);
  });

  const SEEDED = { permissions: { allow: [...DEV_TERMINAL_ALLOW_PATTERNS] } };
  it.each([...DEV_TERMINAL_ALLOW_PATTERNS])('%s auto-approves its own command once seeded', (pattern) => {
    const command = pattern.slice('Terminal('.length, -1);
    expect(term(command, SEEDED)).toMatchObject({
      policy: 'auto_approve',
      reasonCode: 'permissions_allow',
      reason: `permissions.json: allow ${pattern}`,
    });
  });

  it.each(['git branch -D x', 'git remote add o u', 'git worktree add ../x', 'git config user.name x', 'rm x'])(
    'family 2 is anchored on a read-only flag: %s is not seeded',
    (command) => {
      expect(term(command, SEEDED).policy).toBe('require_approval');
    },
  );
});
