// Skipping a program's options to find what follows them, from a table of the options that take
// a value. Shared by the wrappers (sudo, env, timeout...) and the external-effect CLIs (git,
// kubectl, docker...). An option we do not know is reported, never guessed.

export interface OptionTable {
  /** Options that take the next word as their value (`-C`, `--git-dir`). */
  valued: ReadonlySet<string>;
  /** Options known to take no value (`--no-pager`, `-p`). */
  flags: ReadonlySet<string>;
}

export function optionTable(valued: string, flags: string): OptionTable {
  const words = (s: string) => new Set(s.split(' ').filter((w) => w !== ''));
  return { valued: words(valued), flags: words(flags) };
}

export type OptionStep =
  | { kind: 'end' } // argv[i] is not an option: the options are over
  | { kind: 'skip'; next: number } // a known option (and its value) ends before `next`
  | { kind: 'unknown'; option: string };

/**
 * One option at argv[i]. `--name=value` and `-xVALUE` never consume the next word, so they are
 * skipped even when unknown; a bare unknown option may or may not take a value.
 */
export function stepOption(argv: readonly string[], i: number, table: OptionTable): OptionStep {
  const word = argv[i];
  if (word === undefined) return { kind: 'end' };
  // A lone `-` is an operand (stdin) unless the table lists it as a flag (`su -`, `sg -`).
  if (word === '-') return table.flags.has('-') ? { kind: 'skip', next: i + 1 } : { kind: 'end' };
  if (!word.startsWith('-')) return { kind: 'end' };
  if (word === '--') return { kind: 'skip', next: i + 1 };
  const eq = word.indexOf('=');
  if (eq > 0) return { kind: 'skip', next: i + 1 };
  if (table.valued.has(word)) return { kind: 'skip', next: i + 2 };
  if (table.flags.has(word)) return { kind: 'skip', next: i + 1 };
  // A cluster: `-Eu root`, `-uroot`, `-n5`. The first valued letter takes the rest or the next word.
  // An unknown `--long` or `-x` is reported at its first letter (`--`, `-x` are in neither table).
  for (let k = 1; k < word.length; k++) {
    const letter = `-${word[k]}`;
    if (table.valued.has(letter)) return { kind: 'skip', next: k === word.length - 1 ? i + 2 : i + 1 };
    if (!table.flags.has(letter)) return { kind: 'unknown', option: word };
  }
  return { kind: 'skip', next: i + 1 };
}
