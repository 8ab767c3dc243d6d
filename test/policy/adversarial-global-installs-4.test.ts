// RN-075 path scope, an attacker's fourth round on global installs (issue 9 A.3 in spirit): with
// the tool allowed (Terminal(<first word>:*)) these wrote into the user's or the system's folders
// and were auto-approved: npm's other spellings of global (`--global=true`, `--location global`,
// `--locat=global`) and its `install-test`; the same told by the environment
// (`npm_config_global=true`, `PIP_USER=1`, `UV_SYSTEM_PYTHON=1`); config writes that make every
// later install global (`npm config set prefix /x`, `pip config set global.user true`, `go env
// -w`); pip's abbreviated options (`--us`, `--break`) and python's option clusters (`-Im pip`);
// `uv pip install --python /usr/bin/python3`, `uv python install`, `uv self update`; options
// before the subcommand (`cargo --color always install`); -g inside clusters (`deno install
// -gAf`); installers missing from the tables (cargo-binstall, pyenv, nix, helm plugin...). The
// local forms stay allowed, and some that asked wrongly are allowed now: an in-project
// destination (`pip install -t vendor x`), reads (`conda env list`, `pip list --user`), `uv run`'s
// own words (`uv run tsc --target es2020`), `pnpm link ./packages/a`, `npm i -- -g`.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide } from '../../src/policy/index.ts';
import { MANUAL, ask, auto, c, runCases, terminalInput } from './adversarial-harness.ts';

const TOOLS =
  'npm pnpm bun deno env pip pip3 python3 pypy3 python3.13t uv cargo go gem brew dart flutter fnm pyenv rbenv ' +
  'nix-env nix cabal stack opam luarocks cpanm helm kubectl gcloud dotnet pdm rye proto pixi jupyter cursor ' +
  'windsurf code-server code-oss cargo-binstall conda composer poetry rustup nice timeout';
const PERMS = { allow: TOOLS.split(' ').map((t) => `Terminal(${t}:*)`), deny: [], ask: [] };
const SETUP = { ...MANUAL, label: 'each tool allowed', permissions: PERMS };
const SCOPE = ask('ceiling_path_scope');
const ALLOWED = auto('permissions_allow');
const asks = (commands: string[]) => commands.map((command) => c(command, SCOPE));
const allowed = (commands: string[]) => commands.map((command) => c(command, ALLOWED));

runCases('RN-075 npm spellings of global', SETUP, [
  ...asks([
    'npm i x --global=true',
    'npm i x --global=1',
    'npm i x --location global',
    'npm i --locat=global x',
    'npm i --loca user x',
    'npm update --global=true',
    'npm --global=true update',
    'pnpm add --global=true x',
    'npm it -g x',
    'npm install-test -g x',
    'npm install-ci-test --global',
  ]),
  c('npm --location global i x', ask(), { note: 'also an external effect: global read as the subcommand' }),
  ...allowed(['npm i -g=false x', 'npm i --global=false x', 'npm i --location project x', 'npm i -- -g']),
]);

runCases('RN-075 the environment tells the installer to go global', SETUP, [
  ...asks([
    'env npm_config_global=true npm i x',
    'env npm_config_location=global npm i x',
    'env NPM_CONFIG_GLOBAL=1 npm i x',
    'env CI=1 npm_config_global=true pnpm add x',
    'env npm_config_global=true nice npm i x',
    'env PIP_USER=1 pip install x',
    'env PIP_BREAK_SYSTEM_PACKAGES=1 pip install x',
    'env PIP_TARGET=/x pip install y',
    'env PIP_PREFIX=/opt pip install y',
    'env PIP_USER=yes python3 -m pip install x',
    'env UV_SYSTEM_PYTHON=1 uv pip install x',
    'env UV_BREAK_SYSTEM_PACKAGES=true uv pip install x',
  ]),
  ...allowed([
    'env npm_config_global=false npm i x',
    'env NPM_CONFIG_GLOBAL=0 npm i x',
    'env PIP_USER=0 pip install x',
    'env PIP_TARGET=vendor pip install y',
    'env npm_config_global=true npm ls',
    'env UV_SYSTEM_PYTHON=1 uv sync',
  ]),
]);

