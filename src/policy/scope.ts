// The path scope (RN-075) and the protected paths, over every fragment of a command at every
// depth, judged in every directory the fragment may run in (cwd-flow.ts, issue 9 A.2). A `cd`
// whose targets all stay inside the root is `cd-in-scope` (it declares the scope instead of
// needing a rule). Protected: a write (redirect, a known writer's targets), any argument of a
// command that is not read-only naming a protected path (issue 9 A.3), in any spelling or glob
// (A.1), or a command run inside a `.git` folder.
import type { AnalyzedCommand, AnalyzedFragment } from './analysis.ts';
import { walkDirs } from './cwd-flow.ts';
import type { Dirs } from './cwd-flow.ts';
import { DirNode, rootSpec } from './dir-node.ts';
import { classifyPath } from './path-class.ts';
import type { PathWord } from './path-class.ts';
import { resolveLexically } from './paths.ts';
import { isReadOnly } from './read-only.ts';
import { dataWords, PRINTS_ITS_DATA } from './argument-roles.ts';
import { globalInstall, installer } from './global-installs.ts';
import { inputArguments } from './input-arguments.ts';
import { isAssignment, wordInfo } from './tokenizer.ts';
import type { Fragment, Redirect, WordInfo } from './tokenizer.ts';
import { isKnownWriter, writeTargets } from './write-targets.ts';

