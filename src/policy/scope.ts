// The path scope (RN-075) and the protected files, over the fragments of a command. The
// effective cwd follows `cd` along the chain; a `cd` whose single target stays inside the root is
// `cd-in-scope` (it declares the scope instead of needing a rule).
import { allFragments } from './analysis.ts';
import type { AnalyzedCommand } from './analysis.ts';
import { isInside, resolveLexically, STREAM_DEVICES } from './paths.ts';
import { isAssignment } from './tokenizer.ts';
import type { Fragment } from './tokenizer.ts';
import { basename } from './wrappers.ts';

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
    const at = slash < 0 ? dots : dots < 0 ? slash : Math.min(slash, dots);
    return at > 0 ? token.slice(at) : null;
  }
  if (isAssignment(token)) return token.slice(token.indexOf('=') + 1);
  return token;
}

/** Depends on an expansion the policy cannot know: `$VAR`, `${…}`, a leading `~`. */
export function dependsOnExpansion(value: string): boolean {
  return value.includes('$') || value.startsWith('~');
}

/** Whether a token points outside the root (only absolute tokens and tokens with `..` count). */
export function tokenOutside(token: string, cwd: string | null, root: string): boolean {
  const value = pathPart(token);
  if (value === null || value === '') return false;
  if (dependsOnExpansion(value)) return true;
  if (value.startsWith('/')) {
    if (STREAM_DEVICES.includes(value)) return false;
    return !isInside(resolveLexically('/', value), root);
  }
  if (!value.includes('..')) return false;
  if (cwd === null) return true;
  return !isInside(resolveLexically(cwd, value), root);
}

const FD_DUPLICATIONS = new Set(['>&', '<&']);
const NOT_PATHS = new Set(['<<', '<<<', '<<-']);

function isFdNumber(word: string): boolean {
  if (word === '-') return true;
  if (word === '') return false;
  for (const c of word) if (c < '0' || c > '9') return false;
  return true;
}

/** The words of a fragment that may name paths: its argv and its redirect targets. */
function pathWords(fragment: Fragment): string[] {
  const words = [...fragment.argv];
  for (const r of fragment.redirects) {
    if (r.target === null || NOT_PATHS.has(r.op)) continue;
    if (FD_DUPLICATIONS.has(r.op) && isFdNumber(r.target)) continue;
    words.push(r.target);
  }
  return words;
}

export function checkScope(command: AnalyzedCommand, startCwd: string | null, rootInput: string): ScopeResult {
  const root = rootInput.startsWith('/') ? resolveLexically('/', rootInput) : null;
  const cdInScope: boolean[] = [];
  let outside: string | null = null;
  const note = (what: string): void => {
    outside ??= what;
  };
  if (root === null) note(rootInput === '' ? '(no scope root)' : rootInput);
  let cwd = startCwd !== null && startCwd.startsWith('/') ? resolveLexically('/', startCwd) : null;
  const inRoot = (path: string | null): boolean => root !== null && path !== null && isInside(path, root);

  for (const analysed of command.fragments) {
    const fragment = analysed.fragment;
    if (!inRoot(cwd)) note(cwd ?? startCwd ?? '(unknown working directory)');
    const before = cwd;
    const argv = fragment.argv;
    if (argv[0] === 'cd') {
      const target = argv.length === 2 ? argv[1]! : undefined;
      let next: string | null = null;
      if (target !== undefined && target !== '-' && !target.startsWith('-') && !dependsOnExpansion(target)) {
        if (target.startsWith('/')) next = resolveLexically('/', target);
        else if (cwd !== null) next = resolveLexically(cwd, target);
      }
      const ok = inRoot(next) && inRoot(cwd);
      cdInScope.push(ok && fragment.redirects.length === 0);
      if (!ok) note(`cd ${target ?? ''}`.trimEnd());
      cwd = next;
    } else {
      cdInScope.push(false);
    }
    // A cd's own target was judged above, against the cwd before it.
    const words = argv[0] === 'cd' ? pathWords({ ...fragment, argv: [] }) : pathWords(fragment);
    for (const word of words) {
      if (root === null || tokenOutside(word, before, root)) {
        note(word);
        break;
      }
    }
    // Commands inside `sh -c` strings run in the same directory.
    for (const nested of analysed.nested) {
      for (const inner of allFragments(nested)) {
        for (const word of pathWords(inner)) {
          if (root === null || tokenOutside(word, before, root)) note(word);
        }
      }
    }
  }
  for (const sub of command.substitutions) {
    for (const inner of allFragments(sub)) {
      for (const word of pathWords(inner)) if (root === null || tokenOutside(word, cwd, root)) note(word);
    }
  }
  return { outside, cdInScope };
}

const WRITE_REDIRECTIONS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

/** Whether a path (as resolved, or as written when it cannot be) is a file an agent must not write. */
function isProtectedPath(path: string, root: string | null): boolean {
  if (root !== null && path === (root === '/' ? '/permissions.json' : `${root}/permissions.json`)) return true;
  const segments = path.split('/');
  for (let i = 0; i + 1 < segments.length; i++) {
    if (segments[i] !== '.git') continue;
    if (segments[i + 1] === 'hooks') return true;
    if (segments[i + 1] === 'config' && i + 2 === segments.length) return true;
  }
  return false;
}

/**
 * A fragment (at any depth) that redirects or `tee`s into `<root>/permissions.json`, `.git/hooks/`
 * or `.git/config`. Targets that depend on an expansion are judged by how they are written.
 */
export function findProtectedWrite(command: AnalyzedCommand, startCwd: string | null, rootInput: string): string | null {
  const root = rootInput.startsWith('/') ? resolveLexically('/', rootInput) : null;
  let cwd = startCwd !== null && startCwd.startsWith('/') ? resolveLexically('/', startCwd) : null;
  const targetIsProtected = (target: string): boolean => {
    if (dependsOnExpansion(target) || cwd === null) {
      return target.endsWith('permissions.json') || isProtectedPath(target, null) || isProtectedPath(resolveLexically('/', target), null);
    }
    return isProtectedPath(resolveLexically(cwd, target), root);
  };
  const check = (fragment: Fragment): string | null => {
    for (const r of fragment.redirects) {
      if (r.target !== null && WRITE_REDIRECTIONS.has(r.op) && !isFdNumber(r.target) && targetIsProtected(r.target)) return r.target;
    }
    return null;
  };
  for (const analysed of command.fragments) {
    const direct = check(analysed.fragment);
    if (direct !== null) return direct;
    for (const view of analysed.views) {
      if (view[0] === undefined || basename(view[0]) !== 'tee') continue;
      for (const word of view.slice(1)) if (!word.startsWith('-') && targetIsProtected(word)) return word;
    }
    for (const nested of analysed.nested) {
      for (const inner of allFragments(nested)) {
        const hit = check(inner);
        if (hit !== null) return hit;
        if (inner.argv[0] !== undefined && basename(inner.argv[0]) === 'tee') {
          for (const word of inner.argv.slice(1)) if (!word.startsWith('-') && targetIsProtected(word)) return word;
        }
      }
    }
    const argv = analysed.fragment.argv;
    if (argv[0] === 'cd' && argv.length === 2 && cwd !== null && !dependsOnExpansion(argv[1]!)) cwd = resolveLexically(cwd, argv[1]!);
    else if (argv[0] === 'cd') cwd = null;
  }
  return null;
}
