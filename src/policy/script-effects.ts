// sed and awk programs that reach past their input (issue 9 A.3): sed's w/W/r/R/e commands, the
// w and e flags of s///, awk's system(), pipes, output redirections and getline from a file, and
// programs read from a file (-f). The engine does not read these programs' paths, so such a
// command is never auto-approved. Bounded: a program longer than MAX_PROGRAM counts as one.
import { basename } from './wrappers.ts';

const MAX_PROGRAM = 4096;
const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk', 'busybox awk']);

// A sed command letter at a command position (after an address, `;`, `{`, `}` or a newline),
// or a flag of s/// ending in w or e.
const SED_COMMAND = /(?:^|[;{}\n0-9$/!\s])[wWrReF](?:\s|$)|(?:^|[;{}\n0-9$/!\s])[eRWwr]$/;

/** An `s` command whose flags (after its last delimiter) include w (write) or e (execute). Linear. */
function substituteFlags(word: string): boolean {
  for (const piece of word.split(/[;\n]/)) {
    const at = piece.indexOf('s');
    if (at < 0 || at + 1 >= piece.length) continue;
    const delimiter = piece[at + 1]!;
    const last = piece.lastIndexOf(delimiter);
    if (last <= at + 1) continue;
    const flags = piece.slice(last + 1);
    if (flags.includes('w') || flags.includes('e')) return true;
  }
  return false;
}
const AWK_EFFECT = /system\s*\(|\||>|getline\s*<|\bclose\s*\(|fflush|printf?[^;}]*>|ENVIRON|PROCINFO|@load|@include/;

/** Why a sed or awk reading runs more than a text transformation, or null. */
export function scriptSideEffect(view: readonly string[]): string | null {
  const verb = view[0];
  if (verb === undefined) return null;
  const name = basename(verb);
  if (name !== 'sed' && !AWKS.has(name)) return null;
  for (let i = 1; i < view.length; i++) {
    const word = view[i]!;
    if (
      word === '-f' ||
      word.startsWith('--file') ||
      (word.startsWith('-f') && !word.startsWith('--')) ||
      (name !== 'sed' && word === '-E')
    ) {
      return `${name} reading its program from a file`;
    }
    if (word.startsWith('-') && name !== 'sed') continue;
    if (word.length > MAX_PROGRAM) return `${name} program too long to read`;
    if (name === 'sed' ? SED_COMMAND.test(word) || substituteFlags(word) : AWK_EFFECT.test(word))
      return `${name} program that writes, reads or runs other files or commands`;
  }
  return null;
}