runCases('RN-075 config writes that make later installs global', SETUP, [
  ...asks([
    'npm config set global true',
    'npm config set prefix /x',
    'npm config set location=global',
    'npm config set location global',
    'npm set prefix ~/.npm-global',
    'npm config set global-dir /x',
    'pnpm config set global true',
    'pip config set global.user true',
    'pip config set install.target /x',
    'pip3 config --user set global.break-system-packages true',
    'go env -w GOBIN=/x',
    'go env -w GOPATH=/opt/go',
    // The config file itself is outside: ~/.npmrc, pnpm's global rc, pip.conf (found at stop 24).
    'npm config set global false',
    'npm config set registry https://registry.example',
    'npm config set --location=project prefix /x',
  ]),
  ...allowed([
    'npm config get prefix',
    'npm config set --location=project color false',
    'npm config list',
    'pip config list',
    'go env GOBIN',
  ]),
]);

runCases('RN-075 pip abbreviations and python option clusters', SETUP, [
  ...asks([
    'pip install --break x',
    'pip install --break-system x',
    'pip install --targ=/x y',
    'pip install --pref /x y',
    'pip install --us x',
    'python3 -Im pip install --user x',
    'python3 -Esm pip install --user x',
    'python3 -Impip install --user x',
    'python3 -m pip.__main__ install --user x',
    'pypy3 -m pip install --user x',
    'python3.13t -m pip install --user x',
    'python3 -W ignore -m pip install --user x',
    'pip -q install --user x',
    'pip uninstall --break-system-packages x',
  ]),
  ...allowed([
    'python3 manage.py -m pip install --user',
    'python3 -c pass -m pip install --user',
    'pip list --user',
    'pip freeze --user',
    'pip install --pre x',
    'python3 -Im pytest --user',
  ]),
]);

runCases('RN-075 uv: system interpreters and its own homes; uv run is the command it runs', SETUP, [
  ...asks([
    'uv pip install --python /usr/bin/python3 x',
    'uv pip install --python=/usr/bin/python3 x',
    'uv pip install -p /usr/bin/python3 x',
    'uv pip install --python python3 x',
    'uv pip install --python ~/.pyenv/shims/python x',
    'uv python install 3.12',
    'uv python uninstall 3.12',
    'uv self update',
    'uv tool update-shell',
    'uv -q pip install --system x',
    'uv run pip install --user x',
  ]),
  ...allowed([
    'uv pip install --python .venv/bin/python x',
    'uv run tsc --target es2020',
    'uv run esbuild --target=es2020',
    'uv run python -m unittest -t .',
    'uv run mytool --prefix foo',
    'uv run --with x pytest --user',
    'uv python list',
    'uv python pin 3.12',
  ]),
]);

runCases('RN-075 options before the subcommand', SETUP, [
  ...asks([
    'cargo --color always install ripgrep',
    'cargo -Z unstable-options install x',
    'cargo -C . install x',
    'cargo --frozen install x',
    'cargo -q --locked install x',
    'go -C . install x@latest',
    'go -C sub install ./cmd/x',
    'cargo -vv install x',
    'brew --verbose install jq',
    'kubectl --context prod krew install x',
    'helm --debug plugin install x',
  ]),
  ...allowed(['cargo --color always build', 'cargo -C . test install', 'go -C . build ./...', 'go -C . env GOBIN']),
]);

runCases('RN-075 -g inside an option cluster (bun, deno)', SETUP, [
  ...asks([
    'deno install -gAf jsr:x',
    'deno install -Agf npm:x',
    'deno install -fg npm:x',
    'deno i -gA npm:x',
    'deno uninstall -gq x',
    'bun add -gd x',
    'bun add -dg x',
    'bun i -gE x',
    'bun rm -gq x',
    'bun update -gf',
    'deno install --global=true npm:x',
  ]),
  ...allowed(['deno install -Af npm:x', 'bun add -dE x', 'deno install -g --root ./tools npm:x', 'bun add -d x']),
]);

