// The wrappers table: commands that run another command (`sudo`, `env`, `timeout`, `npm exec`,
// `uv run`, `strace`, `parallel`...), each with the options it takes and where its command is.
// wrappers.ts reads it (deny, ceilings and RN-675 look through these); one row per wrapper.
import { optionTable } from './options.ts';
import type { OptionTable } from './options.ts';

export interface WrapperSpec {
  options: OptionTable;
  /** Positional words the wrapper takes before the command (timeout's duration, chroot's dir). */
  positionals?: number;
  /** Skips NAME=value words after the options (env). */
  assignments?: boolean;
  /** Options whose value is itself a command line (`env -S`, `su -c`, `npx -c`, `rsync -e`). */
  commandOptions?: ReadonlySet<string>;
  /**
   * A shell's command flag (`-c`): the command line is the first word after all the options
   * (`sh -c -e STRING`, `bash -ec -- STRING`, `bash -oc pipefail STRING`), the words after it
   * are $0, $1... Short options are clusters of letters after `-` or `+` (`+x`, `+o NAME`), each
   * valued letter taking the next word; `-` alone ends them like `--`, `+` alone is skipped.
   */
  shellCommandFlag?: string;
  /** Command options may also come after the positionals (`su root -c`, `flock FILE -c`). */
  commandOptionsAnywhere?: boolean;
  /** Where the wrapper's options start: 2 for two-word runners (`npm exec`, `pnpm dlx`). */
  from?: number;
  /**
   * What the words after the options are: a command (the default); a command line the program
   * hands to a shell, joined with blanks (`watch`, `eval`: also read as a command string); or
   * nothing we can see (`sh script.sh`, `script FILE`); or a subcommand of the same CLI (`pnpm
   * recursive exec CMD` is `pnpm exec CMD`, `yarn workspace NAME exec CMD` is `yarn exec CMD`); or
   * one command line per word (`hyperfine 'make a' 'make b'`, `concurrently 'x' 'y'`).
   */
  rest?: 'command' | 'shell' | 'none' | 'subcommand' | 'shells';
  /**
   * Words after which everything is the command, wherever they stand (`mise x node@20 -- CMD`,
   * `nix develop .#x -c CMD`, `npm explore pkg -- CMD`); without one the rest is read as usual.
   */
  startsCommand?: ReadonlySet<string>;
  /** Words that end the command (`parallel CMD ::: a b`: the arguments follow). */
  endsCommand?: ReadonlySet<string>;
  /** With no command before the end word, each argument after it is a command line (`parallel ::: 'git push'`). */
  argumentsAreCommands?: boolean;
  /** Flags that turn the rest into a shell command line (`pnpm exec -c`). */
  shellModeFlags?: ReadonlySet<string>;
}

// The options as `bash --help` lists them: -o and -O take a name, the GNU long options.
const SHELL: WrapperSpec = {
  options: optionTable(
    '-o -O --rcfile --init-file',
    '--debug --debugger --dump-po-strings --dump-strings --help --login --noediting --noprofile --norc --posix --pretty-print --restricted --verbose --version',
  ),
  shellCommandFlag: '-c',
  rest: 'none',
};

