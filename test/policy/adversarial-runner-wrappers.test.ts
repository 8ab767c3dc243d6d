// Deny rules and ceilings through runners of other commands (issue 9 A.4, found by the attacker of
// stop 20): with the runner allowed, what it runs was never looked at, so deny Terminal(git push)
// did not hold for `uv run git push`, `pnpm m exec git push`, `strace -f git push`, `parallel git
// push ::: a`, `nix develop -c git push`, `npm explore x -- git push`, and in auto mode the
// external-effect ceiling did not either. bun's `exec` takes a shell line; pnpm's `-w` is a flag
// (it swallowed `exec`); bun's `-c` takes its value only with `=`. Each runner is a row of the one
// wrappers table (wrappers.ts), and RN-675 writes the whole fragment for every wrapper of it.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide, patternsForAction } from '../../src/policy/index.ts';
import { AUTO, MANUAL, ask, auto, c, deny, runCases, terminalInput } from './adversarial-harness.ts';

const RUNNERS = [
  ...['fakeroot', 'xvfb-run', 'firejail', 'runuser', 'torsocks', 'proxychains4', 'hyperfine', 'prlimit', 'tini'],
  ...['dumb-init', 'dbus-run-session', 'proot', 'entr', 'concurrently', 'nodemon', 'watchexec', 'nx', 'lerna', 'op'],
  ...['doppler', 'infisical', 'aws-vault', 'opam', 'stack', 'cabal', 'ls', 'pipx', 'devbox', 'pixi', 'toolbox'],
  ...['distrobox', 'chpst', 'setpriv', 'screen', 'trap', 'coproc', 'valgrind', 'perf', 'pyenv', 'fnm', 'dotenvx'],
  ...['env-cmd', 'sops', 'envchain', 'flox'],
  'bun',
  'pnpm',
  'npm',
  'yarn',
  'uv',
  'uvx',
  'poetry',
  'pdm',
  'pipenv',
  'hatch',
  'rye',
  'conda',
  'mamba',
  'rustup',
  'mise',
  'asdf',
  'volta',
  'direnv',
  'nix-shell',
  'nix',
  'dotenv',
  'cross-env',
  'cross-env-shell',
  'strace',
  'ltrace',
  'unbuffer',
  'faketime',
  'nocache',
  'numactl',
  'systemd-run',
  'parallel',
];
const PERMS = {
  allow: RUNNERS.map((r) => `Terminal(${r}:*)`),
  deny: ['Terminal(git push)', 'Terminal(rm:*)'],
  ask: [],
};
const SETUP = { ...MANUAL, label: 'runners allowed, git push and rm denied', permissions: PERMS };
const DENIED = deny('permissions_deny');

/** Each runner form, with CMD where the command goes. */
const FORMS = [
  'bun -c x CMD',
  'bun --config x CMD',
  "bun exec 'CMD'",
  "bun --cwd . exec 'CMD'",
  'pnpm -w exec CMD',
  'pnpm --workspace-root exec CMD',
  'pnpm recursive exec CMD',
  'pnpm m exec CMD',
  'pnpm multi exec CMD',
  'uv run CMD',
  'uv run --with x --python 3.12 CMD',
  'uvx --from x CMD',
  'npm explore x -- CMD',
  'yarn workspace app exec CMD',
  'poetry run CMD',
  'pdm run -p . CMD',
  'pipenv run CMD',
  'hatch run CMD',
  'rye run CMD',
  'conda run -n base CMD',
  'mamba run -p ./env CMD',
  'rustup run stable CMD',
  'mise exec -- CMD',
  'mise x node@20 -- CMD',
  'asdf exec CMD',
  'volta run --node 20 CMD',
  'direnv exec . CMD',
  "nix-shell --run 'CMD'",
  "nix-shell -p git --command 'CMD'",
  'nix develop -c CMD',
  'nix develop .#x --command CMD',
  'dotenv -e .env -- CMD',
  'cross-env A=1 CMD',
  "cross-env-shell A=1 'CMD'",
  'strace -f CMD',
  'strace -o trace.txt -e trace=file CMD',
  'ltrace -c CMD',
  'unbuffer CMD',
  'faketime now CMD',
  'nocache CMD',
  'numactl -N0 CMD',
  'systemd-run --user --scope CMD',
  'parallel CMD ::: a b',
  'parallel -j2 CMD :::: list.txt',
  // Runners the always-allow list named but deny matching did not look through, and secret
  // injectors, monorepo and toolchain runners.
  'fakeroot CMD',
  'xvfb-run -a CMD',
  'firejail --private CMD',
  'runuser -u app CMD',
  "runuser -l app -c 'CMD'",
  'torsocks CMD',
  'proxychains4 -q CMD',
  "hyperfine -w 3 'ls' 'CMD'",
  "hyperfine --prepare 'CMD' ls",
  'prlimit --nofile=10 CMD',
  'tini -- CMD',
  'dumb-init CMD',
  'dbus-run-session -- CMD',
  'proot -r / CMD',
  "entr -s 'CMD'",
  'bundle exec CMD',
  "concurrently 'ls' 'CMD'",
  "nodemon --exec 'CMD'",
  'watchexec -e ts -- CMD',
  'nx exec -- CMD',
  'lerna exec -- CMD',
  'op run -- CMD',
  'doppler run -- CMD',
  "doppler run --command 'CMD'",
  'infisical run -- CMD',
  'aws-vault exec prod -- CMD',
  'opam exec -- CMD',
  'stack exec -- CMD',
  'cabal exec -- CMD',
  'yarn workspaces foreach -A exec CMD',
  // The CLI's own options before its runner word (found by the second attacker of this stop).
  'uv -q run CMD',
  'uv --directory x run CMD',
  'poetry -C x run CMD',
  'mise -q exec -- CMD',
  'nix -L develop -c CMD',
  'cabal -v exec -- CMD',
  'lerna --loglevel=x exec -- CMD',
  'bundle _2.4.0_ exec CMD',
  'rustup run stable -- CMD',
  // More runners of a command.
  'uv tool run CMD',
  'pipx run CMD',
  'devbox run -- CMD',
  'pixi run CMD',
  'toolbox run CMD',
  'distrobox enter box -- CMD',
  'chpst -u app CMD',
  'setpriv --reuid=1000 CMD',
  'screen -dmS x CMD',
  "trap 'CMD' EXIT",
  'coproc CMD',
  'valgrind CMD',
  'perf record -- CMD',
  'pyenv exec CMD',
  'fnm exec --using=20 CMD',
  'dotenvx run -- CMD',
  'env-cmd -f .env CMD',
  "sops exec-env f 'CMD'",
  'envchain ns CMD',
  "flox activate -c 'CMD'",
];

