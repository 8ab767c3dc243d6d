// Signals sent past the command's own processes (issue 9, attacked after A): under an allowed
// `Terminal(kill:*)`, `kill -9 -1` kills every process of the runner's user (the runner too),
// `kill 0` the whole process group, `kill -- -PGID` another group, `kill 1` init, and `pkill .` /
// `killall node` whatever happens to match a name. The rule: `kill` of specific positive process
// ids (`kill 4242`, `kill $!`, `kill %1`) stays as allowed; pid 1, 0, -1 and any negative id (a
// process group), a name (util-linux kill takes names), or an id the engine cannot read (`$PID`)
// ask; `pkill`, `killall`, `killall5` and `skill` pick processes by name or owner and always ask,
// except when they only list (`killall -l`).
import { basename } from './wrappers.ts';

/** `kill` options that take the next word as their value (bash, dash, procps, util-linux). */
const KILL_VALUED = new Set(['-s', '-n', '-q', '--signal', '--queue', '--timeout']);
/** `kill` options after which nothing is signalled. */
const KILL_LISTS = new Set(['-l', '-L', '--list', '--table', '--help', '-h', '-V', '--version']);
/** Programs that choose their targets by name, owner or terminal. */
const MASS_KILLERS = new Set(['pkill', 'killall', 'killall5', 'skill']);
const MASS_LISTS = new Set(['-l', '--list', '-L', '--table', '-V', '--version', '-h', '--help']);

/** Why this reading signals processes outside its own, for people; null when it does not. */
export function signalsOutside(view: readonly string[]): string | null {
  const verb = view[0];
  if (verb === undefined) return null;
  const name = basename(verb);
  if (MASS_KILLERS.has(name)) {
    const args = view.slice(1);
    if (args.length > 0 && args.every((word) => MASS_LISTS.has(word))) return null;
    return `${name} picks the processes it signals by name or owner`;
  }
  if (name !== 'kill') return null;
  let signalRead = false;
  let optionsOver = false;
  for (let i = 1; i < view.length; i++) {
    const word = view[i]!;
    if (!optionsOver && word === '--') {
      optionsOver = true;
      continue;
    }
    if (!optionsOver && KILL_LISTS.has(word)) return null;
    if (!optionsOver && KILL_VALUED.has(word)) {
      // util-linux `--timeout MS SIGNAL` takes two words.
      i += word === '--timeout' ? 2 : 1;
      signalRead = true;
      continue;
    }
    if (!optionsOver && word.startsWith('--')) {
      signalRead = true; // `--signal=KILL`, `--queue=5`, `--verbose`
      continue;
    }
    // Only the first word may be the signal (`kill -9 -1`: -9 is the signal, -1 the target).
    if (!optionsOver && !signalRead && word.startsWith('-') && word.length > 1) {
      signalRead = true; // `-9`, `-KILL`, `-sKILL`, `-n9`
      continue;
    }
    signalRead = true;
    const reason = targetOutside(word);
    if (reason !== null) return `kill ${word} signals ${reason}`;
  }
  return null;
}

/** Why one `kill` target reaches outside the command's own processes, or null. */
function targetOutside(word: string): string | null {
  if (word === '$!' || word === '${!}') return null; // the last job this shell started
  if (word.startsWith('%')) return null; // a job of this shell
  if (!/^[+-]?[0-9]+$/.test(word)) return 'a process the engine cannot name (a name or an expansion)';
  const pid = Number(word);
  if (pid === -1) return 'every process the user may signal';
  // Before 0: `pid <= 0` would then take 0 for another group (-0 is not < 0).
  if (pid < 0) return 'a whole process group';
  if (pid === 0) return 'its whole process group';
  if (pid === 1) return 'init (pid 1)';
  return null;
}