const words = (s: string): ReadonlySet<string> => new Set(s.split(' '));
/** No option of that kind: one spelling, so the tables below hold only real option names. */
// Stryker disable next-line StringLiteral: a word without a leading '-' is never read as an option, so no other text here changes a table
const NONE = '';
const NO_OPTIONS = optionTable(NONE, NONE);
/** A wrapper with no options of its own (`nohup`, and the shell words `if`, `!`, `{`...). */
const PLAIN: WrapperSpec = { options: NO_OPTIONS };
const NPM_EXEC = optionTable(
  '-p --package -w --workspace --prefix --registry --userconfig --cache --loglevel --call',
  '-y --yes --no -q --quiet -s --silent --ws --workspaces --include-workspace-root -g --global --no-install --ignore-existing',
);
const PNPM_EXEC = optionTable(
  '--package -C --dir --filter -F --reporter --loglevel --workspace-concurrency',
  '-c --shell-mode -r --recursive --parallel --no-bail --bail --report-summary --resume-from -s --silent --allow-build',
);
const PACKAGE_RUNNER = (options: OptionTable, extra: Partial<WrapperSpec> = {}): WrapperSpec => ({ options, ...extra });
const HYPERFINE = optionTable(
  '-w --warmup -m --min-runs -M --max-runs -r --runs -P --parameter-scan -D --parameter-step-size -L --parameter-list -S --shell --style --sort -u --time-unit --export-asciidoc --export-csv --export-json --export-markdown --export-orgmode --output -n --command-name',
  '-N -i --ignore-failure --show-output',
);
const CONCURRENTLY = optionTable(
  '-n --names -c --prefix-colors -p --prefix -l --prefix-length -t --timestamp-format -s --success --restart-tries --restart-after -m --max-processes --hide --default-input-target --names-separator',
  '-k --kill-others --kill-others-on-fail -r --raw --no-color -i --handle-input -g --group -P --passthrough-arguments',
);
const WATCHEXEC = optionTable(
  '-w --watch -e --exts -f --filter -i --ignore -d --debounce --shell --signal --stop-signal --stop-timeout --delay-run --on-busy-update --project-origin --workdir',
  '-c --clear -r --restart -n -N --notify -p --postpone -o --no-vcs-ignore --no-ignore -W --watch-when-idle -q --quiet',
);
const UV_RUN = optionTable(
  '--with --with-editable --with-requirements --python -p --project --directory --package --extra --group --only-group --env-file --index --index-url --default-index --extra-index-url --find-links -f --from',
  '--no-project --isolated --frozen --locked --no-sync --all-extras --all-packages --dev --no-dev --active --exact -q --quiet -v --verbose --offline --no-cache -n --no-config --refresh -m --module -s --script',
);
const CONDA_RUN: WrapperSpec = {
  options: optionTable('-n --name -p --prefix --cwd', '--no-capture-output --live-stream -v --verbose --dev'),
  from: 2,
};
const MISE_EXEC: WrapperSpec = {
  options: optionTable('-C --cd -j --jobs', '--raw -q --quiet -v --verbose -y --yes'),
  from: 2,
  commandOptions: words('-c --command'),
  startsCommand: words('--'),
};
const STRACE_FLAGS =
  '-f -ff -c -C -d -D -DD -F -h -i -k -q -qq -r -t -tt -ttt -T -v -V -w -x -xx -y -yy -z -Z -n -A --follow-forks';
const NUMACTL = optionTable(
  '-N -C -m -p -i -w --cpunodebind --physcpubind --membind --preferred --interleave',
  '-a -l -s -H --localalloc --all --show --hardware',
);
const SYSTEMD_RUN = optionTable(
  '-p --property -u --unit -E --setenv --description --slice -M --machine --uid --gid --nice --working-directory -H --host --on-active --on-calendar',
  '--user --system --scope -t --pty -P --pipe -q --quiet --wait -G --collect -S --shell --same-dir -d -r --remain-after-exit --no-block --no-ask-password',
);
// GNU parallel hands the command template (before `:::`) to a shell.
const PARALLEL = optionTable(
  '-j --jobs -S --sshlogin -a --arg-file -d --delimiter -E -I --replace --joblog --results -n --max-args -N --colsep -C --tmpdir --timeout --delay --halt --retries --load --memfree --tagstring --workdir --wd --env',
  '-k --keep-order -v --verbose -q --quote -0 --null -X -m -u --ungroup --line-buffer --lb --tag --bar --progress --eta --dry-run --dryrun --pipe --xargs -r --no-run-if-empty --will-cite --plain',
);

