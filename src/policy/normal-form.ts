// Deny and ask patterns matched as a CLI reads its words, not as they are written (issue 9 A.4).
// `git reset -q --hard`, `git reset --ha`, `rm -r -f`, `rm --recursive --force`, `docker
// container remove`, `npm pub` all escaped a token-prefix match. Here a pattern and a command are
// both read as: the verb (basename), its subcommand words (aliases mapped, global options
// skipped), its positional words in order, and its options as a set (bundles expanded,
// long/short synonyms mapped, `--opt=value` and unambiguous long prefixes accepted). Every
// doubt reads the command more ways (an option may or may not take the next word), so this can
// only find more matches; a match that rests on an ambiguous abbreviation is reported as
// uncertain, which asks instead of denying.
import { CLI_GLOBAL_OPTIONS, subcommandStarts } from './cli-options.ts';
import { canonicalPositional, subcommandReadings } from './subcommand-aliases.ts';
import { basename } from './wrappers.ts';

export interface NormalForm {
  verb: string;
  /** Readings of the positional words after the verb (more than one when an alias is ambiguous). */
  words: readonly (readonly string[])[];
  /** The last positional word ended in `:*`: it matches `name` and `name:…`. */
  lastIsPrefix: boolean;
  /** Options every matching command carries, canonical (`-rf` -> `-r`, `-f`). */
  options: readonly string[];
}

export type FormMatch = 'certain' | 'uncertain' | null;

type Synonyms = Readonly<Record<string, readonly string[]>>;

const RECURSIVE_FORCE: Synonyms = { '-R': ['-r'], '--recursive': ['-r'], '--force': ['-f'] };
const MODE_CHANGERS: Synonyms = { '--recursive': ['-R'], '--silent': ['-f'], '--quiet': ['-f'] };
const DOCKER: Synonyms = { '--force': ['-f'], '--volumes': ['-v'], '--all': ['-a'] };

/** Long options and bundles that are another spelling of short ones, per verb. */
const SYNONYMS: ReadonlyMap<string, Synonyms> = new Map<string, Synonyms>([
  ['rm', { ...RECURSIVE_FORCE, '--dir': ['-d'] }],
  ['cp', RECURSIVE_FORCE],
  ['chmod', MODE_CHANGERS],
  ['chown', MODE_CHANGERS],
  ['chgrp', MODE_CHANGERS],
  [
    'git',
    {
      '--force': ['-f'],
      '--delete': ['-d'],
      '-D': ['-d', '-f'],
      '--move': ['-m'],
      '-M': ['-m', '-f'],
      '--all': ['-a'],
    },
  ],
  ['docker', DOCKER],
  ['podman', DOCKER],
  [
    'kubectl',
    {
      '--filename': ['-f'],
      '--all-namespaces': ['-A'],
      '--recursive': ['-R'],
      '--namespace': ['-n'],
      '--selector': ['-l'],
    },
  ],
  ['npm', { '--force': ['-f'], '--global': ['-g'] }],
]);
const DEFAULT_SYNONYMS: Synonyms = { '--force': ['-f'], '--recursive': ['-r'] };

const synonymsOf = (verb: string): Synonyms => SYNONYMS.get(verb) ?? DEFAULT_SYNONYMS;

function isOption(word: string): boolean {
  return word.length > 1 && word[0] === '-';
}

/** An option's canonical letters or name: `-rf` -> [-r, -f]; `--hard=HEAD` -> [--hard]. */
function canonicalOptions(word: string, synonyms: Synonyms): readonly string[] {
  if (word.startsWith('--')) {
    const eq = word.indexOf('=');
    const name = eq === -1 ? word : word.slice(0, eq);
    return synonyms[name] ?? [name];
  }
  const whole = synonyms[word];
  if (whole !== undefined) return whole;
  const out: string[] = [];
  for (let k = 1; k < word.length; k++) {
    const letter = `-${word[k]!}`;
    for (const c of synonyms[letter] ?? [letter]) out.push(c);
  }
  return out;
}

