// The protected paths (issue 9 A.1-A.3; mutation testing of protected-paths.ts): permissions.json,
// .git/config and .git/hooks. Each is one the runner sandbox mounts read-only, and a write to it,
// or to a glob that could name it, asks.
import { describe, expect, it } from 'vitest';
import { PROTECTED_NAMES, PROTECTED_PATHS } from '../../src/policy/index.ts';
import { AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';

describe('PROTECTED_PATHS and PROTECTED_NAMES', () => {
  it('are the three protected paths and the four names they are made of', () => {
    expect(PROTECTED_PATHS).toEqual(['permissions.json', '.git/config', '.git/hooks']);
    expect([...PROTECTED_NAMES].sort()).toEqual(['.git', 'config', 'hooks', 'permissions.json']);
    expect(Object.isFrozen(PROTECTED_PATHS)).toBe(true);
    expect(Object.isFrozen(PROTECTED_NAMES)).toBe(true);
  });
});

// Auto mode lifts scope and compound, not protected writes: each row is decided by the names alone.
const P = ask('protected_file_write');
runCases('issue 9 A.1 a write to a protected path, or a glob that could match one, asks', AUTO, [
  c('echo x > permissions.json', P),
  c('echo x > .git/config', P),
  c('echo x > .git/hooks/pre-commit', P),
  c('echo x > permissions.jso?', P),
  c('echo x > permission*.json', P),
  c('echo x > .gi?/config', P),
  c('echo x > .git/conf*', P),
  c('echo x > .git/hook?/pre-push', P),
  c('echo x > .g*/hooks/post-checkout', P),
  c('echo x > [.]git/config', P),
  c('echo x > notes.txt', auto()),
  c('echo x > config.txt', auto()),
  c('echo x > src/hooks.ts', auto()),
  c('echo x > docs/permissions.md', auto()),
]);
