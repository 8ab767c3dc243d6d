// Options and environment variables that make a tool run another program (issue 9, attacked
// after A.3): under `Terminal(go test:*)`, `Terminal(tar:*)`, `Terminal(make:*)`… the engine
// auto-approved `go test -exec 'sh -c …'`, `tar --to-command=…`, `make --eval '$(shell …)'`,
// `cargo build --config 'build.rustc-wrapper="x"'`. What such an option runs is a program the
// rules never judged, so the command asks, naming the option and what it runs. The facts are one
// table, checked against the tools' own help (GNU make 4.3, GNU tar, coreutils sort, zip 3.0,
// man-db, OpenSSH, rsync, cargo 1.95; go's from `go help build` and `go help testflag`).
// Elsewhere: find -exec (its command is judged like a fragment, wrappers.ts), git's own options
// (git-runs-command.ts, git -c in external-effect.ts), sed `e` and awk `system()` (script-effects.ts).
// Not here on purpose: `less -P` sets a prompt, it runs nothing.
import { isAssignment } from './tokenizer.ts';
import { basename } from './wrappers.ts';

interface Runner {
  /** Spellings of the option: `--long` (any GNU prefix of 4+ letters), `-x` (short, in a cluster
   *  too), or a whole word (`-TT`, go's `-exec`). */
  options: readonly string[];
  /** When set, only values it accepts run a program (`ssh -o ProxyCommand=…`). */
  runs?: (value: string) => boolean;
}

const SSH_COMMAND_KEY = (value: string): boolean =>
  /^\s*(proxycommand|localcommand|knownhostscommand)\s*[= ]/i.test(value);
const anyValue = undefined;

const COMPILER_RUNNERS: readonly Runner[] = [{ options: ['-wrapper', '-fplugin', '-specs', '--specs'] }];

/** Per tool: the options whose value is (or sets) a program the tool runs. */
const PROGRAM_OPTIONS: ReadonlyMap<string, readonly Runner[]> = new Map<string, readonly Runner[]>([
  ['go', [{ options: ['-exec', '--exec', '-toolexec', '--toolexec', '-vettool', '--vettool'], runs: anyValue }]],
  // Any --config may set build.rustc-wrapper, build.rustc, target.<triple>.runner or .linker.
  ['cargo', [{ options: ['--config'] }]],
  ['make', [{ options: ['--eval', '-E'] }]],
  ['gmake', [{ options: ['--eval', '-E'] }]],
  [
    'tar',
    [
      {
        options: [
          '--to-command',
          '--use-compress-program',
          '-I',
          '--rsh-command',
          '--info-script',
          '--new-volume-script',
          '-F',
        ],
      },
      { options: ['--checkpoint-action'], runs: (v) => v.startsWith('exec') },
    ],
  ],
  ['rsync', [{ options: ['-e', '--rsh', '--rsync-path'] }]],
  ['sort', [{ options: ['--compress-program'] }]],
  ['zip', [{ options: ['-TT', '--unzip-command'] }]],
  ['man', [{ options: ['-P', '--pager', '-H', '--html'] }]],
  ['ssh', [{ options: ['-o'], runs: SSH_COMMAND_KEY }, { options: ['-F'] }]],
  ['scp', [{ options: ['-S'] }, { options: ['-o'], runs: SSH_COMMAND_KEY }, { options: ['-F'] }]],
  ['sftp', [{ options: ['-S', '-D'] }, { options: ['-o'], runs: SSH_COMMAND_KEY }, { options: ['-F'] }]],
  ['npm', [{ options: ['--script-shell'] }]],
  ['pnpm', [{ options: ['--script-shell'] }]],
  ['yarn', [{ options: ['--script-shell'] }]],
  // fd 8 (`fd --help`), ripgrep 13 (`rg --help`: --pre COMMAND), GCC 12 and clang (`-wrapper
  // prog,args`, `-fplugin=FILE`, `-specs=FILE`, whose `%(…)` can run programs).
  ['fd', [{ options: ['-x', '--exec', '-X', '--exec-batch'] }]],
  ['fdfind', [{ options: ['-x', '--exec', '-X', '--exec-batch'] }]],
  ['rg', [{ options: ['--pre'] }]],
  ['gcc', COMPILER_RUNNERS],
  ['g++', COMPILER_RUNNERS],
  ['cc', COMPILER_RUNNERS],
  ['c++', COMPILER_RUNNERS],
  ['clang', COMPILER_RUNNERS],
  ['clang++', COMPILER_RUNNERS],
  ['vim', [{ options: ['-c', '--cmd'] }]],
  ['vi', [{ options: ['-c', '--cmd'] }]],
  ['nvim', [{ options: ['-c', '--cmd'] }]],
]);

/** make variables (on its command line) that name the shell or a program its rules run. */
const MAKE_PROGRAM_VARIABLES = new Set(
  'SHELL .SHELLFLAGS MAKESHELL MAKE CC CXX CPP AS AR LD FC LEX YACC RM M2C PC CO GET LINT MAKEINFO TEX'.split(' '),
);

