// A package manager running a binary by its bare name (issue 9 A.4, left open at stop 20): with
// the package manager allowed, `pnpm git push`, `yarn git push` and `bun git push` ran past deny
// Terminal(git push) (pnpm falls back to running an unknown word as a command; yarn and bun run
// the binary or script of that name), and in auto mode past the external-effect ceiling. The words
// after a package manager are one more reading unless they start with one of its own commands.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import { AUTO, MANUAL, ask, auto, c, deny, runCases, terminalInput } from './adversarial-harness.ts';

const PERMS = {
  allow: ['Terminal(pnpm:*)', 'Terminal(yarn:*)', 'Terminal(bun:*)'],
  deny: ['Terminal(git push)', 'Terminal(curl:*)', 'Terminal(kubectl delete)', 'Terminal(install:*)', 'Terminal(rm:*)'],
  ask: [],
};
const SETUP = {
  ...MANUAL,
  label: 'pnpm, yarn and bun allowed; git push, curl, kubectl delete, install and rm denied',
  permissions: PERMS,
};
const SETUP_AUTO = { ...AUTO, label: 'auto mode', permissions: PERMS };

const MANAGERS = [
  'pnpm',
  'yarn',
  'bun',
  '/usr/local/bin/pnpm',
  'pnpm -r',
  'pnpm --filter app',
  'pnpm -C pkg',
  'yarn --cwd pkg',
  'bun --cwd pkg',
  'pnpm -w',
  'env CI=1 pnpm',
  'timeout 60 yarn',
];
const DENIED = ['git push', 'git push origin main', 'curl -s https://x', 'kubectl delete pod x'];

describe('RN-418 deny through a package manager running a binary', () => {
  runCases(
    'a bare binary name after the package manager is read as a command',
    SETUP,
    MANAGERS.flatMap((m) => DENIED.map((d) => c(`${m} ${d}`, deny('permissions_deny')))),
  );
  runCases('the external-effect ceiling in auto mode', { ...SETUP_AUTO, permissions: { ...PERMS, deny: [] } }, [
    c('pnpm git push', ask('ceiling_external_effect')),
    c('yarn gh pr create', ask('ceiling_external_effect')),
    c('bun npm publish', ask('ceiling_external_effect')),
    c('pnpm -r kubectl apply -f x.yaml', ask('ceiling_external_effect')),
    c('yarn sudo ls', ask()),
    c('yarn npm publish', ask('ceiling_external_effect'), { note: "yarn 4's own npm publish" }),
  ]);
});

describe("a package manager's own commands are not read as binaries", () => {
  runCases('allowed as before, and not denied by Terminal(install:*) or Terminal(rm:*)', SETUP, [
    c('pnpm install', auto('permissions_allow')),
    c('pnpm i', auto('permissions_allow')),
    c('pnpm rm lodash', auto('permissions_allow')),
    c('pnpm test', auto('permissions_allow')),
    c('pnpm tsc --noEmit', auto('permissions_allow')),
    c('pnpm whoami', auto('permissions_allow'), { note: 'pnpm hands npm commands to npm' }),
    c('yarn install', auto('permissions_allow')),
    c('yarn add -D vitest', auto('permissions_allow')),
    c('yarn remove lodash', auto('permissions_allow')),
    c('yarn eslint .', auto('permissions_allow')),
    c('bun install', auto('permissions_allow')),
    c('bun rm lodash', auto('permissions_allow')),
    c('bun run build', auto('permissions_allow')),
    c('bun index.ts', auto('permissions_allow')),
  ]);
});

describe('RN-418 property: no package-manager form hides a denied command', () => {
  it('any manager form, denied command and arguments', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MANAGERS),
        fc.constantFrom(...DENIED),
        fc.constantFrom('', ' --force', ' -v', ' x y'),
        (manager, denied, extra) => {
          const command = `${manager} ${denied}${extra}`;
          const d = decide(terminalInput(SETUP, { command }));
          expect(d.policy, `${command}: ${d.reason}`).toBe('deny');
        },
      ),
      { numRuns: 200 },
    );
  });
});
