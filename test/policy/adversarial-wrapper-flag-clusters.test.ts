// A wrapper's command or shell-mode flag inside a cluster of short flags (issue 9 A.4, left open at
// stop 20): `entr -rs 'git push'` (-r -s: shell mode), `nix develop -ic git push` (-i -c: the
// command follows) and `pnpm exec -rc 'git push'` ran past deny Terminal(git push), because only
// the flag spelled alone was read. A cluster holding the flag counts as the flag.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, auto, c, deny, runCases, terminalInput } from './adversarial-harness.ts';

const PERMS = {
  allow: ['entr', 'nix', 'pnpm', 'pnpx', 'ls'].map((v) => `Terminal(${v}:*)`),
  deny: ['Terminal(git push)', 'Terminal(curl:*)'],
  ask: [],
};
const SETUP = { ...MANUAL, label: 'entr, nix, pnpm allowed; git push and curl denied', permissions: PERMS };

/** Forms with CMD where the command goes; each flag is in a cluster. */
const FORMS = [
  "entr -rs 'CMD'",
  "entr -sr 'CMD'",
  "entr -drs 'CMD'",
  "entr -nzs 'CMD'",
  "entr -ps 'CMD'",
  'nix develop -ic CMD',
  'nix develop -kc CMD',
  'nix develop .#dev -ic CMD',
  'nix shell nixpkgs#git -ic CMD',
  'nix shell nixpkgs#git -kic CMD',
  "pnpm exec -rc 'CMD'",
  "pnpm dlx -sc 'CMD'",
  "pnpx -sc 'CMD'",
];
const DENIED = ['git push', 'git push origin main', 'curl -s https://x'];

describe('RN-418 deny through a command flag inside a cluster', () => {
  runCases(
    'the command after a clustered -c or -s is read',
    SETUP,
    FORMS.flatMap((f) => DENIED.map((d) => c(f.replace('CMD', d), deny('permissions_deny')))),
  );
  runCases('clusters without the flag are read as before', SETUP, [
    c("entr -rd 'ls'", auto('permissions_allow')),
    c("entr -rs 'ls -la'", auto('permissions_allow')),
    c('nix develop -ic ls', auto('permissions_allow')),
    c('nix develop -i', auto('permissions_allow')),
  ]);
});

describe('RN-418 property: no clustered form hides a denied command', () => {
  it('any form and denied command', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FORMS), fc.constantFrom(...DENIED), (form, denied) => {
        const command = form.replace('CMD', denied);
        const d = decide(terminalInput(SETUP, { command }));
        expect(d.policy, `${command}: ${d.reason}`).toBe('deny');
      }),
      { numRuns: 100 },
    );
  });
});