runCases(
  'RN-418 deny through runners of other commands',
  SETUP,
  FORMS.flatMap((form) => [c(form.replace('CMD', 'git push'), DENIED), c(form.replace('CMD', 'rm -rf src'), DENIED)]),
);

const AUTO_ALL = { ...AUTO, label: 'auto mode', permissions: { allow: ['*'], deny: [], ask: [] } };
runCases(
  'RN-418 auto mode: the external-effect ceiling sees what the runner runs',
  AUTO_ALL,
  FORMS.slice(0, 12).map((form) => c(form.replace('CMD', 'git push origin main'), ask('ceiling_external_effect'))),
);

runCases('RN-418 runners of allowed commands stay allowed', SETUP, [
  c('uv run pytest -q', auto('permissions_allow')),
  c('pnpm m exec vitest run', auto('permissions_allow')),
  c('parallel echo ::: a b', auto('permissions_allow')),
  c('strace -o out.txt ls', auto('permissions_allow')),
  c('npm explore x -- ls', auto('permissions_allow')),
  c('nix develop', auto('permissions_allow')),
  c('poetry run python -m pytest', auto('permissions_allow')),
  c('cross-env NODE_ENV=test vitest', auto('permissions_allow')),
]);

// GNU parallel with no command runs its arguments (after `:::`) or its input lines as commands.
runCases('RN-418 parallel without a command: its arguments are command lines', SETUP, [
  c("parallel ::: 'git push'", DENIED),
  c("parallel -j2 ::: ls 'git push'", DENIED),
  c("parallel ::: 'rm -rf src' ls", DENIED),
  c("parallel --keep-order ::: 'git push origin main'", DENIED),
  c("parallel ::: 'cat ../secret.txt'", ask('ceiling_path_scope')),
  c('echo "git push" | parallel', ask(), { note: 'the input lines are commands' }),
  c('parallel :::: cmds.txt', ask('ceiling_path_scope')),
  c('parallel -j2', ask('ceiling_path_scope')),
  c('parallel -a cmds.txt', ask('ceiling_path_scope')),
  c("parallel ::: 'echo a' 'echo b'", auto('permissions_allow'), { note: 'echo is not denied' }),
  c('parallel git ::: push', DENIED, { note: 'the template with each argument appended' }),
  c('parallel -q git ::: status push', DENIED),
  c('parallel rm ::: -rf', DENIED),
]);

describe('RN-675 a runner of the wrappers table is written whole', () => {
  it.each(['strace -f make', 'pnpm m exec vitest', 'nocache make', 'rustup run stable cargo build', 'uv run pytest'])(
    'RN-675 %s',
    (clicked) => {
      expect(patternsForAction('terminal', { command: clicked })).toEqual({
        kind: 'patterns',
        patterns: [`Terminal(${clicked})`],
        keptWhole: [`Terminal(${clicked})`],
      });
    },
  );
});

describe('RN-418 property: no runner form hides a denied command', () => {
  it('any form with any denied command behind it is denied', () => {
    const denied = fc.constantFrom('git push', 'git push -f origin main', 'rm -rf src', 'rm x');
    fc.assert(
      fc.property(fc.constantFrom(...FORMS), denied, (form, command) => {
        const line = form.replace('CMD', command);
        expect(decide(terminalInput(SETUP, { command: line })).policy, line).toBe('deny');
      }),
    );
  });
});