/** The normal form of a pattern's argv, or null when it has nothing past a plain verb to read. */
export function normalFormOf(argv: readonly string[]): NormalForm | null {
  if (argv.length < 2) return null;
  const first = argv[0]!;
  if (first.includes(':*')) return null;
  const verb = basename(first);
  const synonyms = synonymsOf(verb);
  const positionals: string[] = [];
  const options: string[] = [];
  let lastIsPrefix = false;
  let optionsOver = false;
  argv.forEach((raw, k) => {
    if (k === 0) return;
    let word = raw;
    if (k === argv.length - 1 && word.length > 2 && word.endsWith(':*')) {
      word = word.slice(0, -2);
      lastIsPrefix = !isOption(word) || optionsOver;
    }
    if (word === '--') optionsOver = true;
    else if (!optionsOver && isOption(word)) options.push(...canonicalOptions(word, synonyms));
    else positionals.push(...splitPositional(verb, word));
  });
  const readings = subcommandReadings(verb, positionals, 0);
  const words =
    readings.length === 0 ? [positionals] : readings.map((r) => [...r.words, ...positionals.slice(r.consumed)]);
  return { verb, words: words.map((w) => w.map((x) => canonicalPositional(verb, x))), lastIsPrefix, options };
}

/** `kubectl delete pod/api` names the resource and the object in one word. */
function splitPositional(verb: string, word: string): string[] {
  if (verb !== 'kubectl') return [word];
  const slash = word.indexOf('/');
  return slash > 0 && slash < word.length - 1 ? [word.slice(0, slash), word.slice(slash + 1)] : [word];
}

interface CommandOptions {
  canonical: Set<string>;
  /** Long option names as written (without `=value`), for abbreviations. */
  longs: string[];
}

/** Every option before a bare `--`, as a set (options anywhere count: GNU and git permute them). */
function commandOptions(argv: readonly string[], synonyms: Synonyms): CommandOptions {
  const canonical = new Set<string>();
  // Stryker disable next-line ArrayDeclaration: a junk entry with no dash is the prefix of no option name
  const longs: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    if (!isOption(word)) continue;
    for (const c of canonicalOptions(word, synonyms)) canonical.add(c);
    // Only long words can abbreviate a long name. (Stryker: a short word pushed too is the prefix
    // of no name, which all start with `--` or are two letters; the filter saves hasOption() work.)
    // Stryker disable next-line StringLiteral: see above
    if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      longs.push(eq === -1 ? word : word.slice(0, eq));
    }
  }
  return { canonical, longs };
}

/** Whether the command carries option `wanted` in any spelling: itself, a synonym, an abbreviation. */
function hasOption(wanted: string, have: CommandOptions, synonyms: Synonyms): boolean {
  if (have.canonical.has(wanted)) return true;
  for (const long of have.longs) {
    // getopt_long and git accept any unambiguous prefix of a long option (`--ha` for `--hard`).
    // `--` alone (`--=x`) abbreviates nothing.
    if (long.length < 3) continue;
    if (wanted.startsWith(long)) return true;
    for (const name in synonyms) if (name.startsWith(long) && synonyms[name]!.includes(wanted)) return true;
  }
  return false;
}

/**
 * Whether a command's argv (one reading, already looked through wrappers) is what the pattern's
 * normal form describes: 'certain', 'uncertain' (only through an ambiguous abbreviation), or null.
 */
export function matchNormalForm(form: NormalForm, argv: readonly string[]): FormMatch {
  const verbWord = argv[0];
  if (verbWord === undefined || basename(verbWord) !== form.verb) return null;
  const synonyms = synonymsOf(form.verb);
  if (form.options.length > 0) {
    const have = commandOptions(argv, synonyms);
    if (!form.options.every((o) => hasOption(o, have, synonyms))) return null;
  }
  let best: FormMatch = null;
  for (const words of form.words) {
    const found = positionalsMatch(form, words, argv);
    // Several readings come only from an ambiguous npm abbreviation in the pattern (`npm p`), each
    // a full command name; no command matches an earlier one uncertainly and a later one
    // certainly, so ending at the first certain one is a shortcut.
    if (found === 'certain') return found;
    best ??= found;
  }
  return best;
}

