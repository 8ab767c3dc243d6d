// Which fragments change the shell's working directory, and to where (issue 9 A.2). These are
// all `cd`: `cd -P x`, `cd -L x`, `cd -- x`, `command cd x`, `builtin cd x`, `CDPATH=… cd x`,
// `if cd x`, `time cd x`, `pushd x`, `popd`. A target the policy cannot know (no target, `-`,
// an expansion, a glob, a CDPATH lookup, popd's stack) is null: the caller fails closed.
import type { Fragment, WordInfo } from './tokenizer.ts';
import { isAssignment, wordInfo } from './tokenizer.ts';

export type CdForm =
  | { kind: 'none' }
  /** Changes the directory to `target` (null: to a directory nobody can know from the words). */
  | { kind: 'cd'; target: string | null }
  /** May change it to anything (`source`, `.`, `eval`: what they run is not in these words). */
  | { kind: 'unknown' };

const NONE: CdForm = { kind: 'none' };
const UNKNOWN_TARGET: CdForm = { kind: 'cd', target: null };

/** Words that run the command after them in this same shell. */
const SAME_SHELL = new Set([
  'command',
  'builtin',
  'if',
  'then',
  'elif',
  'else',
  'do',
  'while',
  'until',
  '!',
  '{',
  'time',
]);
const CD_VERBS = new Set(['cd', 'chdir', 'pushd']);
const CD_FLAGS = new Set(['-P', '-L', '-e', '-@']);

/** `cd` options: -P, -L, -e, -@ alone or clustered (`-PL`). */
function isCdFlag(word: string): boolean {
  if (CD_FLAGS.has(word)) return true;
  if (word.length < 3 || word[0] !== '-') return false; // `--x`: '-' is no cd flag letter
  for (let k = 1; k < word.length; k++) if (!CD_FLAGS.has(`-${word[k]}`)) return false;
  return true;
}

/**
 * Whether a relative `cd` target would be looked up in CDPATH: bash tries CDPATH for any target
 * that does not start with `/`, `./` or `../` (and is not `.` or `..`).
 */
function usesCdPath(target: string): boolean {
  return !(
    target.startsWith('/') ||
    target === '.' ||
    target === '..' ||
    target.startsWith('./') ||
    target.startsWith('../')
  );
}

/**
 * The directory change a fragment makes. `cdPathSet`: the command assigns CDPATH somewhere, so
 * a relative target may lead anywhere.
 */
export function cdForm(fragment: Fragment, cdPathSet: boolean): CdForm {
  const argv = fragment.argv;
  const known = fragment.argvInfo !== undefined;
  const info = (i: number): WordInfo | undefined => wordInfo(argv[i]!, fragment.argvInfo?.[i], known);
  let i = 0;
  let cdPath = cdPathSet;
  for (; i < argv.length; i++) {
    const word = argv[i]!;
    if (isAssignment(word)) {
      if (word.startsWith('CDPATH=')) cdPath = true;
      continue;
    }
    if (!SAME_SHELL.has(word)) break;
    // `command -p cd`: -p only changes PATH lookup; `command -v cd` prints, it does not run cd
    // (the loop stops at -v: no cd verb starts with '-').
    if (word === 'command' || word === 'time') {
      while (argv[i + 1] === '-p') i++;
      if (argv[i + 1] === '--') i++;
    }
  }
  const verb = argv[i] ?? '';
  if (verb === 'source' || verb === '.' || verb === 'eval') return { kind: 'unknown' };
  if (verb === 'popd') return UNKNOWN_TARGET;
  if (!CD_VERBS.has(verb)) return NONE;
  let k = i + 1;
  if (verb === 'pushd' && argv[k] === '-n') return NONE; // -n: only the stack changes
  while (k < argv.length && isCdFlag(argv[k]!)) k++;
  if (argv[k] === '--') k++;
  const target = argv[k];
  // No target (HOME), `-` (OLDPWD), `+N`/`-N` stack entries, zsh's `cd old new`: unknown.
  if (target === undefined || target === '' || target.startsWith('-') || target.startsWith('+') || k + 1 < argv.length)
    return UNKNOWN_TARGET;
  const about = info(k);
  if (about?.expands === true || about?.glob != null || about?.home === true) return UNKNOWN_TARGET;
  if (cdPath && usesCdPath(target)) return UNKNOWN_TARGET;
  return { kind: 'cd', target };
}
