// RN-075 path scope, found while mutation-testing global-installs.ts (issue 9): with the tool
// allowed (`Terminal(pnpm:*)`, `Terminal(cargo:*)`...), these wrote outside the project and were
// auto-approved: pnpm's aliases of its global writers (`pnpm rm -g`, `pnpm up -g`, `pnpm ln -g`),
// `uv pip install --system`, `uv tool install`, and the installers whose `install` writes into the
// user's folders by default (`cargo install` into ~/.cargo/bin, `go install` into ~/go/bin,
// `gem install` into the gem home). They count as outside the root now; the local forms stay allowed.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const PERMS = {
  allow: ['Terminal(pnpm:*)', 'Terminal(uv:*)', 'Terminal(cargo:*)', 'Terminal(go:*)', 'Terminal(gem:*)'],
  deny: [],
  ask: [],
};
const SETUP = { ...MANUAL, label: 'package managers and toolchains allowed', permissions: PERMS };
const SCOPE = ask('ceiling_path_scope');
const ALLOWED = auto('permissions_allow');

runCases('RN-075 global writes through pnpm aliases, uv, cargo, go and gem are outside the project', SETUP, [
  c('pnpm rm -g typescript', SCOPE),
  c('pnpm un -g typescript', SCOPE),
  c('pnpm uninstall --global typescript', SCOPE),
  c('pnpm up -g', SCOPE),
  c('pnpm upgrade --global typescript', SCOPE),
  c('pnpm ln -g', SCOPE),
  c('pnpm -g rm x', SCOPE),
  c('uv pip install --system requests', SCOPE),
  c('uv pip install --system=true requests', SCOPE),
  c('uv tool install ruff', SCOPE),
  c('cargo install ripgrep', SCOPE),
  c('cargo install --path .', SCOPE, { note: 'the binary still goes to ~/.cargo/bin' }),
  c('cargo +nightly install x', SCOPE),
  c('cargo -q install x', SCOPE),
  c('go install example.com/cmd/x@latest', SCOPE),
  c('go install ./cmd/tool', SCOPE),
  c('gem install rails', SCOPE),
  c('gem install --user-install rails', SCOPE),
]);

runCases('RN-075 the same tools inside the project stay allowed', SETUP, [
  c('pnpm rm left-pad', ALLOWED),
  c('pnpm up', ALLOWED),
  c('pnpm ln ../shared', SCOPE, { note: 'the path itself is outside' }),
  c('pnpm list -g', ALLOWED, { note: 'listing writes nothing' }),
  c('uv pip install -r requirements.txt', ALLOWED),
  c('uv tool list', ALLOWED),
  c('uv run pytest', ALLOWED),
  c('cargo build --release', ALLOWED),
  c('cargo test', ALLOWED),
  c('go build ./...', ALLOWED),
  c('go test ./...', ALLOWED),
  c('gem list', ALLOWED),
]);

describe('RN-075 property: a home installer told to install is never auto-approved, whatever follows', () => {
  it('cargo / go / gem install with any arguments', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('cargo', 'go', 'gem'),
        fc.array(fc.constantFrom('x', '--locked', '-q', 'example.com/x@v1', '--force', './cmd'), { maxLength: 4 }),
        (tool, rest) => {
          const command = [tool, 'install', ...rest].join(' ');
          expect(decide(terminalInput(SETUP, { command })).policy, command).not.toBe('auto_approve');
        },
      ),
    );
  });
});
