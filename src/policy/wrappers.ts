// Looking through wrapper commands for deny and external-effect matching: `sudo rm -rf /`,
// `timeout 30 curl x`, `env A=1 git push`, `sh -c 'git push'`. Allow matching never does this.
// An unknown option inside a wrapper is read both ways (flag, or taking a value): more views can
// only find more denies and more ceilings.
import { isAssignment } from './tokenizer.ts';
import { optionTable, stepOption } from './options.ts';
import type { OptionTable } from './options.ts';

interface WrapperSpec {
  options: OptionTable;
  /** Positional words the wrapper takes before the command (timeout's duration). */
  positionals?: number;
  /** Skips NAME=value words after the options (env). */
  assignments?: boolean;
  /** Options whose value is itself a command line (`env -S`, `sh -c`). */
  commandOptions?: ReadonlySet<string>;
}

const SHELL: WrapperSpec = {
  options: optionTable('-o +o -O +O --rcfile --init-file', '-e -x -u -v -n -f -h -i -l -r -s -a -b -m -p -t -E -T -P -B -H -k --login --norc --noprofile --posix --restricted --verbose --noediting'),
  commandOptions: new Set(['-c']),
};

const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map<string, WrapperSpec>([
  ['sudo', { options: optionTable('-u -g -C -D -h -p -r -t -U -T --user --group --close-from --chdir --host --prompt --role --type --other-user --command-timeout', '-A -b -E -e -H -i -K -k -l -n -P -S -s -V -v -B -N --preserve-env --login --shell --non-interactive --background --askpass --stdin --set-home --reset-timestamp --remove-timestamp --preserve-groups') }],
  ['doas', { options: optionTable('-u -C', '-n -s -L') }],
  ['env', { options: optionTable('-u -C --unset --chdir', '-i -0 -v --ignore-environment --null --debug'), assignments: true, commandOptions: new Set(['-S', '--split-string']) }],
  ['timeout', { options: optionTable('-s -k --signal --kill-after', '-v --preserve-status --foreground --verbose'), positionals: 1 }],
  ['nice', { options: optionTable('-n --adjustment', '') }],
  ['nohup', { options: optionTable('', '') }],
  ['setsid', { options: optionTable('', '-c -f -w --ctty --fork --wait') }],
  ['command', { options: optionTable('', '-p -v -V') }],
  ['builtin', { options: optionTable('', '') }],
  ['exec', { options: optionTable('-a', '-c -l') }],
  ['time', { options: optionTable('-o -f --output --format', '-p -a -v -q --append --verbose --portability --quiet') }],
  ['xargs', { options: optionTable('-a -d -E -I -L -n -P -s --arg-file --delimiter --eof --replace --max-lines --max-args --max-procs --max-chars --process-slot-var', '-0 -r -t -p -x -e -i -l -o --null --no-run-if-empty --verbose --interactive --exit --open-tty') }],
  ['sh', SHELL],
  ['bash', SHELL],
  ['zsh', SHELL],
  ['dash', SHELL],
  ['ksh', SHELL],
  // Shell words that run the command after them.
  ['!', { options: optionTable('', '') }],
  ['{', { options: optionTable('', '') }],
  ['if', { options: optionTable('', '') }],
  ['then', { options: optionTable('', '') }],
  ['elif', { options: optionTable('', '') }],
  ['else', { options: optionTable('', '') }],
  ['do', { options: optionTable('', '') }],
  ['while', { options: optionTable('', '') }],
  ['until', { options: optionTable('', '') }],
]);

/** The last path segment: `/usr/bin/git` -> `git`. */
export function basename(word: string): string {
  const slash = word.lastIndexOf('/');
  return slash < 0 ? word : word.slice(slash + 1);
}

export interface Unwrapped {
  /** The argv itself plus every command found behind wrappers (deduplicated by content). */
  views: string[][];
  /** Command lines found as strings (`sh -c STRING`, `env -S STRING`): tokenized by the caller. */
  commandStrings: string[];
  /** More readings than MAX_VIEWS: the caller treats the command as unsafe. */
  truncated: boolean;
}

const MAX_VIEWS = 32;

/** Every reading of `argv` through the wrappers; linear in argv per view, at most MAX_VIEWS views. */
export function unwrap(argv: readonly string[]): Unwrapped {
  const views: string[][] = [];
  const seen = new Set<string>();
  const commandStrings: string[] = [];
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
    if (name !== verb) addView([name, ...view.slice(1)]);
    const spec = WRAPPERS.get(name);
    if (spec === undefined) continue;
    if (!skipWrapper(view, spec, addView, commandStrings)) truncated = true;
  }
  return { views, commandStrings, truncated };
}

/** Readings of one wrapper's options; each unknown option forks a reading (bounded). */
const MAX_FORKS = 8;

function skipWrapper(
  view: readonly string[],
  spec: WrapperSpec,
  addView: (v: readonly string[]) => void,
  commandStrings: string[],
): boolean {
  const starts: number[] = [1];
  let forks = 0;
  while (starts.length > 0) {
    let i = starts.pop()!;
    let done = false;
    while (!done) {
      const word = view[i];
      if (word === undefined) break;
      if (spec.commandOptions !== undefined) {
        const inline = commandOptionValue(word, spec.commandOptions);
        if (inline !== undefined) {
          if (inline !== '') commandStrings.push(inline);
          else if (view[i + 1] !== undefined) commandStrings.push(view[i + 1]!);
          if (spec === SHELL) {
            done = true; // sh -c STRING: the rest are $0, $1...
            continue;
          }
          i += inline !== '' ? 1 : 2;
          continue;
        }
      }
      // `nice -10 cmd`: a numeric option.
      if (word.length > 1 && word[0] === '-' && isNumber(word.slice(1))) {
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
      starts.push(i + 2);
      i++;
    }
    if (done || spec === SHELL) continue; // `sh script.sh`: the script's contents cannot be seen
    if (spec.assignments === true) while (i < view.length && isAssignment(view[i]!)) i++;
    i += spec.positionals ?? 0;
    addView(view.slice(i));
  }
  return true;
}

/** For `-c`, `-S`: '' when the value is the next word, the value when attached, undefined otherwise. */
function commandOptionValue(word: string, options: ReadonlySet<string>): string | undefined {
  if (options.has(word)) return '';
  for (const option of options) {
    if (option.startsWith('--') && word.startsWith(option + '=')) return word.slice(option.length + 1);
  }
  // A short cluster containing c: `bash -lc 'cmd'`, `sh -ec 'cmd'`.
  if (options.has('-c') && word.length > 2 && word[0] === '-' && word[1] !== '-' && onlyLetters(word.slice(1)) && word.includes('c')) return '';
  if (options.has('-S') && word.startsWith('-S') && word.length > 2) return word.slice(2);
  return undefined;
}

function onlyLetters(s: string): boolean {
  for (const c of s) if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  return true;
}

function isNumber(s: string): boolean {
  if (s === '') return false;
  for (const c of s) if (c < '0' || c > '9') return false;
  return true;
}
