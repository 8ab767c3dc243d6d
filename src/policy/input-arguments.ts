// Arguments that arrive on stdin (issue 9, attacked after A.5): `awk 'BEGIN{print "../s"}' |
// xargs cat` under `Terminal(xargs:*)` read outside the root, because xargs appends words it reads
// from its input (or from `-a FILE`) and no rule can read data. The same holds for `find … -print0
// | xargs -0`, `xargs -I{}`, and GNU `parallel` without `:::` (or with `::::` FILE). Such words are
// like `$f`: whatever they name is unknown. So a command fed this way is outside the path scope
// (the scope cannot be judged), and, when it may write, could name a protected path. Feeding
// `echo`/`printf` (and xargs with no command, which is echo) only prints the words; parallel with
// no command runs each line it reads as a command line.
import { readsWithAnyArguments } from './read-only.ts';
import { basename } from './wrappers.ts';

/** xargs options whose value is the next word (GNU findutils, BSD). */
const XARGS_VALUED = new Set(['-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s', '-J', '-R', '-S']);
/** Long options whose value may be the next word. */
const XARGS_LONG_VALUED = new Set([
  '--arg-file',
  '--delimiter',
  '--max-lines',
  '--max-args',
  '--max-procs',
  '--max-chars',
  '--process-slot-var',
]);
/** GNU parallel options whose value is the next word (the common ones; any other reads as a flag). */
const PARALLEL_VALUED = new Set(
  '-a -d -E -I -j -J -L -n -N -P -S -C --arg-file --delimiter --jobs --max-procs --sshlogin --colsep --replace --max-args --max-lines --tmpdir --results --joblog --timeout --delay --basefile --workdir'.split(
    ' ',
  ),
);
/** Commands that only print the words they are given. */
const PRINTERS = new Set(['echo', 'printf']);

export interface InputArguments {
  /** For people: `xargs cat`. */
  what: string;
  /** The command fed only reads what it is given (cat, grep…): no protected path can be written. */
  readOnly: boolean;
}

/** The command xargs or parallel runs with arguments it reads from its input, or null. */
export function inputArguments(view: readonly string[]): InputArguments | null {
  const verb = view[0];
  if (verb === undefined) return null;
  const name = basename(verb);
  if (name !== 'xargs' && name !== 'parallel') return null;
  if (name === 'parallel' && view.includes(':::') && !view.includes('::::') && !hasArgFile(view)) return null;
  const valued = name === 'xargs' ? XARGS_VALUED : PARALLEL_VALUED;
  let i = 1;
  while (i < view.length) {
    const word = view[i]!;
    if (word === '--') {
      i++;
      break;
    }
    if (!word.startsWith('-') || word === '-') break;
    const eq = word.indexOf('=');
    const long = word.startsWith('--') ? (eq === -1 ? word : word.slice(0, eq)) : null;
    if (long !== null) i += eq === -1 && (XARGS_LONG_VALUED.has(long) || valued.has(long)) ? 2 : 1;
    else i += valued.has(word) ? 2 : 1; // `-n1`, `-I{}`: glued values take one word
  }
  const command = view.slice(i, name === 'parallel' ? firstOf(view, i, [':::', '::::']) : view.length);
  // parallel with no command runs each input line as a command line: nothing can be known of it.
  if (command[0] === undefined && name === 'parallel') return { what: 'parallel', readOnly: false };
  const fed = command[0] === undefined ? 'echo' : basename(command[0]);
  // xargs with no command runs echo, so past this line the command has a word.
  if (PRINTERS.has(fed)) return null;
  // The words appended to the command (from the input, or parallel's after `:::`) may be any
  // option: `xargs sort` runs `sort -o permissions.json` when its input says so.
  return { what: `${name} ${fed}`, readOnly: readsWithAnyArguments(command) };
}

function hasArgFile(view: readonly string[]): boolean {
  return view.some((w) => w.startsWith('--arg-file') || w.startsWith('-a'));
}

function firstOf(view: readonly string[], from: number, words: readonly string[]): number {
  for (let i = from; i < view.length; i++) if (words.includes(view[i]!)) return i;
  return view.length;
}
