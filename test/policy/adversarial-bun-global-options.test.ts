// Deny rules and ceilings through bun's global options (issue 9 A.4, found by m2): `bun x CMD`
// runs CMD like `npx CMD`, and bun's own options may come first. `bun --cwd x x git push` was
// read as bun alone, so with `Terminal(bun:*)` allowed it was auto-approved past deny
// `Terminal(git push)`, and in auto mode past the external-effect ceiling. bun's global option
// table (cli-options.ts) now gives the readings without them, as npm's, pnpm's and yarn's do.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide } from '../../src/policy/index.ts';
import { AUTO, MANUAL, ask, auto, c, deny, runCases, terminalInput } from './adversarial-harness.ts';

const PERMS = { allow: ['Terminal(bun:*)'], deny: ['Terminal(git push)', 'Terminal(rm:*)'], ask: [] };
const SETUP = { ...MANUAL, label: 'bun allowed, git push and rm denied', permissions: PERMS };
const AUTO_BUN = { ...AUTO, label: 'auto mode', permissions: { allow: ['*'], deny: [], ask: [] } };
const DENIED = deny('permissions_deny');

runCases('RN-418 deny through bun global options before x', SETUP, [
  c('bun --cwd x x git push', DENIED),
  c('bun --cwd=x x git push', DENIED),
  c('bun --silent x git push', DENIED),
  c('bun -b x git push', DENIED),
  c('bun --bun x git push origin main', DENIED),
  c('bun --cwd x --bun x git push', DENIED),
  c('bun --env-file .env x git push', DENIED),
  c('bun -c bunfig.toml x git push', DENIED),
  c('bun --smol --cwd sub x rm -rf src', DENIED),
  c('bun --verbose x rm -rf src', DENIED),
  c('bun x git push', DENIED, { note: 'the form without options, denied before too' }),
]);

runCases('RN-418 auto mode: what bun x runs is judged by its ceilings', AUTO_BUN, [
  c('bun --cwd x x git push', ask('ceiling_external_effect')),
  c('bun --silent x git push --force', ask()),
]);

runCases('RN-418 bun commands that run nothing denied stay allowed', SETUP, [
  c('bun --cwd x run test', auto('permissions_allow')),
  c('bun --cwd x x vitest', auto('permissions_allow')),
  c('bun run build', auto('permissions_allow')),
  c('bun --silent test', auto('permissions_allow')),
]);

describe('RN-418 property: bun global options never hide a denied command', () => {
  it('any run of bun global options before x git push is denied', () => {
    const option = fc.constantFrom('--cwd x', '--cwd=x', '--silent', '-b', '--bun', '--smol', '--env-file .env', '-i');
    fc.assert(
      fc.property(fc.array(option, { maxLength: 4 }), (options) => {
        const command = ['bun', ...options, 'x', 'git', 'push'].join(' ');
        expect(decide(terminalInput(SETUP, { command })).policy, command).toBe('deny');
      }),
    );
  });
});
