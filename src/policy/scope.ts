// The path scope (RN-075) and the protected files, over the fragments of a command. The
// effective cwd follows `cd` along the chain; a `cd` whose single target stays inside the root is
// `cd-in-scope` (it declares the scope instead of needing a rule). The cwd is a LexicalDir: each
// cd and each path costs its own length, never the cwd's, so a long cd chain stays linear.
import { allFragments, forEachViewOfFragment } from './analysis.ts';
import type { AnalyzedCommand } from './analysis.ts';
import { LexicalDir } from './lexical-dir.ts';
import { isInside, resolveLexically, STREAM_DEVICES } from './paths.ts';
import { isAssignment } from './tokenizer.ts';
import type { Fragment, Redirect } from './tokenizer.ts';
import { writeTargets } from './write-targets.ts';

export interface ScopeResult {
  /** The first token (or cwd) found outside the root, null when everything is inside. */
  outside: string | null;
  /** Per top-level fragment: a `cd` into the scope. */
  cdInScope: boolean[];
}

/** The part of a token that names a path: `--out=/x` -> `/x`, `A=../b` -> `../b`, `-I/usr` -> `/usr`. */
function pathPart(token: string): string | null {
  if (token.startsWith('-')) {
    const eq = token.indexOf('=');
    if (eq > 0) return token.slice(eq + 1);
    const slash = token.indexOf('/');
    const dots = token.indexOf('..');
    let at = slash < 0 ? dots : dots < 0 ? slash : Math.min(slash, dots);
    // `-f./x`: the path starts at the dot (a relative path, not `/x`).
    if (at === slash && at > 2 && token[at - 1] === '.' && isLetter(token[at - 2]!)) at--;
    return at > 0 ? token.slice(at) : null;
  }
  if (isAssignment(token)) return token.slice(token.indexOf('=') + 1);
  return token;
}

