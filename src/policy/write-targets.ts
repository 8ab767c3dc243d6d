// The paths a command writes, moves, links or deletes, read from its words, for the protected
// files check (DESIGN fail-closed extras): `tee F`, `cp SRC… DEST`, `mv`, `install`, `ln`,
// `rsync`, `dd of=F`, `sed -i`, `perl -i`, `truncate`, `chmod`, `chown`, `touch`, `rm`,
// `find -fprint F`...
// Reading commands (cat, grep...) name no targets. Lexical: what a path names after symlinks or
// inside a copied folder is beyond what words can tell.
import { stripTrailingSlashes } from './paths.ts';
import { isAssignment } from './tokenizer.ts';
import { basename } from './wrappers.ts';

export interface WriteTargets {
  /** Paths written, replaced or removed. */
  paths: string[];
  /** A destination folder and the names its sources arrive under (`cp x/permissions.json .`). */
  into: { dir: string; names: string[] } | null;
}

const NONE: WriteTargets = { paths: [], into: null };

/** Every operand (all non-option words) is a target. */
const ALL_OPERANDS = new Set([
  'tee',
  'mv',
  'ln',
  'truncate',
  'chmod',
  'chown',
  'chgrp',
  'touch',
  'rm',
  'rmdir',
  'unlink',
  'shred',
]);
/** Only the destination (last operand or `-t DIR`) is written; sources are read. */
const COPIERS = new Set(['cp', 'install', 'rsync']);
/** Copy-like commands whose sources arrive in a destination folder under their own name. */
const INTO = new Set(['cp', 'install', 'rsync', 'mv', 'ln']);
/** Source names that, arriving in a folder, can land on a protected file. */
const LANDING_NAMES = new Set(['permissions.json', 'hooks', 'config', '.git']);
const FIND_WRITES = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);
/**
 * Whether a `--name[=value]` word is the long option `long` or a prefix of it: getopt takes any
 * unique prefix (`--out` for --output, `--targ=DIR` for --target-directory); `--` abbreviates nothing.
 */
function abbreviates(word: string, long: string): boolean {
  const eq = word.indexOf('=');
  const name = eq === -1 ? word : word.slice(0, eq);
  return name.length > 2 && long.startsWith(name);
}

/** sort's short options that take a value: the first in a cluster takes the rest or the next word. */
const SORT_VALUED = 'kotST';

/** `sort -o F`, `-uoF`, `--output=F`, `--out F` (any prefix of --output): the file sort writes. */
function sortOutputs(argv: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') break;
    if (word.startsWith('--')) {
      if (!abbreviates(word, '--output')) continue;
      const eq = word.indexOf('=');
      const value = eq === -1 ? argv[++i] : word.slice(eq + 1);
      if (value !== undefined) found.push(value);
      continue;
    }
    if (!word.startsWith('-')) continue;
    for (let k = 1; k < word.length; k++) {
      if (!SORT_VALUED.includes(word[k]!)) continue;
      const value = k === word.length - 1 ? argv[++i] : word.slice(k + 1);
      if (word[k] === 'o' && value !== undefined) found.push(value);
      break;
    }
  }
  return found;
}

function operands(argv: readonly string[]): { words: string[]; targetDir: string | null } {
  const words: string[] = [];
  let targetDir: string | null = null;
  let optionsOver = false;
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (optionsOver || !word.startsWith('-') || word === '-') {
      words.push(word);
      continue;
    }
    if (word === '--') {
      optionsOver = true;
      continue;
    }
    if (word.startsWith('--')) {
      if (!abbreviates(word, '--target-directory')) continue; // `--t`, `--targ=DIR`
      const eq = word.indexOf('=');
      targetDir = eq === -1 ? (argv[++i] ?? null) : word.slice(eq + 1);
      continue;
    }
    // A short cluster (`-ft.git`, `-vt DIR`, `-Dt DIR`): `t` takes the rest of the word or the
    // next word; a letter before it that takes a value (`-S SUFFIX`, install's `-m -o -g`) ends it.
    for (let k = 1; k < word.length; k++) {
      const letter = word[k]!;
      if (letter === 't') {
        targetDir = k === word.length - 1 ? (argv[++i] ?? null) : word.slice(k + 1);
        break;
      }
      if (VALUED_LETTERS.includes(letter)) {
        if (k === word.length - 1) i++;
        break;
      }
    }
  }
  return { words, targetDir };
}

/** Letters of cp/mv/install/ln that take a value (suffix, mode, owner, group). */
const VALUED_LETTERS = 'Smog';

/**
 * `sed -i`, `sed --in-place`, `sed -Ei`; `perl -i`, `perl -pi.bak` (letters before one taking a
 * value). `digitLetters` take only the digits after them and the cluster goes on: perl's
 * `-0[octal]` and `-l[octal]` (`perl -0777pi`, `perl -lpi`).
 */
