// The words of a fragment read as paths (scope.ts): what part of a token names a path, every
// way an argument may name one, and what the shell does to each word. A fragment is judged in
// every directory it may run in (issue 9 A.2) and in each of its readings through the wrappers;
// what does not depend on the directory is read once per fragment here (FragmentPaths), not
// once per directory: `cd a || … ; nice … mv *a *a …` read the same 5,000 words 8 times over.
import type { PathWord } from './path-class.ts';
import { isAssignment, wordInfo } from './tokenizer.ts';
import type { Fragment, Redirect, WordInfo } from './tokenizer.ts';
import { writeTargets } from './write-targets.ts';
import type { WriteTargets } from './write-targets.ts';

/** The part of a token that names a path: `--out=/x` -> `/x`, `A=../b` -> `../b`, `-I/usr` -> `/usr`. */
export function pathPart(token: string): string | null {
  if (token.startsWith('-')) {
    // indexOf answers -1 or, past the leading `-`, at least 1.
    const eq = token.indexOf('=');
    if (eq !== -1) return token.slice(eq + 1);
    const slash = token.indexOf('/');
    const dots = token.indexOf('..');
    let at = slash === -1 ? dots : dots === -1 ? slash : Math.min(slash, dots);
    // `-f./x`: the path starts at the dot (a relative path, not `/x`).
    if (at === slash && token[at - 1] === '.' && isLetter(token[at - 2]!)) at--;
    return at === -1 ? null : token.slice(at);
  }
  if (isAssignment(token)) return token.slice(token.indexOf('=') + 1);
  return token;
}

function isLetter(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/**
 * A word and what the shell does to it, as a path (null when no part of it names one). `literal`:
 * the word is a file name as it stands, never an option (a redirection's target, an operand).
 */
export function asPath(word: string, info: WordInfo | undefined, literal = false): PathWord | null {
  // `-f$FILE`: an option glued to an expansion names a path nobody can know.
  if (info?.expands === true) return { text: word, glob: null, expands: true };
  if (literal)
    return word === ''
      ? null
      : { text: word, glob: info?.glob ?? null, expands: false, ...(info?.home === true ? { home: true } : {}) };
  const text = pathPart(word);
  if (text === null || text === '') return null;
  const glob = info?.glob == null ? null : (pathPart(info.glob) ?? info.glob);
  return info?.home === true ? { text, glob, expands: false, home: true } : { text, glob, expands: false };
}

/**
 * Every way an argument may name a path, for the protected check: the word, its option value
 * (`--output=F`, `-oF`), and the parts of lists (`a:b`, `x,y`, `k=v`). More readings can only
 * find more protected names.
 */
export function argumentPaths(word: string, info: WordInfo | undefined): PathWord[] {
  if (info?.expands === true) return [{ text: word, glob: null, expands: true }];
  const glob = info?.glob ?? null;
  const out: PathWord[] = [];
  const home = info?.home === true;
  const add = (text: string, pattern: string | null): void => {
    if (text !== '' && text !== '-') out.push({ text, glob: pattern, expands: false, home });
  };
  // `-oF`: the value of a glued short option.
  const addGlued = (text: string, pattern: string | null): void => {
    if (text.length > 2 && text[0] === '-' && text[1] !== '-')
      add(text.slice(2), pattern?.startsWith('-') === true ? pattern.slice(2) : pattern);
  };
  const whole = asPath(word, info);
  if (whole !== null) add(whole.text, whole.glob);
  addGlued(word, glob);
  const textParts = splitList(word);
  if (textParts.length > 1) {
    const globParts = glob === null ? null : splitList(glob);
    textParts.forEach((part, k) => {
      const pattern = globParts?.[k] ?? (glob === null ? null : part);
      add(part, pattern);
      // A part may be a glued option too: `gcc -Wl,-o.git` has the linker write `.git`.
      addGlued(part, pattern);
    });
  }
  return out;
}

function splitList(word: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i <= word.length; i++) {
    if (i === word.length || word[i] === '=' || word[i] === ':' || word[i] === ',') {
      parts.push(word.slice(start, i));
      start = i + 1;
    }
  }
  return parts;
}

/** A protected path mentioned anywhere in a word (case-insensitive, any run of slashes). */
function mentionsProtected(word: string): boolean {
  const folded = word.toLowerCase();
  if (folded.includes('permissions.json')) return true;
  for (let at = folded.indexOf('.git'); at >= 0; at = folded.indexOf('.git', at + 4)) {
    let k = at + 4;
    if (folded[k] !== '/' && folded[k] !== '\\') continue;
    while (folded[k] === '/' || folded[k] === '\\' || (folded[k] === '.' && folded[k + 1] === '/')) k++;
    if (folded.startsWith('config', k) || folded.startsWith('hooks', k)) return true;
  }
  return false;
}

const NO_INFO: ReadonlyMap<string, WordInfo> = new Map();

/**
 * What the shell does to each word of the fragment's readings (views are plain string lists);
 * null when the fragment was built from words (then the characters decide).
 */
function infoByWord(fragment: Fragment): ReadonlyMap<string, WordInfo> | null {
  if (fragment.argvInfo === undefined) return null;
  let map: Map<string, WordInfo> | null = null;
  fragment.argvInfo.forEach((info, i) => {
    if (info === undefined) return;
    map ??= new Map();
    const word = fragment.argv[i]!;
    const before = map.get(word);
    // The same text quoted once and unquoted once: keep what makes it more dangerous.
    map.set(
      word,
      before === undefined ? info : { expands: before.expands || info.expands, glob: before.glob ?? info.glob },
    );
  });
  return map ?? NO_INFO;
}

