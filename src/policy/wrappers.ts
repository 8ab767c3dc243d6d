// Looking through wrapper commands for deny and external-effect matching: `sudo rm -rf /`,
// `timeout 30 curl x`, `env A=1 git push`, `sh -c 'git push'`. Allow matching never does this.
// An unknown option inside a wrapper is read both ways (flag, or taking a value): more views can
// only find more denies and more ceilings.
import { isAssignment } from './tokenizer.ts';
import { packageBinReading } from './package-bins.ts';
import { CLI_GLOBAL_OPTIONS, subcommandStarts } from './cli-options.ts';
import { stepOption } from './options.ts';
import { findExecs, sshReadings } from './find-and-ssh.ts';
import type { OptionTable } from './options.ts';

import { WRAPPERS, type WrapperSpec } from './wrapper-table.ts';

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
/** How many leading words of argv name a wrapper of the table (2 for `npm exec`, `uv run`), or 0. */
export function wrapperLength(argv: readonly string[]): number {
  const first = argv[0];
  if (first === undefined) return 0;
  const spec = specFor(basename(first), argv);
  // A two-word row starts its options at 2 (`from`), a one-word row at 1.
  return spec === undefined ? 0 : (spec.from ?? 1);
}

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
    (RUNNER_CLIS.has(verb) && argv[1]?.startsWith('-') === true) ||
    packageBinReading(verb, argv) !== null ||
    (TWO_WORD_CLIS.has(verb) && mayBeGlobalOption(argv[1]))
  );
}

/** CLIs with a two-word runner in the table (`uv run`, `poetry run`, `nix develop`); npm, pnpm, yarn and bun have option tables instead. */
const TWO_WORD_CLIS: ReadonlySet<string> = new Set(
  [...WRAPPERS.keys()]
    // Stryker disable next-line StringLiteral: a one-word wrapper's name here finds no runner word after its options
    .filter((key) => key.includes(' '))
    .map((key) => key.split(' ')[0]!)
    .filter((cli) => !RUNNER_CLIS.has(cli)),
);

/** An option (`-q`, `--directory`) or bundler's version word (`bundle _2.4.0_ exec`). */
function mayBeGlobalOption(word: string | undefined): boolean {
  return word !== undefined && (word.startsWith('-') || (word.startsWith('_') && word.endsWith('_')));
}

/**
 * `uv -q run CMD`, `poetry -C x run CMD`, `nix -L develop -c CMD`: the CLI's own options come
 * before its runner word, and their values are not known here, so the first runner word after
 * them starts a reading (one more reading can only find more denies and ceilings).
 */
function runnerAfterGlobalOptions(view: readonly string[]): number {
  // Stryker disable next-line UnaryOperator: +1 reads the view itself, which is dropped as seen
  if (!mayBeGlobalOption(view[1])) return -1;
  const name = basename(view[0]!);
  for (let k = 2; k < view.length; k++) if (WRAPPERS.has(`${name} ${view[k]}`)) return k;
  return -1;
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
  // Seen views by length and end words, compared word by word: a key of the whole view
  // (JSON.stringify) cost a copy of every word for each of up to MAX_VIEWS readings.
  const seen = new Map<string, Array<readonly string[]>>();
  const commandStrings: string[] = [];
  const execs: string[][] = [];
  // Stryker disable next-line ArrayDeclaration: a string in the queue reads as one-letter words, none a wrapper
  const queue: Array<readonly string[]> = [];
  let truncated = false;

  const addView = (view: readonly string[]): void => {
    if (view.length === 0) return;
    // Stryker disable next-line StringLiteral,ArithmeticOperator: the key only narrows the comparison of sameWords
    const key = `${view.length}\0${view[0]}\0${view[view.length - 1]}`;
    const alike = seen.get(key);
    if (alike?.some((other) => sameWords(other, view)) === true) return;
    if (views.length >= MAX_VIEWS) {
      truncated = true;
      return;
    }
    if (alike === undefined) seen.set(key, [view]);
    else alike.push(view);
    // Every view but argv is a fresh array of its own; none is changed after this.
    views.push(view as string[]);
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
    if (name !== verb) addView([name, ...view.slice(1)]); // `/usr/bin/sudo …` is also `sudo …`
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
      for (const at of subcommandStarts(view, globals)) {
        if (at <= 1) continue;
        // Full: stop before copying the words. A crafted run of unknown options (`npm --u set --u
        // set …`) has a start at every word (80 ms at the cap). addView would also have dropped a
        // repeat of a seen view without marking the command: here it is marked (fails closed).
        if (views.length >= MAX_VIEWS) {
          truncated = true;
          break;
        }
        addView([name, ...view.slice(at)]);
      }
    // `pnpm git push`: a word that is not pnpm's own command runs as a binary or script.
    const bin = packageBinReading(name, view);
    if (bin !== null) addView(bin);
    if (TWO_WORD_CLIS.has(name)) {
      const at = runnerAfterGlobalOptions(view);
      if (at !== -1) addView([name, ...view.slice(at)]);
    }
    const spec = specFor(name, view);
    if (spec === undefined) continue;
    if (!skipWrapper(view, spec, addView, commandStrings)) truncated = true;
  }
  return { views, commandStrings, execs, truncated };
}

