// The word that sends an install outside the project, second round (mutation testing of
// global-installs.ts at stop 24: each row stands for a class of survivors). Decisions are in
// adversarial-global-installs*.test.ts and adversarial-user-config-writes.test.ts.
import { describe, expect, it } from 'vitest';
import { globalInstall } from '../../src/policy/global-installs.ts';

type Row = [argv: string[], word: string | null, verbAt?: number];

function wordRows(title: string, rows: Row[]): void {
  it.each(rows)(`${title}: %j -> %j`, (argv, word, verbAt = 0) => {
    expect(globalInstall(argv, verbAt)).toBe(word);
  });
}

describe('globalInstall, round 2', () => {
  wordRows('the environment is the assignments before the verb', [
    [['npm', 'i', 'npm_config_global=true'], null],
    [['npm_config_global', 'npm', 'i', 'y'], null, 1],
    [['PIP_PREFIX=/x', 'pip', 'install', 'y'], 'pip PIP_PREFIX=/x', 1],
    [['PIP_ROOT=/', 'pip', 'install', 'y'], 'pip PIP_ROOT=/', 1],
    // uv reads UV_*, not pip's variables.
    [['PIP_TARGET=/x', 'uv', 'pip', 'install', 'y'], null, 1],
  ]);

  wordRows('behind a wrapper, only assignments are looked for again', [
    // Without assignments the wrapped command has a reading of its own, judged there.
    [['env', 'npm', 'i', '-g', 'x'], null],
    [['A=1', 'env', 'npm_config_global=1', 'npm', 'i', 'x'], 'npm npm_config_global=1', 1],
    // A view longer than argv (env -S splits a word) lines up with no word of argv.
    [['env', '-S', 'npm i -g x y z', 'A=1'], null],
  ]);

  wordRows('interpreters and editors by exact name', [
    [['python3-config', '-m', 'pip', 'install', '--user'], null],
    [['xpython3', '-m', 'pip', 'install', '--user'], null],
    [['ipython', '-m', 'pip', 'install', '--user', 'x'], 'ipython -m pip --user'],
    [['opencode', '--install-extension', 'x'], null],
    [['codex', '--install-extension', 'x'], null],
    [['code', '--uninstall-extension', 'x'], 'code --uninstall-extension'],
  ]);

  wordRows('python -m runs the module as its command would run', [
    [['python3', '-m', 'pipx', 'install', 'x'], 'python3 -m pipx install'],
    [['python3', '-m', 'pipx.__main__', 'install', 'x'], 'python3 -m pipx.__main__ install'],
    [['ipython3', '-m', 'pipx', 'install', 'x'], 'ipython3 -m pipx install'],
    [['python3', '-m', 'uv', 'tool', 'install', 'ruff'], 'python3 -m uv tool install'],
    [['python3', '-m', 'pytest', 'install', '--user'], null],
    [['python3', '-m', 'xpip', 'install', '--user'], null],
    [['python3', '-m', 'ensurepip', '--root', '/x'], 'python3 -m ensurepip --root'],
    [['python3', '-m', 'ensurepip', '--us'], 'python3 -m ensurepip --us'],
    [['python3', '-m', 'ensurepip', '--upgrade'], null],
  ]);

  wordRows("python's own options before -m", [
    [['python3', '-I'], null],
    [['python3', '-B', '-I'], null],
    // After `--` or `-` the next word is the script's, not an option.
    [['python3', '--', '-m', 'pip', 'install', '--user'], null],
    [['python3', '-', '-m', 'pip', 'install', '--user'], null],
    [['python3', '--check-hash-based-pycs', 'always', '-m', 'pip', 'install', '--user'], 'python3 -m pip --user'],
    [['python3', '--version', '-m', 'pip', 'install', '--user'], 'python3 -m pip --user'],
    [['python3', '-X', 'dev', '-m', 'pip', 'install', '--user'], 'python3 -m pip --user'],
    // -c's program ends the options, whatever it looks like.
    [['python3', '-c', '-m', 'pip', 'install', '--user'], null],
    [['python3', '-Ic', '-mpip', 'install', '--user'], null],
    // -W takes a value: the words before -m are not pip's.
    [['python3', '-W', 'install', '-m', 'pip', 'list', '--user'], null],
  ]);

  wordRows("nix-env's operations", [
    [['nix-env', '-q', '--installed'], null],
    [['nix-env', '-qaP'], null],
    [['nix-env', '-qa', 'foo-unstable'], null],
    [['nix-env', '-q', 'foo--install'], null],
    [['nix-env', '--install', 'x'], 'nix-env --install'],
    [['nix-env', '-S', '/nix/var/nix/profiles/p'], 'nix-env -S'],
    [['nix-env', '--switch-profile', 'p'], 'nix-env --switch-profile'],
    [['nix-env', '--delete-generations', 'old'], 'nix-env --delete-generations'],
    [['nix-env', '--set-flag', 'priority', '5', 'x'], 'nix-env --set-flag'],
  ]);

  wordRows('subcommands are the words that are no option', [
    [['uv', 'pip', '-q', 'install', '--user', 'x'], 'uv --user'],
    [['uv', 'pip'], null],
    [['go', 'pip', 'install', '--user'], null],
    [['go', 'run', 'pip', 'install', '--user'], null],
    [['npm', 'config', '-g', 'set', 'prefix', '/x'], 'npm config set prefix'],
    [['conda', 'env', '-q', 'create', '-n', 'x'], 'conda env'],
    // An option conda does not know may take the next word as its value.
    [['conda', '--frob', 'list', 'install'], 'conda install'],
    [['conda', 'env'], null],
    [['conda'], null],
    [['bun', 'link'], 'bun link'],
    [['deno', 'link'], null],
    [['yarn', 'global', 'add', 'x'], 'yarn global'],
    [['yarn', 'global'], null],
  ]);

  wordRows("uv run's options (the wrapper table's)", [
    [['uv', 'run', '--with', 'pip', 'install', '--user'], null],
    [['uv', 'run', '--python', '3.12', 'pip', 'install', '--user'], 'pip --user'],
    [['uv', 'run', '-m', 'pip', 'install', '--user'], 'pip --user'],
    // An unknown option may or may not take a value: both readings count.
    [['uv', 'run', '--frob', 'install', 'pip', 'install', '--user'], 'pip --user'],
  ]);

  wordRows("go env's write flags, with one dash or two", [
    [['cargo', 'env', '-w'], null],
    [['go', 'build', '-w'], null],
    [['go', 'env', '-wx'], null],
    [['go', 'env', 'GOFLAGS=-w'], null],
    [['go', 'env', '--w', 'GOBIN=/x'], 'go env --w'],
    [['go', 'env', '-w=true', 'X=1'], 'go env -w=true'],
    [['go', 'env', '-u', 'GOBIN'], 'go env -u'],
  ]);

  wordRows("npm link's folder forms", [
    [['npm', 'link', '.tools'], 'npm link'],
    [['npm', 'link', 'x.'], null],
  ]);

  wordRows("pip's interpreter", [
    [['pip', 'install', '--python', '/usr/bin/python3', 'x'], 'pip --python'],
    [['pip', 'install', '--pyth=/usr/bin/python3', 'x'], 'pip --pyth=/usr/bin/python3'],
    [['pip', 'install', '--python', 'python3', 'x'], 'pip --python'],
    [['pip', 'install', '--python', '.venv/bin/python', 'x'], null],
  ]);

  wordRows('config writes', [
    [['pip', 'download', 'config', 'set'], null],
    [['pip', 'config', 'list'], null],
    [['pip', 'config'], null],
    [['pip', 'config', 'get', 'global.x'], null],
    [['pip', '--isolated', 'config', 'set', 'global.x', '1'], 'pip config set global.x'],
    [['pip', 'config', 'unset', 'global.x'], 'pip config unset global.x'],
    [['pip', 'config', 'edit'], 'pip config edit'],
    [['yarn', 'config', 'set', 'x', 'y'], 'yarn config set'],
    [['yarn', 'config', 'get', 'x'], null],
    [['npm', 'config', 'set', '--location', 'project', 'registry', 'x'], null],
    [['npm_config_location=project', 'npm', 'config', 'set', 'registry', 'x'], null, 1],
    [
      ['npm_config_location=project', 'npm', 'config', 'set', 'registry', 'x', '--location=user'],
      'npm config set registry',
      1,
    ],
    [['npm', 'login'], 'npm login'],
    [['npm', 'config', 'list'], null],
    [['npm', 'get', 'x'], null],
    [['npm', 'set'], 'npm config set'],
    // Only the words after `config` are its action: pip's --log took `set` as its value.
    [['pip', '--log', 'set', 'config', 'list'], null],
    [['pip', 'config', '--editor', 'vi', 'edit'], 'pip config edit'],
    [['npm_config_location=globalx', 'npm', 'i', 'x'], null, 1],
    [['npm_config_location=xuser', 'npm', 'i', 'x'], null, 1],
  ]);

  wordRows('hand-offs through python -m and uv run', [
    // The word names the chain when the install is not the module's own.
    [['python3', '-m', 'uv', 'run', 'pip', 'install', '--user'], 'python3 -m uv pip --user'],
    [
      [...Array.from({ length: 5 }, () => ['python3', '-m', 'uv', 'run']).flat(), 'ls'],
      'python3 -m uv python3 -m uv python3 -m uv python3 -m uv python3 -m uv (handed on more than 8 times)',
    ],
    [[...Array.from({ length: 4 }, () => ['python3', '-m', 'uv', 'run']).flat(), 'ls'], null],
  ]);

  wordRows("a subcommand's later words may follow option values; a read word only right after it", [
    [['gh', 'config', '--host', 'h', 'set', 'k', 'v'], 'gh config set'],
    [
      ['gcloud', 'auth', '--verbosity', 'debug', 'application-default', 'login'],
      'gcloud auth application-default login',
    ],
    [['gcloud', 'beta', 'config', 'set', 'project', 'p'], 'gcloud config set'],
    [['gcloud', 'beta', '--project', 'p', 'auth', 'login'], 'gcloud auth login'],
    [['gcloud', 'beta', 'config', 'list'], null],
    [['gcloud', 'config', 'get', 'project'], null],
    [['aws', 'configure', 'list'], null],
    [['aws', 'configure', '--profile', 'list', 'set', 'region', 'x'], 'aws configure'],
    [['brew', 'services'], null],
    [['brew', 'services', 'list'], null],
    [['brew', 'services', 'start', 'x'], 'brew services'],
    [['rustup', 'default'], null],
    [['rustup', 'default', 'nightly'], 'rustup default'],
    // The longest listed subcommand names the word.
    [['rustup', 'toolchain', 'install', 'nightly'], 'rustup toolchain install'],
    [['bun', 'link', '--save'], 'bun link'],
    [['bun', 'link', 'x'], null],
  ]);

  it('more readings of unknown options than the bound are judged outside, unread', () => {
    const run = (n: number) => ['pip', ...Array.from({ length: n }, () => ['--u', 'x']).flat(), 'list'];
    expect(globalInstall(run(4), 0)).toBeNull();
    expect(globalInstall(run(20), 0)).toBe('pip (more than 16 readings of its options)');
    const uvRun = ['uv', 'run', ...Array.from({ length: 20 }, () => ['--x', 'python']).flat()];
    expect(globalInstall(uvRun, 0)).toBe('uv run (more than 16 readings of its options)');
  });

  it('a chain of hand-offs longer than the bound is judged outside, unread', () => {
    const chain = (n: number) => [...Array.from({ length: n }, () => ['uv', 'run']).flat(), 'ls'];
    expect(globalInstall(chain(8), 0)).toBeNull();
    expect(globalInstall(chain(9), 0)).toBe('ls (handed on more than 8 times)');
    expect(globalInstall([...chain(8).slice(0, -1), 'pip', 'install', '--user'], 0)).toBe('pip --user');
  });
});
