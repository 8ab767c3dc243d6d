// "Always allow" (RN-675): the patterns a click writes, one unit per fragment (verb + subcommand,
// verb only, or the exact fragment), and the refusals: types that are always decided one by one
// (teto_do_sempre_permitir), external effects, privileged commands, unsafe constructs.
import { analyzeCommand } from './analysis.ts';
import { firstEffect, firstGitOverride, firstGitSmuggling } from './ceilings.ts';
import { unitHasDestructiveForms } from './destructive-forms.ts';
import { CEILING_COMMANDS } from './external-effect.ts';
import { isActionType, TIPOS_SEM_SEMPRE_PERMITIR } from './labels.ts';
import { MAX_COMMAND_LENGTH } from './limits.ts';
import { typePattern } from './pattern.ts';
import { basename, runsWordsAfterOptions, wrapperLength } from './wrappers.ts';
import { findProtectedWrite } from './scope.ts';
import { isAssignment, renderWord } from './tokenizer.ts';
import type { Fragment } from './tokenizer.ts';
import type { ActionType } from './types.ts';

export type AlwaysAllowRefusal = 'teto_do_sempre_permitir' | 'external_effect' | 'privileged' | 'unsafe_command';

export type AlwaysAllowPlan =
  | {
      kind: 'patterns';
      patterns: string[];
      /**
       * Patterns written as the whole fragment because its first word is a wrapper or an
       * interpreter (issue 9 A.6, a deviation from RN-675): `Terminal(sh)` would allow `sh -c …`.
       */
      keptWhole?: string[];
    }
  | { kind: 'refused'; reason: AlwaysAllowRefusal; message: string };

/**
 * Interpreters and tools that run code an argument names: a unit of their first word would allow
 * whatever they run, so "Always allow" writes the whole fragment instead. Every wrapper of the
 * wrappers table (wrapper-table.ts: `sh`, `env`, `timeout`, `xargs`, `npx`, `strace`, `screen`...)
 * counts too (wholeVerbLength); python, pypy, ruby, perl, php and node (and `python3.12`,
 * `nodejs`, `nodemon`, the like) are matched by prefix (WHOLE_FRAGMENT_PREFIXES).
 */
export const WHOLE_FRAGMENT_VERBS: ReadonlySet<string> = new Set([
  // Shells the wrappers table does not read.
  ...['ash', 'mksh', 'fish', 'csh', 'tcsh', 'toybox', 'pwsh', 'powershell'],
  // Programs whose arguments can run code: sed (e), tar (--to-command).
  'sed',
  'tar',
  // Privileged: refused (RN-418) before a pattern is planned; listed for a reader.
  // Stryker disable next-line StringLiteral: RN-418 refuses pkexec (PRIVILEGED) before any unit
  'pkexec',
  'gdb',
  'deno',
  'bun',
  'tsx',
  'ts-node',
  'lua',
  'luajit',
  'Rscript',
  'osascript',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'tclsh',
  'wish',
  'jshell',
  'groovy',
  'scala',
  'elixir',
  'erl',
  'escript',
  'julia',
  'swift',
  // sqlite3 (its `.shell` runs a command) and kill (`Terminal(kill)` would allow killing any
  // process, the runner too).
  'sqlite3',
  'kill',
  // Tools that run a program an option or a word names (`fd -x`, `rg --pre`, `gcc -wrapper`,
  // `tmux new-session CMD`): a unit would allow every such run.
  'tmux',
  'fd',
  'fdfind',
  'rg',
  'gcc',
  'g++',
  'cc',
  'c++',
  'clang',
  'clang++',
  // `Terminal(find)` (the unit of `find . -name x`) allows `find . -fprint F` and `-exec` of
  // whatever the rules allow.
  'find',
]);
/** Pairs that run the project's own program when given no operand (`cargo run --release`). */
const RUNS_THE_PROJECT: ReadonlySet<string> = new Set(['cargo run']);
/** Runners whose unit is safe with a target (`Terminal(make build)`), but not bare: `Terminal(make)` allows `make deploy`. */
const NOT_BARE: ReadonlySet<string> = new Set(['make', 'gmake']);
const WHOLE_FRAGMENT_PREFIXES: readonly string[] = ['python', 'pypy', 'ruby', 'perl', 'php', 'node'];
/** Two-word runners (`npm exec x`, `pnpm dlx x`): the pair is a wrapper. */
const WHOLE_FRAGMENT_PAIRS: ReadonlySet<string> = new Set([
  'npm exec',
  'npm x',
  'pnpm exec',
  'pnpm dlx',
  'yarn exec',
  'yarn dlx',
  'bun x',
  'bun run',
  'uv run',
  'poetry run',
  'pipenv run',
  'cargo run',
  'go run',
  // Runners of whatever follows (`bundle exec ruby -e …`, `mise x -- sh -c …`) and of a registry
  // package (`npm create x`, `pipx run x`).
  'bundle exec',
  'pipx run',
  'yarn node',
  'npm init',
  'npm create',
  'yarn create',
  'pnpm create',
  'bun create',
  'hatch run',
  'pdm run',
  'rye run',
  'conda run',
  'mamba run',
  'micromamba run',
  'nix run',
  'nix develop',
  'nix shell',
  'mise exec',
  'mise x',
  'asdf exec',
  'rbenv exec',
  'pyenv exec',
  'direnv exec',
  'perf stat',
  'perf record',
  'perf trace',
  // `Terminal(npm run)` allows every script; `Terminal(docker run)` any image, privileged or not.
  'npm run',
  'npm run-script',
  'pnpm run',
  'yarn run',
  'docker run',
  'docker exec',
  'podman run',
  'podman exec',
]);