function isLetter(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/** Depends on an expansion the policy cannot know: `$VAR`, `${…}`, a leading `~`. */
export function dependsOnExpansion(value: string): boolean {
  return value.includes('$') || value.startsWith('~');
}

/**
 * Whether a token points outside the root (only absolute tokens and tokens with `..` count).
 * `dir` is the effective cwd, null when unknown; `root` is normalized absolute.
 */
function tokenOutside(token: string, dir: LexicalDir | null, root: string): boolean {
  // `-f$FILE`: an option glued to an expansion names a path nobody can know.
  if (token.startsWith('-') && token.includes('$')) return true;
  const value = pathPart(token);
  if (value === null || value === '') return false;
  if (dependsOnExpansion(value)) return true;
  if (value.startsWith('/')) {
    if (STREAM_DEVICES.includes(value)) return false;
    return !isInside(resolveLexically('/', value), root);
  }
  if (!value.includes('..')) return false;
  if (dir === null) return true;
  return !dir.isInside(dir.resolve(value));
}

const FD_DUPLICATIONS = new Set(['>&', '<&']);
const NOT_PATHS = new Set(['<<', '<<<', '<<-']);

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

/** The first word of a fragment (argv, then redirect targets) outside the root, or null. */
function firstOutside(fragment: Fragment, dir: LexicalDir | null, root: string, withArgv = true): string | null {
  if (withArgv) for (const word of fragment.argv) if (tokenOutside(word, dir, root)) return word;
  for (const r of fragment.redirects) if (targetIsPath(r) && tokenOutside(r.target, dir, root)) return r.target;
  return null;
}

function normalizedRoot(rootInput: string): string | null {
  return rootInput.startsWith('/') ? resolveLexically('/', rootInput) : null;
}

/** A `cd`'s single target when the policy can follow it, null otherwise (`cd`, `cd -`, `cd $X`). */
function cdTarget(argv: readonly string[]): string | null {
  if (argv[0] !== 'cd' || argv.length !== 2) return null;
  const target = argv[1]!;
  return target === '-' || target.startsWith('-') || dependsOnExpansion(target) ? null : target;
}

/** Follows a `cd` fragment: the new directory, null when it cannot be known. */
function follow(dir: LexicalDir | null, argv: readonly string[], root: string): LexicalDir | null {
  const target = cdTarget(argv);
  if (target === null) return null;
  if (target.startsWith('/')) {
    const next = dir ?? new LexicalDir(root, '/');
    next.cd(target);
    return next;
  }
  dir?.cd(target);
  return dir;
}

export function checkScope(command: AnalyzedCommand, startCwd: string | null, rootInput: string): ScopeResult {
  const root = normalizedRoot(rootInput);
  if (root === null) {
    return { outside: rootInput === '' ? '(no scope root)' : rootInput, cdInScope: command.fragments.map(() => false) };
  }
  const cdInScope: boolean[] = [];
  let outside: string | null = null;
  let dir = startCwd !== null && startCwd.startsWith('/') ? new LexicalDir(root, startCwd) : null;
  const judge = (fragment: Fragment, withArgv = true): void => {
    outside ??= firstOutside(fragment, dir, root, withArgv);
  };

  for (const analysed of command.fragments) {
    const fragment = analysed.fragment;
    const argv = fragment.argv;
    const cwdInside = dir !== null && dir.insideRoot();
    if (!cwdInside && outside === null) outside = dir?.toString() ?? startCwd ?? '(unknown working directory)';
    // A cd's own target is judged below, against the cwd before it; its redirects here.
    judge(fragment, argv[0] !== 'cd');
    // Commands inside `sh -c` strings run in the same directory.
    for (const nested of analysed.nested) for (const inner of allFragments(nested)) judge(inner);
    if (argv[0] !== 'cd') {
      cdInScope.push(false);
      continue;
    }
    dir = follow(dir, argv, root);
    const ok = cwdInside && dir !== null && dir.insideRoot();
    cdInScope.push(ok && fragment.redirects.length === 0);
    if (!ok && outside === null) outside = `cd ${argv.length === 2 ? argv[1]! : ''}`.trimEnd();
  }
  for (const sub of command.substitutions) for (const inner of allFragments(sub)) judge(inner);
  return { outside, cdInScope };
}

const WRITE_REDIRECTIONS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

/** Paths are judged against this when the cwd is unknown or the path depends on an expansion. */
const AS_WRITTEN = new LexicalDir('/', '/');

/**
 * A fragment (at any depth, through wrappers) that writes, moves, links or deletes
 * `<root>/permissions.json`, anything under `.git/hooks/`, or `.git/config`: by a redirect, `tee`,
 * or a command that names its targets (see write-targets.ts). Case-insensitive. Targets that
 * depend on an expansion or an unknown cwd are judged by how they are written.
 */
export function findProtectedWrite(command: AnalyzedCommand, startCwd: string | null, rootInput: string): string | null {
  const root = normalizedRoot(rootInput);
  // The cwd is built only when a target needs it (most commands write nothing): the cds seen
  // until then are replayed once.
  let dir: LexicalDir | null = null;
  let built = false;
  const cds: Array<readonly string[]> = [];
  const currentDir = (): LexicalDir | null => {
    if (!built) {
      built = true;
      dir = root !== null && startCwd !== null && startCwd.startsWith('/') ? new LexicalDir(root, startCwd) : null;
      for (const argv of cds) dir = follow(dir, argv, root!);
    }
    return dir;
  };
  const isProtected = (target: string, last?: string, gitFolderCounts = false): boolean => {
    const cwd = currentDir();
    const known = cwd !== null && !dependsOnExpansion(target);
    const base = known ? cwd : AS_WRITTEN;
    const resolved = base.resolve(target);
    if (base.isProtected(resolved, last) || (gitFolderCounts && base.isGitFolder(resolved, last))) return true;
    return !known && (last ?? target).toLowerCase().endsWith('permissions.json');
  };
  const redirectHit = (fragment: Fragment): string | null => {
    for (const r of fragment.redirects) {
      if (r.target !== null && WRITE_REDIRECTIONS.has(r.op) && !isFdNumber(r.target) && isProtected(r.target)) return r.target;
    }
    return null;
  };
  const viewHit = (view: readonly string[]): string | null => {
    const targets = writeTargets(view);
    for (const path of targets.paths) if (isProtected(path, undefined, targets.gitFolderCounts)) return path;
    if (targets.into !== null) {
      for (const name of targets.into.names) if (isProtected(targets.into.dir, name, true)) return `${targets.into.dir}/${name}`;
    }
    return null;
  };
  for (const analysed of command.fragments) {
    let hit = redirectHit(analysed.fragment);
    if (hit === null) {
      for (const nested of analysed.nested) {
        for (const inner of allFragments(nested)) if ((hit ??= redirectHit(inner)) !== null) break;
      }
    }
    if (hit === null) {
      forEachViewOfFragment(analysed, (view) => (hit = viewHit(view)) !== null);
    }
    if (hit !== null) return hit;
    if (analysed.fragment.argv[0] !== 'cd' || root === null) continue;
    if (built) dir = follow(dir, analysed.fragment.argv, root);
    else cds.push(analysed.fragment.argv);
  }
  return null;
}
