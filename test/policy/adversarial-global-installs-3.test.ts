// RN-075 path scope, the installers that write outside the project by default (issue 9 A.3 in
// spirit, held-out variants of m6's class): with the tool allowed, these were auto-approved and
// wrote into the user's or the system's folders: bun's and deno's -g forms and `bun link`,
// Homebrew, rustup's toolchains, components and targets, composer global, poetry self, corepack's
// shims, conda into a named or the base environment, mise/volta/asdf tool homes, gh extensions,
// VS Code extensions, `npm link` (it links the package into the global folder first), pipx and
// cargo uninstall. The local forms stay allowed.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const TOOLS = ['bun', 'deno', 'brew', 'rustup', 'composer', 'poetry', 'corepack', 'conda', 'mamba', 'mise', 'volta'];
const PERMS = {
  allow: [...TOOLS, 'asdf', 'gh', 'code', 'npm', 'pnpm', 'pipx', 'cargo', 'uv'].map((t) => `Terminal(${t}:*)`),
  deny: [],
  ask: [],
};
const SETUP = { ...MANUAL, label: 'installers allowed', permissions: PERMS };
const SCOPE = ask('ceiling_path_scope');
const ALLOWED = auto('permissions_allow');

runCases('RN-075 installers that write outside the project', SETUP, [
  c('bun add -g typescript', SCOPE),
  c('bun install --global typescript', SCOPE),
  c('bun i -g x', SCOPE),
  c('bun rm -g x', SCOPE),
  c('bun link', SCOPE, { note: 'registers this package globally' }),
  c('deno install -g -A jsr:@std/http/file-server', SCOPE),
  c('deno install --global npm:x', SCOPE),
  c('deno uninstall -g x', SCOPE),
  c('brew install jq', SCOPE),
  c('brew upgrade', SCOPE),
  c('brew tap user/repo', SCOPE),
  c('rustup toolchain install nightly', SCOPE),
  c('rustup component add clippy', SCOPE),
  c('rustup target add wasm32-unknown-unknown', SCOPE),
  c('rustup default stable', SCOPE),
  c('rustup update', SCOPE),
  c('composer global require laravel/installer', SCOPE),
  c('poetry self add poetry-plugin-export', SCOPE),
  c('corepack enable', SCOPE),
  c('conda install numpy', SCOPE),
  c('conda create -n env python=3.12', SCOPE),
  c('mamba install -n base x', SCOPE),
  c('mise use node@22', SCOPE),
  c('mise install', SCOPE),
  c('volta install node@22', SCOPE),
  c('asdf plugin add nodejs', SCOPE),
  c('gh extension install owner/gh-x', SCOPE),
  c('code --install-extension dbaeumer.vscode-eslint', SCOPE),
  c('npm link', SCOPE),
  c('npm link ../shared', SCOPE),
  c('pnpm link', SCOPE),
  c('pipx upgrade-all', SCOPE),
  c('cargo uninstall ripgrep', SCOPE),
  c('uv tool upgrade ruff', SCOPE),
]);

runCases('RN-075 the same tools inside the project stay allowed', SETUP, [
  c('bun add zod', ALLOWED),
  c('bun install', ALLOWED),
  c('bun link left-pad', ALLOWED, { note: 'links a registered package into this project' }),
  c('deno install', ALLOWED, { note: "installs the project's dependencies" }),
  c('brew list', ALLOWED),
  c('rustup toolchain list', ALLOWED),
  c('rustup show', ALLOWED),
  c('composer require monolog/monolog', ALLOWED),
  c('poetry add requests', ALLOWED),
  c('corepack use pnpm@9', ALLOWED),
  c('conda install -p ./env numpy', ALLOWED),
  c('conda list', ALLOWED),
  c('mise ls', ALLOWED),
  c('npm link left-pad', ALLOWED),
  c('gh extension list', ALLOWED),
]);

describe('RN-075 property: a home installer never auto-approves its writing subcommands', () => {
  it('any tool, writing subcommand and trailing words', () => {
    const form = fc.constantFrom(
      'brew install',
      'brew upgrade',
      'rustup toolchain install',
      'rustup component add',
      'composer global require',
      'corepack enable',
      'conda install',
      'mise install',
      'volta install',
      'bun add -g',
      'deno install -g',
    );
    fc.assert(
      fc.property(
        form,
        fc.array(fc.constantFrom('x', '-q', '--force', 'y@1', '-v'), { maxLength: 3 }),
        (head, rest) => {
          const command = [head, ...rest].join(' ');
          expect(decide(terminalInput(SETUP, { command })).policy, command).not.toBe('auto_approve');
        },
      ),
    );
  });
});