export const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map<string, WrapperSpec>([
  [
    'sudo',
    {
      options: optionTable(
        '-u -g -C -D -h -p -r -t -U -T --user --group --close-from --chdir --host --prompt --role --type --other-user --command-timeout',
        '-A -b -E -e -H -i -K -k -l -n -P -S -s -V -v -B -N --preserve-env --login --shell --non-interactive --background --askpass --stdin --set-home --reset-timestamp --remove-timestamp --preserve-groups',
      ),
    },
  ],
  ['doas', { options: optionTable('-u -C', '-n -s -L') }],
  [
    'env',
    {
      options: optionTable('-u -C --unset --chdir', '-i -0 -v --ignore-environment --null --debug'),
      assignments: true,
      commandOptions: new Set(['-S', '--split-string']),
    },
  ],
  [
    'timeout',
    {
      options: optionTable('-s -k --signal --kill-after', '-v --preserve-status --foreground --verbose'),
      positionals: 1,
    },
  ],
  ['nice', { options: optionTable('-n --adjustment', NONE) }],
  ['nohup', PLAIN],
  ['setsid', { options: optionTable(NONE, '-c -f -w --ctty --fork --wait') }],
  ['command', { options: optionTable(NONE, '-p -v -V') }],
  ['builtin', PLAIN],
  ['exec', { options: optionTable('-a', '-c -l') }],
  ['time', { options: optionTable('-o -f --output --format', '-p -a -v -q --append --verbose --portability --quiet') }],
  [
    'xargs',
    {
      options: optionTable(
        '-a -d -E -I -L -n -P -s --arg-file --delimiter --eof --replace --max-lines --max-args --max-procs --max-chars --process-slot-var',
        '-0 -r -t -p -x -e -i -l -o --null --no-run-if-empty --verbose --interactive --exit --open-tty',
      ),
    },
  ],
  // Runners of other commands (deny, external effects and privileged commands look through them).
  ['npx', PACKAGE_RUNNER(NPM_EXEC, { commandOptions: words('-c --call') })],
  ['pnpx', PACKAGE_RUNNER(PNPM_EXEC, { shellModeFlags: words('-c --shell-mode') })],
  ['bunx', PACKAGE_RUNNER(optionTable('-p --package', '--bun --silent --verbose'))],
  ['npm exec', PACKAGE_RUNNER(NPM_EXEC, { from: 2, commandOptions: words('-c --call') })],
  ['npm x', PACKAGE_RUNNER(NPM_EXEC, { from: 2, commandOptions: words('-c --call') })],
  ['pnpm exec', PACKAGE_RUNNER(PNPM_EXEC, { from: 2, shellModeFlags: words('-c --shell-mode') })],
  ['pnpm dlx', PACKAGE_RUNNER(PNPM_EXEC, { from: 2, shellModeFlags: words('-c --shell-mode') })],
  ['yarn exec', PACKAGE_RUNNER(NO_OPTIONS, { from: 2 })],
  ['yarn dlx', PACKAGE_RUNNER(optionTable('-p --package', '-q --quiet'), { from: 2 })],
  ['bun x', PACKAGE_RUNNER(optionTable('-p --package', '--bun --silent --verbose'), { from: 2 })],
  ['bun exec', { options: NO_OPTIONS, from: 2, rest: 'shell' }],
  ['pnpm recursive', { options: PNPM_EXEC, from: 2, rest: 'subcommand' }],
  ['pnpm m', { options: PNPM_EXEC, from: 2, rest: 'subcommand' }],
  ['pnpm multi', { options: PNPM_EXEC, from: 2, rest: 'subcommand' }],
  ['yarn workspace', { options: NO_OPTIONS, from: 2, positionals: 1, rest: 'subcommand' }],
  ['npm explore', { options: NPM_EXEC, from: 2, positionals: 1, rest: 'shell', startsCommand: words('--') }],
  // Environment and toolchain runners: what they run is a command like any other.
  ['uv run', { options: UV_RUN, from: 2 }],
  ['uvx', { options: UV_RUN }],
  ['poetry run', { options: NO_OPTIONS, from: 2 }],
  ['pdm run', { options: optionTable('-p --project --venv', '-g --global -s --site-packages'), from: 2 }],
  ['pipenv run', { options: NO_OPTIONS, from: 2 }],
  ['hatch run', { options: NO_OPTIONS, from: 2 }],
  ['rye run', { options: NO_OPTIONS, from: 2 }],
  ...['conda run', 'mamba run', 'micromamba run'].map((name): [string, WrapperSpec] => [name, CONDA_RUN]),
  ['rustup run', { options: optionTable(NONE, '--install'), from: 2, positionals: 1 }],
  ...['mise exec', 'mise x'].map((name): [string, WrapperSpec] => [name, MISE_EXEC]),
  ['asdf exec', { options: NO_OPTIONS, from: 2 }],
  [
    'volta run',
    {
      options: optionTable('--node --npm --pnpm --yarn --env', '--bundled-npm --no-yarn --no-pnpm --verbose --quiet'),
      from: 2,
    },
  ],
  ['direnv exec', { options: NO_OPTIONS, from: 2, positionals: 1 }],
  [
    'nix-shell',
    { options: NO_OPTIONS, commandOptions: words('--run --command'), commandOptionsAnywhere: true, rest: 'none' },
  ],
  ...['nix develop', 'nix shell'].map((name): [string, WrapperSpec] => [
    name,
    { options: NO_OPTIONS, from: 2, rest: 'none', startsCommand: words('-c --command') },
  ]),
  ['dotenv', { options: optionTable('-e -v -c', '-p --debug --override -o --quiet'), startsCommand: words('--') }],
  ['cross-env', { options: NO_OPTIONS, assignments: true }],
  ['cross-env-shell', { options: NO_OPTIONS, assignments: true, rest: 'shell' }],
  // Tracers and schedulers that start the command they are given.
  ['strace', { options: optionTable('-e -o -p -s -u -E -P -I -b -a -X -O -S --output', STRACE_FLAGS) }],
  [
    'ltrace',
    { options: optionTable('-e -o -p -s -u -a -l -n -x -A -D -F -L', '-f -c -C -i -r -S -t -tt -ttt -T -h -V -b -w') },
  ],
  ['unbuffer', { options: optionTable(NONE, '-p') }],
  ['faketime', { options: optionTable(NONE, '-f -m --exclude-monotonic'), positionals: 1 }],
  ['nocache', { options: optionTable('-n', NONE) }],
  ['numactl', { options: NUMACTL }],
  ['systemd-run', { options: SYSTEMD_RUN }],
  [
    'parallel',
    { options: PARALLEL, rest: 'shell', endsCommand: words('::: :::: :::+ ::::+'), argumentsAreCommands: true },
  ],
  // Runners of a command the always-allow list named but deny matching did not look through.
  ['fakeroot', { options: optionTable('-l --lib --faked -s -i', '-u --unknown-is-real') }],
  [
    'xvfb-run',
    {
      options: optionTable(
        '-e --error-file -f --auth-file -n --server-num -p --xauth-protocol -s --server-args -w --wait',
        '-a --auto-servernum',
      ),
    },
  ],
  ['firejail', { options: NO_OPTIONS }],
  [
    'runuser',
    {
      options: optionTable(
        '-u --user -g --group -G --supp-group -s --shell -w --whitelist-environment',
        '-l --login -m -p --preserve-environment -P --pty',
      ),
      commandOptions: words('-c --command --session-command'),
      commandOptionsAnywhere: true,
    },
  ],
  [
    'torsocks',
    { options: optionTable('-u --user -p --pass -a --address -P --port', '-i --isolate -d --debug -q --quiet') },
  ],
  ...['proxychains', 'proxychains4'].map((name): [string, WrapperSpec] => [name, { options: optionTable('-f', '-q') }]),
  ['prlimit', { options: optionTable('-p --pid -o --output', '--noheadings --raw --verbose') }],
  ['tini', { options: optionTable('-p -e', '-s -v -vv -vvv -g -w -l') }],
  ['dumb-init', { options: optionTable('-r --rewrite', '-c --single-child -v --verbose') }],
  ['dbus-run-session', { options: optionTable('--config-file --dbus-daemon', NONE) }],
  ['proot', { options: optionTable('-r -b -q -w -k --rootfs --bind --mount --qemu --cwd --kernel-release', '-0 -v') }],
  ['entr', { options: optionTable(NONE, '-a -c -cc -d -n -p -r -z'), shellModeFlags: words('-s') }],
  ['bundle exec', { options: optionTable('--gemfile', '--keep-file-descriptors'), from: 2 }],
  [
    'hyperfine',
    {
      options: HYPERFINE,
      commandOptions: words('-p --prepare -c --cleanup -s --setup --conclude'),
      commandOptionsAnywhere: true,
      rest: 'shells',
    },
  ],
  ['concurrently', { options: CONCURRENTLY, rest: 'shells' }],
  ['nodemon', { options: NO_OPTIONS, commandOptions: words('-x --exec'), commandOptionsAnywhere: true, rest: 'none' }],
  ['watchexec', { options: WATCHEXEC, rest: 'shell', startsCommand: words('--') }],
  // `TOOL run|exec [...] -- CMD`: secret injectors and monorepo and toolchain runners.
  ...['nx exec', 'lerna exec', 'op run', 'opam exec', 'stack exec', 'cabal exec'].map((name): [string, WrapperSpec] => [
    name,
    { options: NO_OPTIONS, from: 2, startsCommand: words('--') },
  ]),
  ...['doppler run', 'infisical run'].map((name): [string, WrapperSpec] => [
    name,
    { options: NO_OPTIONS, from: 2, startsCommand: words('--'), commandOptions: words('--command') },
  ]),
  ['aws-vault exec', { options: NO_OPTIONS, from: 2, positionals: 1, startsCommand: words('--') }],
  ...[
    'uv tool',
    'pipx run',
    'devbox run',
    'pixi run',
    'pixi exec',
    'toolbox run',
    'dotenvx run',
    'perf stat',
    'perf record',
    'rr record',
    'pyenv exec',
    'rbenv exec',
    'nodenv exec',
    'fnm exec',
  ].map((name): [string, WrapperSpec] => [
    name,
    // `uv tool run CMD` (the word after `tool`), `fnm exec --using=20 CMD`.
    { options: NO_OPTIONS, from: 2, startsCommand: words('--'), ...(name === 'uv tool' ? { positionals: 1 } : {}) },
  ]),
  [
    'distrobox enter',
    {
      options: optionTable('-n --name -a --additional-flags', '-T --no-tty -nw --no-workdir -d --dry-run'),
      from: 2,
      startsCommand: words('--'),
    },
  ],
  ['chamber exec', { options: NO_OPTIONS, from: 2, startsCommand: words('--') }],
  [
    'flox activate',
    {
      options: NO_OPTIONS,
      from: 2,
      commandOptions: words('-c --command'),
      commandOptionsAnywhere: true,
      startsCommand: words('--'),
    },
  ],
  [
    'env-cmd',
    {
      options: optionTable(
        '-f --file -e --environments -r --rc-file',
        '--fallback --no-override --silent --verbose --use-shell',
      ),
    },
  ],
  ['sops exec-env', { options: NO_OPTIONS, from: 2, positionals: 1, rest: 'shell' }],
  ['summon', { options: optionTable('-p --provider -f -D', '--yaml --up --ignore-all --ignore') }],
  ['envchain', { options: NO_OPTIONS, positionals: 1 }],
  ['chpst', { options: optionTable('-u -U -b -e -/ -C -n -l -L -m -d -o -p -f -c -r -t', '-P -0 -1 -2 -v') }],
  [
    'setpriv',
    {
      options: optionTable(
        '--reuid --regid --groups --inh-caps --ambient-caps --bounding-set --securebits --selinux-label --apparmor-profile',
        '-d --dump --nnp --no-new-privs --clear-groups --keep-groups --init-groups --reset-env',
      ),
    },
  ],
  ['valgrind', { options: NO_OPTIONS }],
  ['expect', { options: NO_OPTIONS, commandOptions: words('-c'), commandOptionsAnywhere: true, rest: 'none' }],
  [
    'screen',
    {
      options: optionTable(
        '-S -c -e -h -L -Logfile -p -s -T -t -X',
        '-d -m -D -R -r -q -U -a -A -f -fn -fa -i -l -ln -O -x -wipe',
      ),
    },
  ],
  // `trap 'CMD' EXIT`: the first word is a command line (the signal names are read as commands too).
  ['trap', { options: NO_OPTIONS, rest: 'shells' }],
  ['coproc', PLAIN],
  ['yarn workspaces', { options: NO_OPTIONS, from: 2, positionals: 1, rest: 'subcommand' }],
  ['eval', { options: NO_OPTIONS, rest: 'shell' }],
  [
    'watch',
    {
      options: optionTable(
        '-n --interval -q --equexit',
        '-d --differences -t --no-title -b --beep -e --errexit -g --chgexit -c --color -C --no-color -x --exec -p --precise -w --no-wrap -r --no-rerun',
      ),
      rest: 'shell',
    },
  ],
  [
    'script',
    {
      // Only the valued options matter (`-Oc`: c is -O's value): no other word is a command.
      options: optionTable(
        '-c --command -E --echo -I --log-in -O --log-out -B --log-io -T --log-timing -m --logging-format -o --output-limit',
        NONE,
      ),
      commandOptions: words('-c --command'),
      commandOptionsAnywhere: true,
      rest: 'none',
    },
  ],
  [
    'su',
    {
      // Only the valued options matter (`-sc`: c is -s's value): no other word is a command.
      options: optionTable(
        '-c --command --session-command -s --shell -g --group -G --supp-group -w --whitelist-environment',
        NONE,
      ),
      commandOptions: words('-c --command --session-command'),
      commandOptionsAnywhere: true,
      rest: 'none',
    },
  ],
  [
    'flock',
    {
      options: optionTable(
        '-w --wait --timeout -E --conflict-exit-code -c --command',
        '-s --shared -x -e --exclusive -u --unlock -n --nb --nonblock -o --close -F --no-fork --verbose',
      ),
      commandOptions: words('-c --command'),
      commandOptionsAnywhere: true,
      positionals: 1,
    },
  ],
  ['rsync', { options: NO_OPTIONS, commandOptions: words('-e --rsh'), commandOptionsAnywhere: true, rest: 'none' }],
  ['busybox', { options: optionTable(NONE, '--list --list-full --help') }],
  ['stdbuf', { options: optionTable('-i -o -e --input --output --error', NONE) }],
  ['ionice', { options: optionTable('-c -n -p -P -u --class --classdata --pid --pgid --uid', '-t --ignore') }],
  [
    'chrt',
    {
      options: optionTable(
        '-T -P -D --sched-runtime --sched-period --sched-deadline',
        '-a -m -p -v -b -d -f -i -o -r -e -R --all-tasks --max --pid --verbose --batch --deadline --fifo --idle --other --rr --ext --reset-on-fork',
      ),
      positionals: 1,
    },
  ],
  ['taskset', { options: optionTable(NONE, '-a -p -c --all-tasks --pid --cpu-list'), positionals: 1 }],
  [
    'unshare',
    {
      options: optionTable(
        '-S -G -R -w --setuid --setgid --root --wd --propagation --setgroups',
        '-m -u -i -n -p -U -C -T -f -r -c --mount --uts --ipc --net --pid --user --cgroup --time --fork --map-root-user --map-current-user --kill-child --mount-proc --keep-caps',
      ),
    },
  ],
  [
    'nsenter',
    {
      options: optionTable(
        '-t --target -S --setuid -G --setgid',
        '-a --all -m -u -i -n -p -U -C -T -r -w -F --no-fork --preserve-credentials -Z --follow-context --mount --uts --ipc --net --pid --user --cgroup --time --root --wd',
      ),
    },
  ],
  ['chroot', { options: optionTable(NONE, '--skip-chdir'), positionals: 1 }],
  // `sg GROUP [-c] 'curl x'` hands its command to /bin/sh; macOS `caffeinate [-t N] cmd` and
  // moreutils' `chronic cmd` run theirs as words.
  [
    'sg',
    {
      options: optionTable(NONE, '-'),
      positionals: 1,
      commandOptions: words('-c'),
      commandOptionsAnywhere: true,
      rest: 'shell',
    },
  ],
  ['caffeinate', { options: optionTable('-t -w', '-d -i -m -s -u') }],
  ['chronic', { options: optionTable(NONE, '-e -v') }],
  ['sh', SHELL],
  ['bash', SHELL],
  ['zsh', SHELL],
  ['dash', SHELL],
  ['ksh', SHELL],
  // Shell words that run the command after them.
  ['!', PLAIN],
  ['{', PLAIN],
  ['if', PLAIN],
  ['then', PLAIN],
  ['elif', PLAIN],
  ['else', PLAIN],
  ['do', PLAIN],
  ['while', PLAIN],
  ['until', PLAIN],
]);