/**
 * The word is one of `flags`, or a cluster of short letters holding one of them: `entr -rs` is
 * `entr -r -s`, `nix develop -ic CMD` is `-i -c CMD`.
 */
function hasFlag(word: string, flags: ReadonlySet<string>): boolean {
  if (flags.has(word)) return true;
  if (word.length < 3 || word[0] !== '-' || !/^-[A-Za-z]+$/.test(word)) return false;
  for (let k = 1; k < word.length; k++) if (flags.has(`-${word[k]}`)) return true;
  return false;
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
  if (spec.startsCommand !== undefined) {
    const at = view.findIndex((word, i) => i >= from && hasFlag(word, spec.startsCommand!));
    if (at !== -1) {
      handRest(view.slice(at + 1), spec, view, addView, commandStrings);
      return true;
    }
  }
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
          // Stryker disable next-line MethodExpression: the leading - or + is no option letter of any shell
          for (const letter of word.slice(1)) {
            if (`-${letter}` === spec.shellCommandFlag) commandFlag = true;
            else if (spec.options.valued.has(`-${letter}`)) i++;
          }
          continue;
        }
      }
      if (spec.shellModeFlags !== undefined && hasFlag(word, spec.shellModeFlags)) shellMode = true;
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
    // `rustup run stable -- CMD`: a `--` after the positionals ends the wrapper's words.
    if (spec.positionals !== undefined && view[i] === '--') i++;
    handRest(view.slice(i), shellMode ? { ...spec, rest: 'shell' } : spec, view, addView, commandStrings);
  }
  return true;
}

/** The words a wrapper runs, as a reading, a command line for a shell, or its CLI's subcommand. */
function handRest(
  words: readonly string[],
  spec: WrapperSpec,
  view: readonly string[],
  addView: (v: readonly string[]) => void,
  commandStrings: string[],
): void {
  let rest = words;
  if (spec.endsCommand !== undefined) {
    const end = rest.findIndex((word) => spec.endsCommand!.has(word));
    if (end !== -1 && spec.argumentsAreCommands === true) {
      // `parallel ::: 'git push'` runs each argument; `parallel git ::: push` runs the template
      // with each argument appended (past the nested-command budget the line is unsafe).
      // After `::::` come files of arguments, not arguments.
      const template = rest.slice(0, end).join(' ');
      const replaced = replacementString(view);
      // Stryker disable next-line BooleanLiteral: the first word read is the separator, which sets it
      let files = false;
      for (const word of rest.slice(end)) {
        if (spec.endsCommand.has(word)) files = word.startsWith('::::');
        else if (files) continue;
        else if (end === 0) commandStrings.push(word);
        else {
          commandStrings.push(`${template} ${word}`);
          // `parallel -I% sh % ::: x.sh` runs `sh x.sh`.
          if (replaced !== undefined && template.includes(replaced))
            commandStrings.push(template.replaceAll(replaced, word));
        }
      }
    }
    if (end !== -1) rest = rest.slice(0, end);
  }
  // `watch CMD…`, `eval ARGS…`, `pnpm exec -c …`: the program hands the joined words to a
  // shell; the caller analyses that line (one level deeper), so it is not also a reading here.
  if (spec.rest === 'shell') {
    if (rest.length > 0) commandStrings.push(rest.join(' '));
  } else if (spec.rest === 'shells') {
    commandStrings.push(...rest);
  } else if (spec.rest === 'subcommand') {
    if (rest.length > 0) addView([basename(view[0]!), ...rest]);
  } else {
    addView(rest);
  }
}

/** parallel's own replacement string (`-I %`, `-I%`, `--replace=%`), which stands for each argument. */
function replacementString(view: readonly string[]): string | undefined {
  for (let i = 1; i < view.length; i++) {
    const word = view[i]!;
    if (word === '-I') return view[i + 1];
    if (word.startsWith('-I')) return word.slice(2);
    if (word.startsWith('--replace=')) return word.slice('--replace='.length);
  }
  return undefined;
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
