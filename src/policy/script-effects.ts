// sed and awk programs that reach past their input (issue 9 A.3): sed's w/W/r/R/e commands, the
// w and e flags of s/// (sed-program.ts), awk's system(), pipes, output redirections and getline
// from a file (awk-program.ts), and programs read from a file (-f). The engine does not read these programs' paths, so such a
// command is never auto-approved. Bounded: a program longer than MAX_PROGRAM counts as one.
import { awkProgramReaches } from './awk-program.ts';
import { sedProgramReaches } from './sed-program.ts';
import { basename } from './wrappers.ts';

/** Longer sed and awk programs are not read: they count as reaching (a bounded decision). */
export const MAX_PROGRAM = 4096;
// `busybox awk` reaches here as `awk`: the wrappers table reads busybox's applet as the command.
const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk']);

/** An option whose value is neither program nor file (`-F :`, `--line-length 5`): it only takes the next word. */
// Stryker disable next-line StringLiteral: any role but 'program' and 'file' is read the same
const VALUE = 'value' as const;

/** How a tool's options carry programs: valued short letters and long names (GNU prefixes count). */
interface ProgramOptions {
  /** Short letters taking a value, in the order a cluster is read. */
  valued: string;
  /** Short letters whose value is a program text. */
  program: string;
  /** Short letters whose value names a file of program (or code) to load. */
  file: string;
  long: readonly { name: string; role: 'program' | 'file' | 'value' }[];
}
const SED_OPTIONS: ProgramOptions = {
  valued: 'efl',
  program: 'e',
  file: 'f',
  long: [
    { name: '--expression', role: 'program' },
    { name: '--file', role: 'file' },
    { name: '--line-length', role: VALUE },
  ],
};
const AWK_OPTIONS: ProgramOptions = {
  valued: 'FvfeilE',
  program: 'e',
  file: 'fEil',
  long: [
    { name: '--source', role: 'program' },
    { name: '--file', role: 'file' },
    { name: '--exec', role: 'file' },
    { name: '--include', role: 'file' },
    { name: '--load', role: 'file' },
    { name: '--field-separator', role: VALUE },
    { name: '--assign', role: VALUE },
  ],
};

/**
 * The role of a long option spelled in full or as a GNU prefix (no name in the tables is a prefix
 * of another); an ambiguous prefix (`--fi`: --field-separator, --file), `--` itself included,
 * reads as a file.
 */
function longRole(name: string, options: ProgramOptions): 'program' | 'file' | 'value' | null {
  const matches = options.long.filter((option) => option.name.startsWith(name));
  if (matches.length === 0) return null;
  return matches.length === 1 ? matches[0]!.role : 'file';
}

/** Why a sed or awk reading runs more than a text transformation, or null. */
export function scriptSideEffect(view: readonly string[]): string | null {
  const verb = view[0];
  if (verb === undefined) return null;
  const name = basename(verb);
  if (name !== 'sed' && !AWKS.has(name)) return null;
  const options = name === 'sed' ? SED_OPTIONS : AWK_OPTIONS;
  const reaches = (program: string): boolean =>
    program.length > MAX_PROGRAM || (name === 'sed' ? sedProgramReaches(program) : awkProgramReaches(program));
  const fromFile = `${name} reading its program from a file`;
  const runs = `${name} program that writes, reads or runs other files or commands`;
  let optionsOver = false;
  // sed's program is its first operand unless -e/-f gave it; its other operands are files, and a
  // file name read as a program is a command (`README.md`: R with a file). Every awk operand may
  // be the program (or an ARGV assignment): each is read as one.
  let programGiven = false;
  let firstOperand: string | undefined;
  for (let i = 1; i < view.length; i++) {
    const word = view[i]!;
    if (optionsOver || word === '-' || !word.startsWith('-')) {
      firstOperand ??= word;
      if (name !== 'sed' && reaches(word)) return word.length > MAX_PROGRAM ? `${name} program too long to read` : runs;
      continue;
    }
    if (word === '--') {
      optionsOver = true;
      continue;
    }
    let role: 'program' | 'file' | 'value' | null = null;
    let value: string | undefined;
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      role = longRole(eq === -1 ? word : word.slice(0, eq), options);
      if (role !== null) value = eq === -1 ? view[++i] : word.slice(eq + 1);
    } else {
      // A cluster (`-nf prog`, `-ne'w x'`): the first letter taking a value takes the rest or the next word.
      for (let k = 1; k < word.length && role === null; k++) {
        const c = word[k]!;
        if (name === 'sed' && c === 'i') break; // -i[SUFFIX] takes the rest of the cluster
        if (!options.valued.includes(c)) continue;
        role = options.program.includes(c) ? 'program' : options.file.includes(c) ? 'file' : VALUE;
        value = k < word.length - 1 ? word.slice(k + 1) : view[++i];
      }
    }
    // Every library counts, `-i inplace` too: gawk looks for it in AWKPATH, whose default starts
    // with the working directory, so a project's ./inplace.awk runs first.
    if (role === 'file') return fromFile;
    if (role === 'program') programGiven = true;
    if (role === 'program' && value !== undefined && reaches(value)) return runs;
  }
  // (awk's operands were each read as a program above.)
  if (!programGiven && firstOperand !== undefined && reaches(firstOperand))
    return firstOperand.length > MAX_PROGRAM ? `${name} program too long to read` : runs;
  return null;
}