/**
 * CLIs with a runner subcommand (`uv run`, `bundle exec`), and make: the verb alone as a unit
 * (`bundle`, `make build/app`) would allow the runner (`bundle exec ruby -e …`, `make deploy`).
 */
const RUNNER_CLIS: ReadonlySet<string> = new Set([
  ...NOT_BARE,
  ...[...WHOLE_FRAGMENT_PAIRS].map((p) => p.split(' ')[0]!),
]);

/**
 * How many leading words make a fragment's pattern the whole fragment (issue 9 A.6): 1 for a
 * wrapper or interpreter verb, 2 for a two-word runner, 0 when its unit is safe.
 */
function wholeVerbLength(argv: readonly string[]): number {
  const first = argv[0];
  if (first === undefined) return 0;
  const name = basename(first);
  // The pair first: `bun run` is a runner of its own, though `bun` alone is a whole verb too.
  if (WHOLE_FRAGMENT_PAIRS.has([name, ...argv.slice(1, 2)].join(' '))) return 2;
  if (WHOLE_FRAGMENT_VERBS.has(name) || WHOLE_FRAGMENT_PREFIXES.some((prefix) => name.startsWith(prefix))) return 1;
  // Every wrapper deny matching looks through runs a command too (`strace -f CMD`, `pnpm m exec CMD`).
  return wrapperLength(argv);
}

/** argv past its leading assignments: `CI=1 make test` runs `make test`. */
function commandOf(argv: readonly string[]): readonly string[] {
  let k = 0;
  while (k < argv.length && isAssignment(argv[k]!)) k++;
  return argv.slice(k);
}

/** Whether a fragment's pattern must be the whole fragment (issue 9 A.6). */
export function keptWhole(argv: readonly string[]): boolean {
  return wholeVerbLength(commandOf(argv)) > 0;
}

const refuse = (reason: AlwaysAllowRefusal, message: string): AlwaysAllowPlan => ({ kind: 'refused', reason, message });

/** `[A-Za-z][A-Za-z0-9._:-]*`, by a scan. */
function isWord(token: string): boolean {
  if (token === '') return false;
  for (let i = 0; i < token.length; i++) {
    const c = token[i]!;
    const letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    if (i === 0 ? !letter : !(letter || (c >= '0' && c <= '9') || c === '.' || c === '_' || c === ':' || c === '-'))
      return false;
  }
  return true;
}

/** A pattern with these tokens would also match an RN-418 ceiling command (`git`, `gh pr`). */
function isCeilingPrefix(tokens: readonly string[]): boolean {
  // A token past the ceiling's end meets `undefined`, so a longer unit is never a prefix.
  return CEILING_COMMANDS.some((ceiling) => tokens.every((t, k) => ceiling[k] === t));
}

const render = (tokens: readonly string[]): string => tokens.map(renderWord).join(' ');

/** What a command's unit is: its tokens, the exact fragment, or nothing to write. */
function unitOf(argv: readonly string[], redirected: boolean): readonly string[] | 'exact' | null {
  let unit: string[];
  if (argv.length === 1) unit = [argv[0]!];
  else if (argv[1]!.startsWith('-')) return 'exact';
  else if (isWord(argv[1]!)) unit = [argv[0]!, argv[1]!];
  else unit = [argv[0]!];
  if (isCeilingPrefix(unit)) return argv.length === unit.length ? null : 'exact';
  if (unit.length === 1 && RUNNER_CLIS.has(basename(unit[0]!))) return argv.length === 1 ? null : 'exact';
  // `git branch -a` stays exact: `Terminal(git branch)` would also match `git branch -D main`.
  // The bare unit itself (`git branch`, `docker image`) writes nothing, like `git` alone.
  if (unitHasDestructiveForms(unit)) return argv.length === unit.length && !redirected ? null : 'exact';
  return unit;
}

/** The pattern content for one fragment, or null when it writes nothing. */
function unitFor(fragment: Fragment): string | null {
  const argv = commandOf(fragment.argv);
  // `FOO=1` alone: `Terminal(FOO=1)` would allow `FOO=1 rm -rf src`.
  if (argv.length === 0) return null;
  const unit = unitOf(argv, fragment.redirects.length > 0);
  if (unit === null) return null;
  // `FOO=1 cmd`: a unit starting with an assignment would allow the whole verb; keep it exact
  // (and, above, write nothing where `cmd` alone writes nothing: `CI=1 git` is `git`).
  return unit === 'exact' || argv.length < fragment.argv.length ? fragment.text : render(unit);
}