/** What one reading (view) of a fragment writes, read once. */
export interface ViewWrites {
  targets: WriteTargets;
  /** The folders a recursive (or `.git`) mode change or removal reaches, or null. */
  changedRecursively: readonly string[] | null;
}

const RECURSIVE_CHANGERS = new Set(['chmod', 'chown', 'chgrp', 'rm', 'setfacl', 'chattr']);

/** chmod/chown/chgrp/rm/setfacl with -R/-r/--recursive, or any mode change of a `.git` folder itself. */
function changesRecursively(view: readonly string[]): boolean {
  const verb = view[0];
  if (verb === undefined) return false;
  const slash = verb.lastIndexOf('/');
  const name = slash < 0 ? verb : verb.slice(slash + 1);
  if (!RECURSIVE_CHANGERS.has(name)) return false;
  if (name !== 'rm') return true; // chmod 000 .git locks git out as surely as -R does
  for (const word of view) {
    if (
      word === '--recursive' ||
      (word.startsWith('-') && !word.startsWith('--') && (word.includes('r') || word.includes('R')))
    )
      return true;
  }
  return false;
}

/**
 * What a mode changer changes: a known writer's targets, else (setfacl, chattr: write-targets.ts
 * does not list them) every word that is not an option (`u:x:rwx` and `+i` name no folder).
 */
function changedPaths(view: readonly string[], targets: readonly string[]): readonly string[] {
  return targets.length > 0 ? targets : view.slice(1).filter((word) => !word.startsWith('-'));
}

/** Stands for "read, and the answer is undefined/null" in the memos below (a hole is "not read"). */
const NO_INFO_READ = Symbol('no info');

/**
 * One fragment's words as paths, each read at most once whatever the number of directories it
 * is judged in. Every answer is the function above applied to the same word: only when it is
 * computed changes. The memos are made on first use: most fragments are short and judged once.
 */
export class FragmentPaths {
  readonly fragment: Fragment;
  readonly #known: boolean;
  #info: Array<WordInfo | typeof NO_INFO_READ> | undefined;
  #paths: Array<PathWord | typeof NO_INFO_READ> | undefined;
  #argumentPaths: Array<readonly PathWord[]> | undefined;
  #mentions: boolean[] | undefined;
  #redirectPaths: Map<Redirect, PathWord | null> | undefined;
  #byWord: ReadonlyMap<string, WordInfo> | null | undefined;
  readonly #viewPaths: Array<Map<string, PathWord | null>> = [];
  #writes: Map<readonly string[], ViewWrites> | undefined;

  constructor(fragment: Fragment) {
    this.fragment = fragment;
    this.#known = fragment.argvInfo !== undefined;
  }

  /** Word i of argv mentions a protected path anywhere in it (code handed to an interpreter). */
  mentionsProtected(i: number): boolean {
    return ((this.#mentions ??= [])[i] ??= mentionsProtected(this.fragment.argv[i]!));
  }

  /** What the shell does to word i of argv. */
  info(i: number): WordInfo | undefined {
    const memo = (this.#info ??= []);
    const read = memo[i];
    if (read !== undefined) return read === NO_INFO_READ ? undefined : read;
    const about = wordInfo(this.fragment.argv[i]!, this.fragment.argvInfo?.[i], this.#known);
    memo[i] = about ?? NO_INFO_READ;
    return about;
  }

  /** asPath of word i of argv. */
  path(i: number): PathWord | null {
    const memo = (this.#paths ??= []);
    const read = memo[i];
    if (read !== undefined) return read === NO_INFO_READ ? null : read;
    const path = asPath(this.fragment.argv[i]!, this.info(i));
    memo[i] = path ?? NO_INFO_READ;
    return path;
  }

  /** argumentPaths of word i of argv. */
  argumentPaths(i: number): readonly PathWord[] {
    return ((this.#argumentPaths ??= [])[i] ??= argumentPaths(this.fragment.argv[i]!, this.info(i)));
  }

  /** A redirection's target as a file name (literal). */
  redirectPath(r: Redirect & { target: string }): PathWord | null {
    const memo = (this.#redirectPaths ??= new Map());
    let path = memo.get(r);
    if (path === undefined) {
      path = asPath(r.target, wordInfo(r.target, r.targetInfo, this.#known), true);
      memo.set(r, path);
    }
    return path;
  }

  /** What the shell does to a word of a reading (views hold words, not their positions). */
  viewInfo(word: string): WordInfo | undefined {
    if (this.#byWord === undefined) this.#byWord = infoByWord(this.fragment);
    const byWord = this.#byWord;
    return byWord === null ? wordInfo(word, undefined, false) : byWord.get(word);
  }

  /** asPath of a word of a reading. */
  viewPath(word: string, literal = false): PathWord | null {
    const memo = (this.#viewPaths[literal ? 1 : 0] ??= new Map());
    let path = memo.get(word);
    if (path === undefined) {
      path = asPath(word, this.viewInfo(word), literal);
      memo.set(word, path);
    }
    return path;
  }

  /** What a reading writes. */
  writes(view: readonly string[]): ViewWrites {
    const memo = (this.#writes ??= new Map());
    let writes = memo.get(view);
    if (writes === undefined) {
      const targets = writeTargets(view);
      writes = { targets, changedRecursively: changesRecursively(view) ? changedPaths(view, targets.paths) : null };
      memo.set(view, writes);
    }
    return writes;
  }
}