runCases('RN-075 installers missing from the tables', SETUP, [
  ...asks([
    'cargo-binstall x',
    'cargo install-update -a',
    'bun upgrade',
    'deno upgrade',
    'pnpm setup',
    'pnpm self-update',
    'pnpm env use -g 20',
    'brew bundle',
    'brew services start x',
    'dart pub global activate x',
    'flutter pub global activate x',
    'fnm install 20',
    'pyenv install 3.12',
    'rbenv install 3.3.0',
    'nix-env -iA nixpkgs.hello',
    'nix-env --install hello',
    'nix profile install nixpkgs#hello',
    'cabal install',
    'stack install',
    'opam install x',
    'luarocks install x',
    'cpanm Foo',
    'helm plugin install https://x',
    'kubectl krew install x',
    'gcloud components install x',
    'dotnet workload install x',
    'dotnet new install x',
    'pdm self add x',
    'rye install x',
    'proto install node',
    'pixi global install x',
    'jupyter labextension install x',
    'cursor --install-extension x',
    'windsurf --install-extension x',
    'code-server --install-extension x',
    'code-oss --install-extension x',
  ]),
  ...allowed([
    'brew services list',
    'brew bundle check',
    'nix-env -q',
    'pyenv local 3.12',
    'pyenv versions',
    'luarocks install --tree lua_modules x',
    'cpanm -L local Foo',
    'helm plugin list',
    'gcloud components list',
    'dotnet new console',
    'pixi global list',
    'dart pub get',
    'cargo-binstall --help',
    'cabal install --installdir=bin',
  ]),
]);

runCases('RN-075 in-project destinations and reads are left to the path check', SETUP, [
  ...allowed([
    'pip install -t vendor x',
    'pip install --target=vendor x',
    'pip install --prefix .venv x',
    'pip install -tvendor x',
    'cargo install --root ./tools ripgrep',
    'gem install -i ./vendor x',
    'gem install --install-dir=vendor x',
    'deno install -g --root ./tools npm:x',
    'dotnet tool install --tool-path ./tools x',
    'conda env list',
    'conda config --show',
    'composer global show',
    'poetry self show',
    'rustup default',
    'conda install -p./env x',
    'pnpm link ./packages/a',
    'npm i -- -g',
  ]),
  ...asks([
    'pip install -t ../x y',
    'pip install -t /opt/x y',
    'pip install --target=~/lib y',
    'cargo install --root ../tools ripgrep',
    'cargo install --root /opt ripgrep',
    'gem install -i /var/gems x',
    'dotnet tool install --tool-path /opt/tools x',
    'conda install -p/opt/env x',
    'conda env create -n x',
    'conda config --set x y',
    'composer global require x',
    'poetry self add x',
    'pnpm link',
    'pnpm link --global',
  ]),
]);

describe('RN-075 property: the new spellings never auto-approve, whatever the trailing words', () => {
  it('any new global form with extra flags and packages', () => {
    const form = fc.constantFrom(
      'npm i --global=true',
      'npm i --location global',
      'env npm_config_global=true npm i',
      'env npm_config_location=global npm i',
      'PIP_USER=1 pip install',
      'pip install --us',
      'python3 -Im pip install --user',
      'uv pip install --python /usr/bin/python3',
      'cargo --color always install',
      'deno install -gAf',
      'bun add -gd',
      'pyenv install',
      'npm config set prefix /x',
    );
    const tail = fc.array(fc.constantFrom('x', 'y@1', '-q', '--force', '-v', 'vendor'), { maxLength: 3 });
    fc.assert(
      fc.property(form, tail, (head, rest) => {
        const command = [head, ...rest].join(' ');
        expect(decide(terminalInput(SETUP, { command })).policy, command).not.toBe('auto_approve');
      }),
    );
  });
});
