// The word that sends an install outside the project (mutation testing of global-installs.ts,
// issue 9; decisions in adversarial-global-installs*.test.ts). Exact return values: the path
// scope names this word in its reason ("path scope: npm -g is outside the project folder").
import { describe, expect, it } from 'vitest';
import { globalInstall } from '../../src/policy/global-installs.ts';

describe('globalInstall', () => {
  it.each([
    // npm: a global flag with a command that writes, in any of npm's spellings.
    [['npm', 'i', '-g', 'x'], 'npm -g'],
    [['npm', 'install', '--global', 'x'], 'npm --global'],
    [['npm', '-g', 'install', 'x'], 'npm -g'],
    [['npm', 'i', '-gD', 'x'], 'npm -gD'],
    [['npm', 'i', '-Dg', 'x'], 'npm -Dg'],
    [['npm', 'install', '--location=global', 'x'], 'npm --location=global'],
    [['npm', 'install', '--location=user', 'x'], 'npm --location=user'],
    [['npm', 'add', '-g', 'x'], 'npm -g'],
    [['npm', 'isntall', '-g', 'x'], 'npm -g'],
    [['npm', 'rm', '-g', 'x'], 'npm -g'],
    [['npm', 'uninstall', '-g', 'x'], 'npm -g'],
    [['npm', 'update', '-g'], 'npm -g'],
    [['npm', 'link', '-g'], 'npm -g'],
    [['npm', 'ci', '-g'], 'npm -g'],
    [['npm', 'rebuild', '-g'], 'npm -g'],
    [['npm', 'dedupe', '-g'], 'npm -g'],
    [['npm', 'prune', '-g'], 'npm -g'],
    [['/usr/bin/npm', 'i', '-g', 'x'], '/usr/bin/npm -g'],
    // An abbreviation with several readings is a writer when one of them is (dedupe, not deprecate).
    [['npm', 'de', '-g'], 'npm -g'],
    // pnpm: its own aliases.
    [['pnpm', 'add', '-g', 'x'], 'pnpm -g'],
    [['pnpm', 'i', '-g'], 'pnpm -g'],
    [['pnpm', 'install', '-g'], 'pnpm -g'],
    [['pnpm', 'remove', '-g', 'x'], 'pnpm -g'],
    [['pnpm', 'rm', '-g', 'x'], 'pnpm -g'],
    [['pnpm', 'un', '-g', 'x'], 'pnpm -g'],
    [['pnpm', 'uninstall', '-g', 'x'], 'pnpm -g'],
    [['pnpm', 'up', '-g'], 'pnpm -g'],
    [['pnpm', 'upgrade', '-g'], 'pnpm -g'],
    [['pnpm', 'update', '--global'], 'pnpm --global'],
    [['pnpm', 'ln', '-g'], 'pnpm -g'],
    [['pnpm', 'link', '-g'], 'pnpm -g'],
    // yarn, pip, uv, pipx.
    [['yarn', 'global', 'add', 'x'], 'yarn global'],
    [['pip', 'install', '--user', 'x'], 'pip --user'],
    [['pip', 'install', '--user=1', 'x'], 'pip --user=1'],
    [['pip3', 'install', '--target=/tmp/x', 'y'], 'pip3 --target=/tmp/x'],
    [['pip3.11', 'install', '-t', 'd', 'x'], 'pip3.11 -t'],
    [['pip', 'install', '--prefix', '/opt', 'x'], 'pip --prefix'],
    [['pip', 'install', '--root', '/', 'x'], 'pip --root'],
    [['pip', 'install', '--break-system-packages', 'x'], 'pip --break-system-packages'],
    [['uv', 'pip', 'install', '--system', 'x'], 'uv --system'],
    [['uv', 'pip', 'install', '--target', 'd', 'x'], 'uv --target'],
    [['uv', 'tool', 'install', 'ruff'], 'uv tool install'],
    [['pipx', 'install', 'x'], 'pipx install'],
    // Installers that write into the user's folders by default.
    [['cargo', 'install', 'ripgrep'], 'cargo install'],
    [['cargo', '+nightly', '-q', 'install', 'x'], 'cargo install'],
    [['go', 'install', './cmd/x'], 'go install'],
    [['gem', 'install', 'rails'], 'gem install'],
    [['cargo', 'uninstall', 'x'], 'cargo uninstall'],
    [['rustup', 'toolchain', 'install', 'nightly'], 'rustup toolchain install'],
    [['rustup', '-q', 'component', 'add', 'clippy'], 'rustup component add'],
    [['rustup', 'update'], 'rustup update'],
    [['brew', 'install', 'jq'], 'brew install'],
    [['composer', 'global', 'require', 'x'], 'composer global'],
    [['conda', 'install', 'numpy'], 'conda install'],
    [['micromamba', 'create', '-n', 'e'], 'micromamba create'],
    [['bun', 'add', '-g', 'x'], 'bun add -g'],
    [['bun', 'i', '--global=true', 'x'], 'bun i --global=true'],
    [['bun', 'link'], 'bun link'],
    [['deno', 'install', '--root', '/opt', 'x'], 'deno install --root'],
    [['dotnet', 'tool', 'install', '-g', 'x'], 'dotnet tool install -g'],
    [['dotnet', 'tool', 'update', '--tool-path=/opt', 'x'], 'dotnet tool update --tool-path=/opt'],
    [['code', '--install-extension=x'], 'code --install-extension'],
    [['npm', 'link'], 'npm link'],
    [['npm', 'ln', './lib'], 'npm link'],
    [['npm', 'link', 'a/b'], 'npm link'],
    [['python3', '-m', 'pip', 'install', '--user', 'x'], 'python3 -m pip --user'],
    [['python', '-mpip', 'install', '-t', 'd', 'x'], 'python -m pip -t'],
    [['python3', '-m', 'ensurepip', '--user'], 'python3 -m ensurepip --user'],
    [['uv', 'run', 'pip', 'install', '--user', 'x'], 'uv --user'],
  ])('%j -> %j', (argv, word) => {
    expect(globalInstall(argv, 0)).toBe(word);
  });

  it.each([
    [['npm', 'i', 'x']],
    [['npm', 'ls', '-g']],
    [['npm', 'run', 'x', '-g']],
    [['npm', '-g']],
    [['npm', '-G', 'i', 'x']],
    [['npm', '--gx', 'i']],
    [['npm', 'install', '--location=project', 'x']],
    // npm reads `-g=false` as global=false: a local install.
    [['npm', 'i', '-g=false', 'x']],
    [['pnpm', 'list', '-g']],
    [['pnpm', 'add', 'x']],
    [['yarn', 'add', 'x']],
    [['yarn', 'add', 'global']],
    [['pip', 'install', '-r', 'r.txt']],
    [['pip', 'install', '--targetx']],
    [['pipx', 'run', 'x']],
    [['pipenv', 'install', '--user']],
    [['xpip', 'install', '--user']],
    [['uv', 'tool', 'list']],
    [['uv', 'tool']],
    [['uv', 'run', 'install']],
    // `dotnet tool install` without -g installs into the project's tool manifest.
    [['dotnet', 'tool', 'install', 'x']],
    [['cargo', 'build']],
    [['cargo', 'test', 'install']],
    [['go', 'build', 'install']],
    [['gem', 'list']],
    [['ls', '-g']],
    [['rustup', 'toolchain', 'list']],
    [['rustup']],
    [['brew', 'list']],
    [['conda', 'install', '-p', './env', 'x']],
    [['conda', 'install', '--prefix=./env', 'x']],
    [['conda', 'list']],
    [['conda']],
    [['bun', 'add', 'x']],
    [['bun', 'link', 'x']],
    [['bun', 'run', '-g']],
    [['bun']],
    [['deno', 'install']],
    [['dotnet', 'tool', 'list', '-g']],
    [['dotnet', 'build', '-g']],
    [['code', '.']],
    [['npm', 'link', 'left-pad']],
    [['npm', 'run', 'link']],
    [['python3', '-m', 'pip', 'install', 'x']],
    [['python3', '-m', 'pytest', '--user']],
    [['python3', '-m']],
    [['python3', 'script.py']],
    [['uv', 'sync']],
    [[]],
  ])('%j writes only inside the project', (argv) => {
    expect(globalInstall(argv, 0)).toBeNull();
  });

  it('reads the verb at verbAt, after assignments', () => {
    expect(globalInstall(['NODE_ENV=x', 'npm', 'i', '-g', 'x'], 1)).toBe('npm -g');
    expect(globalInstall(['NODE_ENV=x', 'npm', 'i', '-g', 'x'], 0)).toBeNull();
    expect(globalInstall(['npm'], 1)).toBeNull();
  });
});