export interface ScopeResult {
  /** The first token (or cwd) found outside the root, null when everything is inside. */
  outside: string | null;
  /** Per top-level fragment: a `cd` into the scope. */
  cdInScope: boolean[];
  /** The first protected path the command certainly writes (a redirect or a known writer's target), or null. */
  protectedWrite: string | null;
  /**
   * The first protected path the command may write or names (issue 9 A.2, A.3): an argument of a
   * command that is not read-only, a write whose target could be protected (an expansion, an
   * unknown directory), a command run inside `.git`. Judged after the scope: not lifted by auto mode.
   */
  protectedName: string | null;
}

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
function asPath(word: string, info: WordInfo | undefined, literal = false): PathWord | null {
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
function argumentPaths(word: string, info: WordInfo | undefined): PathWord[] {
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

const FD_DUPLICATIONS = new Set(['>&', '<&']);
const NOT_PATHS = new Set(['<<', '<<<', '<<-']);
const WRITE_REDIRECTIONS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

function isFdNumber(word: string): boolean {
  if (word === '-') return true;
  if (word === '') return false;
  for (const c of word) if (c < '0' || c > '9') return false;
  return true;
}

/** Whether a redirect's target may name a path (not a here-doc word, not an fd number). */
function targetIsPath(r: Redirect): r is Redirect & { target: string } {
  if (r.target === null || NOT_PATHS.has(r.op)) return false;
  return !(FD_DUPLICATIONS.has(r.op) && isFdNumber(r.target));
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

function normalizedRoot(rootInput: string): string | null {
  return rootInput.startsWith('/') ? resolveLexically('/', rootInput) : null;
}

interface Walk {
  outside: string | null;
  protectedWrite: string | null;
  protectedName: string | null;
}

/**
 * One walk over the command for both checks. `asWritten`: no root nor cwd is known (the
 * always-allow check); paths are read from `/` and any permissions.json counts.
 */
function walk(
  command: AnalyzedCommand,
  startCwd: string | null,
  rootInput: string,
  asWritten: boolean,
): Walk & { cdInScope: boolean[] } {
  const root = asWritten ? '/' : normalizedRoot(rootInput);
  const result: Walk = { outside: null, protectedWrite: null, protectedName: null };
  if (root === null) result.outside = rootInput === '' ? '(no scope root)' : rootInput;
  const spec = rootSpec(root ?? '/');
  const top = DirNode.top(spec);
  const start: DirNode | null = asWritten
    ? top
    : root !== null && startCwd !== null && startCwd.startsWith('/')
      ? top.cd(startCwd)
      : null;
  const startDirs: Dirs = [start];

  const feedsRunner = pipedIntoRunner(command);
  const visit = (fragment: Fragment, dirs: Dirs, analysed: AnalyzedFragment | null, moved: Dirs | null): void => {
    const known = fragment.argvInfo !== undefined;
    const info = (i: number): WordInfo | undefined => wordInfo(fragment.argv[i]!, fragment.argvInfo?.[i], known);
    const targetInfo = (r: Redirect): WordInfo | undefined => wordInfo(r.target!, r.targetInfo, known);
    const readOnly = isReadOnly(fragment.argv);
    const verbAt = firstNonAssignment(fragment.argv);
    const data = notPaths(fragment, verbAt, feedsRunner.get(fragment) ?? true);
    // `… | xargs cat`: the words xargs appends are unknown, like `$f` (scope, and protected when it may write).
    for (const view of analysed?.views ?? [fragment.argv]) {
      const fed = inputArguments(view);
      if (fed === null) continue;
      if (!asWritten) result.outside ??= `${fed.what} (its arguments come from its input)`;
      if (!fed.readOnly)
        result.protectedName ??= `${fed.what} (its arguments come from its input and could name a protected path)`;
      break;
    }
    // Where an install writes does not depend on the directory: judged once per fragment.
    let install: string | null | undefined;
    for (const dir of dirs) {
      if (!asWritten && result.outside === null) {
        // null is an answer too: `??=` would judge it again for every directory.
        if (install === undefined) install = installOutside(fragment, analysed);
        judgeScope(fragment, dir, moved, info, targetInfo, result, startCwd, data, install);
      }
      // A directory change names a directory, it writes nothing: where it leads is what later
      // fragments are judged in (and a command run inside .git is caught there).
      if (result.protectedWrite === null)
        protectedHits(fragment, dir, analysed, readOnly || moved !== null, verbAt, info, targetInfo, asWritten, result);
    }
  };
  const flow = walkDirs(command, startDirs, visit);
  const cdInScope = command.fragments.map((f, i) => {
    const moved = flow.moved[i];
    if (moved === null || moved === undefined || f.fragment.redirects.length > 0) return false;
    const inside = (d: DirNode | null): boolean => d !== null && d.insideRoot();
    return flow.runIn[i]!.every(inside) && moved.every(inside);
  });
  return { ...result, cdInScope };
}

/**
 * Per top-level fragment: whether its output reaches, through a pipe, a command that may run or
 * open what it reads (`echo ../x | xargs cat`). Read-only commands pass it on without doing so.
 */
function pipedIntoRunner(command: AnalyzedCommand): Map<Fragment, boolean> {
  const out = new Map<Fragment, boolean>();
  const fragments = command.fragments;
  let nextFeeds = false;
  for (let i = fragments.length - 1; i >= 0; i--) {
    const f = fragments[i]!.fragment;
    const next = fragments[i + 1]?.fragment;
    const piped = f.sep === '|' || f.sep === '|&';
    const feeds: boolean = piped && (next === undefined || !isReadOnly(next.argv) || nextFeeds);
    out.set(f, feeds);
    nextFeeds = feeds;
  }
  return out;
}

const NONE: ReadonlySet<number> = new Set();

/** The words of a fragment that are data, not paths (argument-roles.ts), unless they may become paths downstream. */
function notPaths(fragment: Fragment, verbAt: number, feedsRunner: boolean): ReadonlySet<number> {
  const verb = fragment.argv[verbAt];
  if (verb === undefined || (feedsRunner && PRINTS_ITS_DATA.has(verb))) return NONE;
  return dataWords(fragment.argv, verbAt);
}

/** Every reading: `env npm i -g x` and `timeout 60 pip install --user x` install outside too. */
function installOutside(fragment: Fragment, analysed: AnalyzedFragment | null): string | null {
  // The fragment's own words first, with the assignments a wrapper passes on (`env
  // npm_config_global=true npm i x`); the other readings hold no assignment it has not seen.
  const own = globalInstall(fragment.argv, firstNonAssignment(fragment.argv));
  if (own !== null) return own;
  for (const view of analysed?.views ?? []) {
    const found = installer(view, firstNonAssignment(view));
    if (found !== null) return found;
  }
  return null;
}

function firstNonAssignment(argv: readonly string[]): number {
  let i = 0;
  while (i < argv.length && isAssignment(argv[i]!)) i++;
  return i;
}

function judgeScope(
  fragment: Fragment,
  dir: DirNode | null,
  moved: Dirs | null,
  info: (i: number) => WordInfo | undefined,
  targetInfo: (r: Redirect) => WordInfo | undefined,
  result: Walk,
  startCwd: string | null,
  data: ReadonlySet<number>,
  install: string | null,
): void {
  if (dir === null || !dir.insideRoot()) {
    result.outside =
      dir?.toString() ??
      (startCwd !== null && startCwd.startsWith('/')
        ? '(unknown working directory)'
        : (startCwd ?? '(unknown working directory)'));
    return;
  }
  if (moved !== null) {
    // A directory change: where it leads is judged (its own target words are not paths it uses).
    if (moved.some((d) => d === null || !d.insideRoot()))
      result.outside = `cd ${fragment.argv.slice(1).join(' ')}`.trimEnd();
  } else {
    result.outside = install;
    for (let i = 0; i < fragment.argv.length && result.outside === null; i++) {
      const word = fragment.argv[i]!;
      const about = info(i);
      // Literal data words are not read (`grep '../x' f`). A word the shell expands (`$HOME`,
      // an unquoted `~`) is judged as before: what it becomes is unknown.
      if (data.has(i) && about === undefined) continue;
      // The common case, decided without building a path: a plain word with no `/` and no `..`
      // names nothing outside a directory that is inside.
      if (about === undefined && !word.includes('/') && !word.includes('..')) continue;
      const path = asPath(word, about);
      if (path !== null && classifyPath(path, dir).outside) result.outside = fragment.argv[i]!;
    }
  }
  for (const r of fragment.redirects) {
    if (result.outside !== null) return;
    if (!targetIsPath(r)) continue;
    const path = asPath(r.target, targetInfo(r), true);
    if (path !== null && classifyPath(path, dir).outside) result.outside = r.target;
  }
}

/** Records the first certain protected write and the first possible one / protected name. */
function protectedHits(
  fragment: Fragment,
  dir: DirNode | null,
  analysed: AnalyzedFragment | null,
  readOnly: boolean,
  verbAt: number,
  info: (i: number) => WordInfo | undefined,
  targetInfo: (r: Redirect) => WordInfo | undefined,
  asWritten: boolean,
  result: Walk,
): void {
  /**
   * A write target: certain hits stop the search, possible ones are kept for later. A `.git`
   * entry itself counts at any depth: a copied folder brings its hooks, and a written, moved or
   * removed `.git` file (a worktree's or submodule's `gitdir:` pointer) sends git to a config the
   * command chose.
   */
  const written = (path: PathWord | null, shown: string): boolean => {
    if (path === null) return false;
    const c = classifyPath(path, dir, asWritten);
    if (!(c.protected || c.gitFolder)) return false;
    if (!c.uncertain) {
      result.protectedWrite = shown;
      return true;
    }
    result.protectedName ??= `${shown} (could name a protected path)`;
    return false;
  };
  for (const r of fragment.redirects) {
    if (
      r.target !== null &&
      WRITE_REDIRECTIONS.has(r.op) &&
      !isFdNumber(r.target) &&
      written(asPath(r.target, targetInfo(r), true), r.target)
    )
      return;
  }
  let argv0Known = false;
  if (analysed !== null) {
    const byWord = infoByWord(fragment);
    const viewInfo = (word: string): WordInfo | undefined =>
      byWord === null ? wordInfo(word, undefined, false) : byWord.get(word);
    for (const view of analysed.views) {
      const targets = writeTargets(view);
      // `chmod -R a-w .`, `chmod 000 .git`: a recursive change of a folder holding protected paths.
      if (changesRecursively(view)) {
        for (const path of changedPaths(view, targets.paths)) {
          const c = classifyPath(
            asPath(path, viewInfo(path)) ?? { text: path, glob: null, expands: false },
            dir,
            asWritten,
          );
          if (c.gitFolder || c.holdsRoot === true) {
            if (c.uncertain) result.protectedName ??= `${path} (could hold a protected path)`;
            else {
              result.protectedWrite = path;
              return;
            }
          }
        }
      }
      if (view === analysed.fragment.argv || view.length === fragment.argv.length) argv0Known ||= isKnownWriter(view);
      // An operand that starts with `-` (after `--`) is also a file name as it stands:
      // `cp -- a -x/../permissions.json` writes the root's permissions.json.
      for (const path of targets.paths) {
        if (written(asPath(path, viewInfo(path)), path)) return;
        if (path.startsWith('-') && written(asPath(path, viewInfo(path), true), path)) return;
      }
      if (targets.into !== null) {
        const into = targets.into;
        const dirInfo = viewInfo(into.dir);
        for (const name of into.names) {
          const text = `${into.dir}/${name}`;
          const glob = dirInfo?.glob == null ? null : `${dirInfo.glob}/${name}`;
          if (written({ text, glob, expands: dirInfo?.expands === true }, text)) return;
        }
      }
    }
  } else {
    argv0Known = isKnownWriter(fragment.argv);
  }
  if (result.protectedName !== null || readOnly) return;
  // Issue 9 A.3: a command the engine does not know as read-only naming a protected path
  // anywhere in its words. A known writer's operands were checked exactly above (its sources
  // are reads: `cp .git/config backup`), but its options may still write (`--log-file=F`).
  // Outside `.git`, a plain word with neither `/` nor `.` cannot name a protected path (each of
  // `.git` and `permissions.json` has a dot; `config` and `hooks` need a `.git` before them).
  const plainIsSafe = dir !== null && !dir.inGit && !dir.hooks;
  for (let i = 0; i < fragment.argv.length; i++) {
    if (i === verbAt) continue;
    const word = fragment.argv[i]!;
    if (argv0Known && !word.startsWith('-')) continue;
    // Code handed to an interpreter (`python3 -c "open('.git/config','a')"`) names the path
    // inside a string: a plain mention is enough to ask.
    if (!argv0Known && mentionsProtected(word)) {
      result.protectedName = word;
      return;
    }
    const about = info(i);
    if (plainIsSafe && about === undefined && !word.includes('.') && !word.includes('/')) continue;
    for (const path of argumentPaths(word, about)) {
      const c = classifyPath(path, dir, asWritten);
      if (c.protected || c.gitFolder) {
        result.protectedName = c.uncertain ? `${fragment.argv[i]!} (could name a protected path)` : fragment.argv[i]!;
        return;
      }
    }
  }
  if (dir !== null && dir.inGit) result.protectedName = `${dir.toString()} (the working directory is inside .git)`;
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

export function checkScope(command: AnalyzedCommand, startCwd: string | null, rootInput: string): ScopeResult {
  return walk(command, startCwd, rootInput, false);
}

/**
 * A fragment (at any depth, through wrappers, in any directory it may run in) that writes,
 * moves, links or deletes `<root>/permissions.json`, anything under `.git/hooks/`, or
 * `.git/config` (by a redirect, `tee`, or a command that names its targets: write-targets.ts),
 * or any command that is not read-only naming one of them or a `.git` folder. Case-insensitive.
 * Without a root (`rootInput` ''), paths are judged as written.
 */
export function findProtectedWrite(
  command: AnalyzedCommand,
  startCwd: string | null,
  rootInput: string,
): string | null {
  const asWritten = normalizedRoot(rootInput) === null || startCwd === null;
  const found = walk(command, startCwd, rootInput, asWritten);
  return found.protectedWrite ?? found.protectedName;
}
