// RN-075 path scope, the attacker's 06:04 finding: `npm i -g x`, `npm install --global x` and
// `pip install --user x` write outside the project whatever their words say, and were
// auto-approved under Terminal(npm:*) / Terminal(pip:*). They count as outside the root now.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const PERMS = {
  allow: [
    'Terminal(npm:*)',
    'Terminal(pnpm:*)',
    'Terminal(yarn:*)',
    'Terminal(pip:*)',
    'Terminal(pip3:*)',
    'Terminal(pipx:*)',
  ],
  deny: [],
  ask: [],
};
const SETUP = { ...MANUAL, label: 'package managers allowed', permissions: PERMS };
const SCOPE = ask('ceiling_path_scope');

runCases('RN-075 global and user installs are outside the project', SETUP, [
  c('npm i -g x', SCOPE),
  c('npm install --global x', SCOPE),
  c('npm -g install x', SCOPE),
  c('npm i -gD x', SCOPE),
  c('npm install --location=global x', SCOPE),
  c('npm isntall -g x', SCOPE),
  c('npm uninstall -g x', SCOPE),
  c('npm link -g', SCOPE),
  c('pnpm add -g x', SCOPE),
  c('yarn global add x', SCOPE),
  c('pip install --user x', SCOPE),
  c('pip3 install --target=/tmp/x y', SCOPE),
  c('pip install --break-system-packages x', SCOPE),
  c('pipx install x', SCOPE),
]);

runCases('RN-075 local installs and reads stay allowed', SETUP, [
  c('npm i x', auto('permissions_allow')),
  c('npm install -D x', auto('permissions_allow')),
  c('npm ls -g', auto('permissions_allow'), { note: 'listing global packages writes nothing' }),
  c('npm run build', auto('permissions_allow')),
  c('pnpm add x', auto('permissions_allow')),
  c('yarn add x', auto('permissions_allow')),
  c('pip install -r requirements.txt', auto('permissions_allow')),
]);

describe('RN-075 property: an install with a global flag anywhere is never auto-approved', () => {
  it('npm/pnpm install with -g/--global among other flags', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('npm i', 'npm install', 'npm add', 'pnpm add', 'pnpm install'),
        fc.array(fc.constantFrom('-D', '--save-exact', 'left-pad', 'x@1'), { maxLength: 3 }),
        fc.constantFrom('-g', '--global', '--location=global'),
        fc.nat(),
        (head, rest, flag, at) => {
          const words: string[] = [...rest];
          words.splice(at % (words.length + 1), 0, flag);
          const command = `${head} ${words.join(' ')}`;
          expect(decide(terminalInput(SETUP, { command })).policy, command).not.toBe('auto_approve');
        },
      ),
      { numRuns: 200 },
    );
  });
});