function editsInPlace(argv: readonly string[], stopLetters: string, digitLetters = ''): boolean {
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return false;
    // GNU sed takes any prefix of --in-place (`--in`, `--i=.bak`): no other long option starts with i.
    if (word.startsWith('--') && abbreviates(word, '--in-place')) return true;
    if (!word.startsWith('-') || word.startsWith('--')) continue;
    for (let k = 1; k < word.length; k++) {
      if (word[k] === 'i') return true;
      if (digitLetters.includes(word[k]!)) {
        while (k + 1 < word.length && word[k + 1]! >= '0' && word[k + 1]! <= '9') k++;
        continue;
      }
      if (stopLetters.includes(word[k]!)) break;
    }
  }
  return false;
}

export function writeTargets(argv: readonly string[]): WriteTargets {
  const verb = argv[0];
  if (verb === undefined) return NONE;
  const name = basename(verb);
  if (name === 'find') {
    // `-fprint F`, `-fprintf F FORMAT`, `-fls F`: find writes its report into F.
    const paths: string[] = [];
    for (let i = 1; i + 1 < argv.length; i++) if (FIND_WRITES.has(argv[i]!)) paths.push(argv[i + 1]!);
    return { paths, into: null };
  }
  if (name === 'sort') return { paths: sortOutputs(argv), into: null };
  if (name === 'dd') {
    return {
      paths: argv.filter((w) => w.startsWith('of=')).map((w) => w.slice(3)),
      into: null,
    };
  }
  if (
    (name === 'sed' && editsInPlace(argv, 'efl')) ||
    (name === 'perl' && editsInPlace(argv, 'eEMmIdDxC123456789', '0l'))
  ) {
    return {
      paths: [...operands(argv).words, ...(name === 'sed' ? sedWriteFiles(argv) : [])],
      into: null,
    };
  }
  if (name === 'sed') {
    const files = sedWriteFiles(argv);
    if (files.length > 0) return { paths: files, into: null };
  }
  if (!ALL_OPERANDS.has(name) && !COPIERS.has(name)) return NONE;
  const { words, targetDir } = operands(argv);
  const destination = targetDir ?? (COPIERS.has(name) || INTO.has(name) ? words[words.length - 1] : undefined);
  const paths = ALL_OPERANDS.has(name) ? words : destination === undefined ? [] : [destination];
  if (targetDir !== null && ALL_OPERANDS.has(name)) paths.push(targetDir);
  if (!INTO.has(name) || destination === undefined) return { paths, into: null };
  const sources = targetDir !== null ? words : words.slice(0, -1);
  const names = new Set<string>();
  for (const source of sources) {
    const last = basename(stripTrailingSlashes(source)).toLowerCase();
    if (LANDING_NAMES.has(last)) names.add(last);
  }
  return { paths, into: names.size > 0 ? { dir: destination, names: [...names] } : null };
}

/**
 * Whether writeTargets() knows every file this command writes, so naming a protected path as a
 * source is a read (`cp .git/config backup.cfg`). `find` is not: `-delete` and `-exec` act on
 * what it matches.
 */
export function isKnownWriter(argv: readonly string[]): boolean {
  let i = 0;
  while (i < argv.length && isAssignment(argv[i]!)) i++;
  const verb = argv[i];
  if (verb === undefined) return false;
  const name = basename(verb);
  // rsync is not: its options write files of their own (--log-file, --backup-dir, --write-batch).
  return (
    name === 'dd' || name === 'sed' || name === 'perl' || ALL_OPERANDS.has(name) || name === 'cp' || name === 'install'
  );
}

const SED_FLAGS = 'gpiImMe0123456789';

/**
 * Files a sed script writes: the `w FILE` / `W FILE` commands and the `w FILE` flag of `s///`
 * (the name runs to the end of the line). Every word is read as a possible script. One scan.
 */
function sedWriteFiles(argv: readonly string[]): string[] {
  const files: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    for (let k = 0; k < word.length; k++) {
      const c = word[k];
      if ((c !== 'w' && c !== 'W') || word[k + 1] !== ' ') continue;
      let b = k - 1;
      while (b >= 0 && SED_FLAGS.includes(word[b]!)) b--;
      const before = b < 0 ? '' : word[b]!;
      if (!(before === '' || before === ';' || before === '\n' || before === '}' || before === '/' || before === ' '))
        continue;
      const end = word.indexOf('\n', k);
      const file = word.slice(k + 2, end < 0 ? word.length : end).trim();
      if (file !== '') files.push(file);
      if (end < 0) break;
      k = end;
    }
  }
  return files;
}