export function patternsForAction(actionType: ActionType, payload: Record<string, unknown>): AlwaysAllowPlan {
  if (!isActionType(actionType))
    return refuse('unsafe_command', `Unknown action type ${String(actionType)}: nothing was written.`);
  if (TIPOS_SEM_SEMPRE_PERMITIR.includes(actionType)) {
    return refuse(
      'teto_do_sempre_permitir',
      `${actionType} is always decided one instance at a time: "Always allow" writes nothing (teto_do_sempre_permitir).`,
    );
  }
  if (actionType !== 'terminal') return { kind: 'patterns', patterns: [typePattern(actionType)] };

  const command = payload?.['command'];
  if (typeof command !== 'string' || command.trim() === '')
    return refuse('unsafe_command', 'The action has no command: nothing was written.');
  if (command.length > MAX_COMMAND_LENGTH)
    return refuse(
      'unsafe_command',
      `The command is longer than ${MAX_COMMAND_LENGTH} characters: approve this instance; "Always allow" writes nothing.`,
    );
  const analysis = analyzeCommand(command);
  const finding = analysis.findings[0];
  if (finding !== undefined)
    return refuse(
      'unsafe_command',
      `The command contains ${finding.what}: approve this instance; "Always allow" writes nothing.`,
    );
  const override = firstGitOverride(analysis);
  if (override !== null)
    return refuse(
      'unsafe_command',
      `git ${override} changes what git runs: approve this instance; "Always allow" writes nothing.`,
    );
  // Stryker disable next-line StringLiteral: with no cwd (null) the paths are read as written and the root is not used
  const write = findProtectedWrite(analysis, null, '');
  if (write !== null)
    return refuse('unsafe_command', `The command writes the protected file ${write}: "Always allow" writes nothing.`);
  const effect = firstEffect(analysis);
  if (effect !== null) {
    return effect.kind === 'privileged'
      ? refuse(
          'privileged',
          `${effect.what} is a privileged command: approve this instance; "Always allow" writes nothing (RN-418).`,
        )
      : refuse(
          'external_effect',
          `${effect.what} has an external effect: approve this instance; "Always allow" writes nothing (RN-418).`,
        );
  }
  const smuggled = firstGitSmuggling(analysis);
  if (smuggled !== null)
    return refuse(
      'unsafe_command',
      `${smuggled} changes what git runs: approve this instance; "Always allow" writes nothing.`,
    );
  // A bare runner (`make`, `find`, `npm run`) as its own pattern would allow every use of it, also
  // with a redirection (`make 2>&1`: its unit is `make`; `Terminal(sh < x.sh)` matches `sh < x.sh
  // -c id`) or after assignments (`CI=1 make`).
  const bare = analysis.fragments.find((f) => {
    const argv = commandOf(f.fragment.argv);
    const verb = argv[0];
    const length = verb !== undefined && NOT_BARE.has(basename(verb)) ? 1 : wholeVerbLength(argv);
    return length > 0 && argv.length === length;
  });
  if (bare !== undefined) {
    const runner = render(commandOf(bare.fragment.argv));
    return refuse(
      'unsafe_command',
      `"${runner}" alone as a pattern would allow every ${runner} command: approve this instance; "Always allow" writes nothing.`,
    );
  }
  // A wrapper or interpreter given only its own options (`env CI=1`, `timeout 60`, `nice -n 5`,
  // `sh -x`, `docker run --rm`, `python3 -q`) runs nothing it names: written whole, its pattern
  // would allow whatever follows (`env CI=1 rm -rf src`).
  const empty = analysis.fragments.find((f) => {
    const argv = commandOf(f.fragment.argv);
    const length = wholeVerbLength(argv);
    if (length === 0) return false;
    if (!RUNS_THE_PROJECT.has(render(argv.slice(0, length))) && argv.slice(length).every((w) => w.startsWith('-')))
      return true;
    return runsWordsAfterOptions(argv) && f.views.length <= 1 && f.nested.length === 0 && f.execs.length === 0;
  });
  if (empty !== undefined) {
    const wrapper = render(commandOf(empty.fragment.argv));
    return refuse(
      'unsafe_command',
      `"${wrapper}" names nothing to run: as a pattern it would allow any command after it; approve this instance; "Always allow" writes nothing.`,
    );
  }
  const patterns: string[] = [];
  const whole: string[] = [];
  for (const f of analysis.fragments) {
    const isWhole = keptWhole(f.fragment.argv);
    const unit = isWhole ? f.fragment.text : unitFor(f.fragment);
    if (unit === null) continue;
    const pattern = `Terminal(${unit})`;
    if (!patterns.includes(pattern)) patterns.push(pattern);
    if (isWhole && !whole.includes(pattern)) whole.push(pattern);
  }
  return whole.length === 0 ? { kind: 'patterns', patterns } : { kind: 'patterns', patterns, keptWhole: whole };
}
