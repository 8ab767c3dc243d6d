// Which words of a command are data, not paths (issue 9 A.5): grep's pattern, sed's script,
// awk's program and field separator, echo's and printf's arguments. `grep -rn '../lib' src`,
// `sed -n '/^$/d' f` and `echo '../x'` read nothing outside the project, so the path scope does
// not judge those words. Everything else stays judged: grep's files (`grep x ../secret`), `-f`
// pattern files, sed's and awk's files, redirections. An option this table does not know is read
// as a flag, which moves the pattern earlier and so leaves the later word judged: a doubt never
// exempts a file.
import { optionTable } from './options.ts';
import type { OptionTable } from './options.ts';

interface DataSpec {
  options: OptionTable;
  /** Options whose value is data (a pattern, a script), not a file. */
  dataOptions: ReadonlySet<string>;
  /** With none of these given, the first positional word is the pattern/script/program. */
  replacesFirst: ReadonlySet<string>;
}

const GREP: DataSpec = {
  options: optionTable(
    '-e -f -m -A -B -C -d -D --regexp --file --max-count --after-context --before-context --context --devices --directories --binary-files --label --include --exclude --exclude-from --exclude-dir --group-separator',
    '',
  ),
  dataOptions: new Set(['-e', '--regexp', '--include', '--exclude', '--exclude-dir', '--label', '--group-separator']),
  replacesFirst: new Set(['-e', '--regexp', '-f', '--file']),
};

const SED: DataSpec = {
  options: optionTable('-e -f -l --expression --file --line-length', ''),
  dataOptions: new Set(['-e', '--expression']),
  replacesFirst: new Set(['-e', '--expression', '-f', '--file']),
};

const AWK: DataSpec = {
  options: optionTable('-F -v -f -e -i -l --field-separator --assign --file --source --include --load', ''),
  dataOptions: new Set(['-F', '--field-separator', '-v', '--assign', '-e', '--source']),
  replacesFirst: new Set(['-f', '--file', '-e', '--source']),
};

const SPECS: ReadonlyMap<string, DataSpec> = new Map([
  ['grep', GREP],
  ['egrep', GREP],
  ['fgrep', GREP],
  ['sed', SED],
  ['awk', AWK],
  ['gawk', AWK],
  ['mawk', AWK],
  ['nawk', AWK],
]);

/** Commands whose words are all data: they print them and read no file. */
const ALL_DATA: ReadonlySet<string> = new Set(['echo', 'printf']);

const NO_WORDS: ReadonlySet<number> = new Set();

/** Verbs whose data words could become another command's paths when their output is piped on. */
export const PRINTS_ITS_DATA: ReadonlySet<string> = new Set([...ALL_DATA, 'sed', 'awk', 'gawk', 'mawk', 'nawk']);

/**
 * The indexes of argv (verb at `verbAt`) that are data, not paths; empty for other commands.
 * One pass over the words.
 */
export function dataWords(argv: readonly string[], verbAt: number): ReadonlySet<number> {
  const verb = argv[verbAt];
  if (verb === undefined || (!ALL_DATA.has(verb) && !SPECS.has(verb))) return NO_WORDS;
  const out = new Set<number>();
  if (ALL_DATA.has(verb)) {
    for (let i = verbAt + 1; i < argv.length; i++) out.add(i);
    return out;
  }
  const spec = SPECS.get(verb)!;
  let replaced = false;
  let firstPositional = -1;
  let optionsOver = false;
  for (let i = verbAt + 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (optionsOver || word === '-' || !word.startsWith('-')) {
      if (firstPositional < 0) firstPositional = i;
      continue;
    }
    if (word === '--') {
      optionsOver = true;
      continue;
    }
    const option = optionAt(word, spec.options, spec);
    if (option === null) continue;
    if (spec.replacesFirst.has(option.name)) replaced = true;
    // The value is the next word, or glued on (`-F/`, `-e'…'`, `--regexp=…`).
    if (option.glued) {
      if (spec.dataOptions.has(option.name)) out.add(i);
    } else if (i + 1 < argv.length) {
      if (spec.dataOptions.has(option.name)) out.add(i + 1);
      i++;
    }
  }
  if (!replaced && firstPositional >= 0) out.add(firstPositional);
  return out;
}

/**
 * The valued option a word carries (the first valued letter of a cluster), or null for flags.
 * GNU tools accept any unambiguous prefix of a long option (`--rege=x` is `--regexp=x`,
 * `--expr=p` is `--expression=p`), so a prefix of a valued option is read as it. A prefix of
 * several is read as the one that judges most (see expandLong).
 */
function optionAt(word: string, table: OptionTable, spec: DataSpec): { name: string; glued: boolean } | null {
  if (word.startsWith('--')) {
    const eq = word.indexOf('=');
    const name = expandLong(eq > 0 ? word.slice(0, eq) : word, table, spec);
    if (name === null) return null;
    return { name, glued: eq > 0 };
  }
  for (let k = 1; k < word.length; k++) {
    const letter = `-${word[k]!}`;
    if (table.valued.has(letter)) return { name: letter, glued: k < word.length - 1 };
  }
  return null;
}

/** The valued long option `name` spells in full or as a GNU prefix (`--rege`), or null. */
function expandLong(name: string, table: OptionTable, spec: DataSpec): string | null {
  if (table.valued.has(name)) return name;
  if (name.length < 3) return null;
  const candidates = [...table.valued].filter((option) => option.startsWith('--') && option.startsWith(name));
  if (candidates.length <= 1) return candidates[0] ?? null;
  // GNU refuses an ambiguous prefix; should one run anyway, read it the way that judges most:
  // an option that replaces the pattern and whose value is a file.
  const judged = (option: string) => (spec.replacesFirst.has(option) ? 2 : 0) + (spec.dataOptions.has(option) ? 0 : 1);
  return candidates.reduce((best, option) => (judged(option) > judged(best) ? option : best));
}