const CERTAIN = 1;
const UNCERTAIN = 2;

/**
 * Whether `words` are the first positional words of argv after its global options, in some
 * reading: each option may or may not take the next word as its value. One pass over argv with
 * a state per matched-word count: linear in argv for a pattern.
 */
function positionalsMatch(form: NormalForm, words: readonly string[], argv: readonly string[]): FormMatch {
  const m = words.length;
  // A shortcut (start marks accept at once), for option-only patterns (`rm -rf`).
  if (m === 0) return 'certain';
  const n = argv.length;
  const width = m + 1;
  const reach = new Uint8Array((n + 2) * width);
  let accepted = 0;
  // Rows 0..n+1: an option marks up to two words ahead (i + 2 <= n + 1); row n and past are never read.
  const mark = (i: number, j: number, flag: number): void => {
    if (j >= m) accepted |= flag;
    else reach[i * width + j]! |= flag;
  };
  const table = CLI_GLOBAL_OPTIONS.get(form.verb);
  // A shortcut: subcommandStarts() of a command whose second word is no option is [1].
  // Stryker disable next-line StringLiteral: startsWith of another text is that shortcut not taken
  const starts = table !== undefined && argv[1]?.startsWith('-') === true ? subcommandStarts(argv, table) : [1];
  for (const s of starts) {
    mark(s, 0, CERTAIN);
    for (const r of subcommandReadings(form.verb, argv, s)) {
      const k = Math.min(m, r.words.length);
      // An alias table's words are canonical and hold no `:`: compared as they are.
      let same = true;
      for (let x = 0; x < k && same; x++) same = r.words[x] === words[x];
      if (same) mark(s + r.consumed, r.words.length, r.certain ? CERTAIN : UNCERTAIN);
    }
  }
  // Stopping at a certain match is a shortcut.
  for (let i = 1; i < n && (accepted & CERTAIN) === 0; i++) {
    // Slot m of a row is never marked (mark() accepts there).
    for (let j = 0; j < m; j++) {
      const flag = reach[i * width + j]!;
      // A shortcut: a zero flag marks nothing.
      if (flag === 0) continue;
      const word = argv[i]!;
      if (word === '--') {
        if (tailMatches(form, words, j, argv, i + 1)) accepted |= flag;
      } else if (isOption(word)) {
        mark(i + 1, j, flag);
        if (!word.includes('=')) mark(i + 2, j, flag);
      } else {
        const parts = splitPositional(form.verb, word);
        let at = j;
        // Stryker disable next-line BooleanLiteral: the loop sets it (a word has one part at least, and at < m)
        let ok = true;
        for (const part of parts) {
          if (at >= m) break;
          ok = wordMatches(form, words[at]!, part, at === m - 1 && form.lastIsPrefix);
          if (!ok) break;
          at++;
        }
        if (ok) mark(i + 1, at, flag);
      }
    }
  }
  if ((accepted & CERTAIN) !== 0) return 'certain';
  return accepted !== 0 ? 'uncertain' : null;
}

/** After `--` every word is positional: words[j..] must follow at argv[from..]. */
function tailMatches(
  form: NormalForm,
  words: readonly string[],
  j: number,
  argv: readonly string[],
  from: number,
): boolean {
  const m = words.length;
  if (from + (m - j) > argv.length) return false;
  for (let k = j; k < m; k++) {
    if (!wordMatches(form, words[k]!, argv[from + k - j]!, k === m - 1 && form.lastIsPrefix)) return false;
  }
  return true;
}

function wordMatches(form: NormalForm, wanted: string, word: string, prefix: boolean): boolean {
  const w = canonicalPositional(form.verb, word);
  if (prefix) return w === wanted || w.startsWith(wanted + ':');
  return w === wanted;
}
