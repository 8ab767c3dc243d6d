// Looking through wrapper commands for deny and external-effect matching: `sudo rm -rf /`,
// `timeout 30 curl x`, `env A=1 git push`, `sh -c 'git push'`. Allow matching never does this.
// An unknown option inside a wrapper is read both ways (flag, or taking a value): more views can
// only find more denies and more ceilings.
import { isAssignment } from './tokenizer.ts';
import { CLI_GLOBAL_OPTIONS, subcommandStarts } from './cli-options.ts';
import { optionTable, stepOption } from './options.ts';
import type { OptionTable } from './options.ts';

interface WrapperSpec {
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
   * nothing we can see (`sh script.sh`, `script FILE`).
   */
  rest?: 'command' | 'shell' | 'none';
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

const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map<string, WrapperSpec>([
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

/** The last path segment: `/usr/bin/git` -> `git`. */
export function basename(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

export interface Unwrapped {
  /** The argv itself plus every command found behind wrappers (deduplicated by content). */
  views: string[][];
  /** Command lines found as strings (`sh -c STRING`, `env -S STRING`): tokenized by the caller. */
  commandStrings: readonly string[];
  /** Commands `find -exec` runs: judged like extra fragments, also for allow matching. */
  execs: readonly string[][];
  /** More readings than MAX_VIEWS: the caller treats the command as unsafe. */
  truncated: boolean;
}

const MAX_VIEWS = 32;

/** The wrapper spec for a view: by its verb, or by verb + subcommand (`npm exec`). */
function specFor(name: string, view: readonly string[]): WrapperSpec | undefined {
  const twoWord = WRAPPERS.get(`${name} ${view[1]}`);
  if (twoWord !== undefined) return twoWord;
  const spec = WRAPPERS.get(name);
  return spec?.from === 2 ? undefined : spec;
}

/**
 * Whether argv starts with a wrapper whose words after its options are a command it runs (`env`,
 * `timeout`, `nice`, `npm exec`, `watch`): not `sh script.sh`, whose operand is a script.
 */
export function runsWordsAfterOptions(argv: readonly string[]): boolean {
  const verb = argv[0];
  if (verb === undefined) return false;
  const spec = specFor(basename(verb), argv);
  return spec !== undefined && spec.rest !== 'none';
}

const NOTHING: readonly never[] = Object.freeze([]);

/** CLIs with two-word runners (`npm exec`, `bun x`): their global options may come first (`pnpm -r exec`). */
const RUNNER_CLIS: ReadonlyMap<string, OptionTable> = new Map(
  ['npm', 'pnpm', 'yarn', 'bun'].map((cli) => [cli, CLI_GLOBAL_OPTIONS.get(cli)!]),
);

/** Whether argv can have a reading other than itself (a wrapper, a path verb, an assignment...). */
function mayWrap(argv: readonly string[]): boolean {
  const verb = argv[0] ?? '';
  if (verb.includes('/') || verb.includes('=')) return true;
  return (
    WRAPPERS.has(verb) ||
    verb === 'find' ||
    verb === 'ssh' ||
    WRAPPERS.has(`${verb} ${argv[1]}`) || // `npm exec`, `pnpm dlx`... (no key ends in "undefined")
    (RUNNER_CLIS.has(verb) && argv[1]?.startsWith('-') === true)
  );
}

/** Every reading of `argv` through the wrappers; linear in argv per view, at most MAX_VIEWS views. */
export function unwrap(argv: readonly string[]): Unwrapped {
  // Most fragments are a plain command: one reading, nothing to allocate but the view itself.
  if (!mayWrap(argv))
    return {
      views: argv.length === 0 ? [] : [argv as string[]],
      commandStrings: NOTHING,
      execs: NOTHING,
      truncated: false,
    };
  const views: string[][] = [];
  const seen = new Set<string>();
  const commandStrings: string[] = [];
  const execs: string[][] = [];
  const queue: Array<readonly string[]> = [];
  let truncated = false;

  const addView = (view: readonly string[]): void => {
    if (view.length === 0) return;
    const key = JSON.stringify(view);
    if (seen.has(key)) return;
    if (views.length >= MAX_VIEWS) {
      truncated = true;
      return;
    }
    seen.add(key);
    views.push([...view]);
    queue.push(view);
  };

  addView(argv);
  while (queue.length > 0) {
    const view = queue.shift()!;
    // Leading assignments: `FOO=1 cmd`.
    let start = 0;
    while (start < view.length && isAssignment(view[start]!)) start++;
    if (start > 0) {
      addView(view.slice(start));
      continue;
    }
    const verb = view[0]!;
    const name = basename(verb);
    addView([name, ...view.slice(1)]); // `/usr/bin/sudo …` is also `sudo …` (the same view is kept once)
    if (name === 'find') {
      for (const inner of findExecs(view)) {
        execs.push(inner);
        addView(inner);
      }
      continue;
    }
    if (name === 'ssh') {
      sshReadings(view, commandStrings);
      continue;
    }
    // `pnpm -r exec CMD`, `npm --prefix x exec CMD`: also read without the global options.
    const globals = RUNNER_CLIS.get(name);
    if (globals !== undefined && view[1]?.startsWith('-') === true)
      for (const at of subcommandStarts(view, globals)) if (at > 1) addView([name, ...view.slice(at)]);
    const spec = specFor(name, view);
    if (spec === undefined) continue;
    if (!skipWrapper(view, spec, addView, commandStrings)) truncated = true;
  }
  return { views, commandStrings, execs, truncated };
}

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * `find … -exec CMD … ;` / `-exec CMD … {} +`: the commands find runs. `-delete` removes what
 * it finds: it is read as `rm -f {}`, so it needs rm allowed like any other deletion. One scan.
 */
function findExecs(view: readonly string[]): string[][] {
  const found: string[][] = [];
  let i = 1;
  while (i < view.length) {
    if (view[i] === '-delete') found.push(['rm', '-f', '{}']);
    if (!FIND_EXEC.has(view[i]!)) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < view.length && view[j] !== ';' && !(view[j] === '+' && view[j - 1] === '{}')) j++;
    if (j > i + 1) found.push(view.slice(i + 1, j));
    i = j + 1;
  }
  return found;
}

const SSH_OPTIONS = optionTable(
  '-b -B -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w',
  '-4 -6 -A -a -C -f -G -g -K -k -M -N -n -q -s -T -t -V -v -X -x -Y -y',
);
/** `-o` keys whose value is a command ssh runs on this machine. */
const SSH_LOCAL_COMMANDS = new Set(['proxycommand', 'localcommand', 'knownhostscommand']);

/**
 * `ssh [opts] host [opts] CMD…`: the remote command line (the words joined, as the remote shell
 * reads them), and commands ssh runs locally (`-o ProxyCommand=…`). ssh reads options again
 * after the host, so they are skipped there too. Unknown options are read as flags: ssh refuses
 * to start with an option it does not know.
 */
function sshReadings(view: readonly string[], commandStrings: string[]): void {
  let host = false;
  let i = 1;
  while (i < view.length) {
    const word = view[i]!;
    const option = word.startsWith('-o') ? (word.length > 2 ? word.slice(2) : view[i + 1]) : undefined;
    if (option !== undefined) {
      const cut = option.search(/[= ]/);
      if (cut > 0 && SSH_LOCAL_COMMANDS.has(option.slice(0, cut).toLowerCase()))
        commandStrings.push(option.slice(cut + 1));
    }
    const step = stepOption(view, i, SSH_OPTIONS);
    if (step.kind === 'skip') i = step.next;
    else if (step.kind === 'unknown') i++;
    else if (!host) {
      host = true;
      i++;
    } else {
      commandStrings.push(view.slice(i).join(' '));
      return;
    }
  }
}

/** Readings of one wrapper's options; each unknown option forks a reading (bounded). */
const MAX_FORKS = 8;

function skipWrapper(
  view: readonly string[],
  spec: WrapperSpec,
  addView: (v: readonly string[]) => void,
  commandStrings: string[],
): boolean {
  const from = spec.from ?? 1;
  if (spec.commandOptionsAnywhere === true) {
    for (let i = from; i < view.length; i++) {
      const inline = commandOptionValue(view[i]!, spec.commandOptions!, spec.options);
      if (inline === undefined) continue;
      if (inline !== '') commandStrings.push(inline);
      else if (view[i + 1] !== undefined) commandStrings.push(view[++i]!);
    }
    if (spec.rest === 'none') return true; // su, script, rsync -e: nothing else runs a command
  }
  // A reading forked at an unknown option keeps what the words before it switched on.
  const starts: Fork[] = [{ at: from, commandFlag: false, shellMode: false }];
  let forks = 0;
  while (starts.length > 0) {
    const fork = starts.pop()!;
    let i = fork.at;
    let commandFlag = fork.commandFlag;
    let shellMode = fork.shellMode;
    for (;;) {
      const word = view[i];
      if (word === undefined) break;
      if (spec.commandOptions !== undefined && spec.commandOptionsAnywhere !== true) {
        const inline = commandOptionValue(word, spec.commandOptions, spec.options);
        if (inline !== undefined) {
          if (inline !== '') commandStrings.push(inline);
          else if (view[i + 1] !== undefined) commandStrings.push(view[i + 1]!);
          i += inline !== '' ? 1 : 2;
          continue;
        }
      }
      if (spec.shellCommandFlag !== undefined) {
        if (word === '-' || word === '--') {
          i++;
          break;
        }
        // `+` alone is an empty cluster: bash skips it (`bash + -c CMD` runs CMD).
        if ((word[0] === '-' || word[0] === '+') && word[1] !== '-') {
          i++;
          for (const letter of word.slice(1)) {
            if (`-${letter}` === spec.shellCommandFlag) commandFlag = true;
            else if (spec.options.valued.has(`-${letter}`)) i++;
          }
          continue;
        }
      }
      if (spec.shellModeFlags?.has(word) === true) shellMode = true;
      // `nice -10 cmd`: a numeric option.
      if (word[0] === '-' && isNumber(word.slice(1))) {
        i++;
        continue;
      }
      const step = stepOption(view, i, spec.options);
      if (step.kind === 'end') break;
      if (step.kind === 'skip') {
        i = step.next;
        continue;
      }
      // Unknown option: also read it as taking a value, on a separate reading.
      if (++forks > MAX_FORKS) return false;
      starts.push({ at: i + 2, commandFlag, shellMode });
      i++;
    }
    if (commandFlag) {
      // sh -c STRING: the first word after the options; the rest are $0, $1...
      const line = view[i];
      if (line !== undefined) commandStrings.push(line);
      continue;
    }
    if (spec.rest === 'none') continue; // `sh script.sh`: the script's contents cannot be seen
    if (spec.assignments === true) while (i < view.length && isAssignment(view[i]!)) i++;
    i += spec.positionals ?? 0;
    const rest = view.slice(i);
    // `watch CMD…`, `eval ARGS…`, `pnpm exec -c …`: the program hands the joined words to a
    // shell; the caller analyses that line (one level deeper), so it is not also a reading here.
    if (spec.rest === 'shell' || shellMode) {
      if (rest.length > 0) commandStrings.push(rest.join(' '));
    } else {
      addView(rest);
    }
  }
  return true;
}

interface Fork {
  at: number;
  commandFlag: boolean;
  shellMode: boolean;
}

/** For `-c`, `-S`: '' when the value is the next word, the value when attached, undefined otherwise. */
function commandOptionValue(word: string, options: ReadonlySet<string>, table: OptionTable): string | undefined {
  if (options.has(word)) return '';
  for (const option of options) {
    if (option.startsWith('--') && word.startsWith(option + '=')) return word.slice(option.length + 1);
  }
  // A short cluster: flags, then the command option, whose value is the rest of the word or the
  // next word (`su -lc CMD`, `script -qc'CMD'`, `env -iS CMD`; but in `env -uS`, S is -u's value).
  if (word[0] === '-' && word[1] !== '-') {
    for (let k = 1; k < word.length; k++) {
      if (options.has(`-${word[k]}`)) return word.slice(k + 1);
      if (table.valued.has(`-${word[k]}`)) return undefined;
    }
  }
  return undefined;
}

function isNumber(s: string): boolean {
  if (s === '') return false;
  for (const c of s) if (c < '0' || c > '9') return false;
  return true;
}