/** Environment variables that name a program (or code) the command it prefixes will run. */
const PROGRAM_VARIABLES = new Set([
  'PAGER',
  'MANPAGER',
  'EDITOR',
  'VISUAL',
  'BROWSER',
  'SHELL',
  'BASH_ENV',
  'ENV',
  'PROMPT_COMMAND',
  'PATH',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
  'GCONV_PATH',
  'LESSOPEN',
  'LESSCLOSE',
  'RUSTC',
  'RUSTC_WRAPPER',
  'RUSTC_WORKSPACE_WRAPPER',
  'RUSTDOC',
  'CARGO_BUILD_RUSTC',
  'CARGO_BUILD_RUSTC_WRAPPER',
  'CARGO_BUILD_RUSTDOC',
  'GOFLAGS',
  'MAKEFLAGS',
  'MFLAGS',
  'TAR_OPTIONS',
  'RSYNC_RSH',
  'RSYNC_CONNECT_PROG',
  'SUDO_ASKPASS',
  'PERL5OPT',
  'RUBYOPT',
]);
/** `CARGO_TARGET_<triple>_RUNNER` / `_LINKER`. */
const CARGO_TARGET_PROGRAM = /^CARGO_TARGET_[A-Z0-9_]+_(RUNNER|LINKER)$/;
/** Builtins and programs whose NAME=value words set the environment of what runs later. */
const SETTERS = new Set(['env', 'export', 'declare', 'typeset', 'local', 'readonly']);

/** tmux commands that run a shell command they are given (tmux 3.3: `tmux list-commands`). */
const TMUX_RUNS = new Set(
  'new-session new new-window neww split-window splitw run-shell run respawn-pane respawnp respawn-window respawnw pipe-pane pipep if-shell if display-popup popup'.split(
    ' ',
  ),
);

/** `tar --to-command=CMD …`: which option runs what, for people; null when none does. */
export function optionRunsProgram(view: readonly string[]): string | null {
  const verb = view[0];
  if (verb === undefined) return null;
  const name = basename(verb);
  if (name === 'tmux') {
    // Commands may follow one another after `;` or `\;`: any word that is one of them counts.
    const runs = view.find((word, i) => i > 0 && TMUX_RUNS.has(word));
    if (runs !== undefined) return `tmux ${runs} runs a command`;
  }
  const runners = PROGRAM_OPTIONS.get(name);
  for (let i = 1; i < view.length; i++) {
    const word = view[i]!;
    if (name === 'make' || name === 'gmake') {
      const found = makeAssignment(word);
      if (found !== null) return `make ${found}`;
    }
    // `-` and `--` spell no option: optionValue finds none in them.
    if (runners === undefined || !word.startsWith('-')) continue;
    for (const runner of runners) {
      const value = optionValue(word, view[i + 1], runner.options);
      if (value === null) continue;
      if (runner.runs !== undefined && !runner.runs(value.value)) continue;
      return `${name} ${value.option} runs ${value.value === '' ? 'a program' : `'${value.value}'`}`;
    }
  }
  return null;
}

/** The option a word spells from `options` and its value (glued or the next word), or null. */
function optionValue(
  word: string,
  next: string | undefined,
  options: readonly string[],
): { option: string; value: string } | null {
  const eq = word.indexOf('=');
  const head = eq === -1 ? word : word.slice(0, eq);
  const glued = eq === -1 ? null : word.slice(eq + 1);
  for (const option of options) {
    const long = option.startsWith('--');
    const wholeWord = !long && option.length > 2; // `-TT`, `-exec`
    if (long ? head.length >= 4 && option.startsWith(head) : head === option)
      return { option, value: glued ?? next ?? '' };
    if (!long && !wholeWord && !word.startsWith('--')) {
      // A short option in a cluster: `-xI zstd`, `-Izstd`, `-oProxyCommand=x` (never in a glued value).
      const at = head.indexOf(option[1]!, 1);
      if (at === -1) continue;
      const rest = word.slice(at + 1);
      return { option, value: rest !== '' ? rest : (next ?? '') };
    }
  }
  return null;
}

/** `SHELL=/tmp/x`, `CC=id`, `X=$(shell id)`, `X!=id` on make's command line; null otherwise. */
function makeAssignment(word: string): string | null {
  if (!isAssignment(word) && !/^[A-Za-z_.][A-Za-z0-9_.]*\s*[!:?+]*=/.test(word)) return null;
  const eq = word.indexOf('=');
  const name = word.slice(0, eq).replace(/[!:?+\s]+$/, '');
  const value = word.slice(eq + 1);
  if (word.slice(0, eq).endsWith('!')) return `${name} != runs '${value}'`;
  if (MAKE_PROGRAM_VARIABLES.has(name)) return `${name}= runs '${value}'`;
  if (/\$[({]\s*shell\b/.test(value)) return `${name}= runs '${value}' through $(shell)`;
  return null;
}

/** `PAGER=x git log`, `env LD_PRELOAD=… ls`, `export RUSTC_WRAPPER=…`: the variable, or null. */
export function programEnvironment(view: readonly string[]): string | null {
  let i = 0;
  for (; i < view.length && isAssignment(view[i]!); i++) {
    const found = programVariable(view[i]!);
    if (found !== null) return found;
  }
  const verb = view[i];
  if (verb === undefined || !SETTERS.has(basename(verb))) return null;
  for (let k = i + 1; k < view.length; k++) {
    const found = programVariable(view[k]!);
    if (found !== null) return found;
  }
  return null;
}

function programVariable(word: string): string | null {
  if (!isAssignment(word)) return null;
  const name = word.slice(0, word.indexOf('='));
  if (!PROGRAM_VARIABLES.has(name) && !CARGO_TARGET_PROGRAM.test(name)) return null;
  return `${name}= runs '${word.slice(name.length + 1)}'`;
}
