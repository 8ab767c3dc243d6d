// The path scope (RN-075) and the protected paths, over every fragment of a command at every
// depth, judged in every directory the fragment may run in (cwd-flow.ts, issue 9 A.2). A `cd`
// whose targets all stay inside the root is `cd-in-scope` (it declares the scope instead of
// needing a rule). Protected: a write (redirect, a known writer's targets), any argument of a
// command that is not read-only naming a protected path (issue 9 A.3), in any spelling or glob
// (A.1), or a command run inside a `.git` folder.
import { allFragments } from './analysis.ts';
import type { AnalyzedCommand, AnalyzedFragment } from './analysis.ts';
import { walkDirs } from './cwd-flow.ts';
import type { Dirs } from './cwd-flow.ts';
import { DirNode, rootSpec } from './dir-node.ts';
import { classifyPath } from './path-class.ts';
import type { PathWord } from './path-class.ts';
import { FragmentPaths } from './path-words.ts';
import { resolveLexically } from './paths.ts';
import { isReadOnly } from './read-only.ts';
import { dataWords, PRINTS_ITS_DATA } from './argument-roles.ts';
import { globalInstall, INSTALL_ENVIRONMENT, installer } from './global-installs.ts';
import { inputArguments } from './input-arguments.ts';
import { isAssignment } from './tokenizer.ts';
import type { Fragment } from './tokenizer.ts';
import { isKnownWriter } from './write-targets.ts';
import { targetIsPath, writesTarget } from './redirections.ts';

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
  // Stryker disable next-line ArrayDeclaration: the walk as written installs nothing (the install check runs only with a root)
  const exported = asWritten ? [] : exportedInstallEnvironment(command);
  const visit = (fragment: Fragment, dirs: Dirs, analysed: AnalyzedFragment | null, moved: Dirs | null): void => {
    const words = new FragmentPaths(fragment);
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
        if (install === undefined) install = installOutside(fragment, analysed, exported);
        judgeScope(words, dir, moved, result, startCwd, data, install);
      }
      // A directory change names a directory, it writes nothing: where it leads is what later
      // fragments are judged in (and a command run inside .git is caught there).
      if (result.protectedWrite === null)
        protectedHits(words, dir, analysed, readOnly || moved !== null, verbAt, asWritten, result);
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
  // Stryker disable next-line BooleanLiteral: the last fragment pipes into nothing, so its value is never read
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

/**
 * Every reading: `env npm i -g x` and `timeout 60 pip install --user x` install outside too.
 * `exported`: what other fragments may have left in the environment, read first.
 */
function installOutside(
  fragment: Fragment,
  analysed: AnalyzedFragment | null,
  exported: readonly string[],
): string | null {
  const withExported = (words: readonly string[]): readonly string[] =>
    exported.length === 0 ? words : [...exported, ...words];
  // The fragment's own words first, with the assignments a wrapper passes on (`env
  // npm_config_global=true npm i x`); the other readings hold no assignment it has not seen.
  const own = globalInstall(withExported(fragment.argv), exported.length + firstNonAssignment(fragment.argv));
  if (own !== null) return own;
  // Stryker disable next-line ArrayDeclaration: without an analysis there are no readings; a string's letters name no installer
  for (const view of analysed?.views ?? []) {
    const found = installer(withExported(view), exported.length + firstNonAssignment(view));
    if (found !== null) return found;
  }
  return null;
}

/** Builtins whose assignments stay in the shell's environment (`export`, `declare -x`...). */
const EXPORTERS: ReadonlySet<string> = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

/**
 * The installers' variables a fragment of the command leaves in the environment of the others:
 * `export npm_config_global=true; npm i x`, `declare -x PIP_USER=1`, and a bare `PIP_USER=1`
 * (it changes the variable if it is already exported). Wherever it stands: one judged too many
 * can only ask. The last assignment of each name counts.
 */
function exportedInstallEnvironment(command: AnalyzedCommand): string[] {
  const last = new Map<string, string>();
  for (const fragment of allFragments(command)) {
    const argv = fragment.argv;
    const verbAt = firstNonAssignment(argv);
    const verb = argv[verbAt];
    const words = verb === undefined ? argv : EXPORTERS.has(verb) ? argv.slice(verbAt + 1) : [];
    for (const word of words) {
      // bash's `export NAME+=VALUE` appends: to an unset variable it is NAME=VALUE.
      const assignment = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/.exec(word);
      if (assignment === null) continue;
      const name = assignment[1]!;
      if (INSTALL_ENVIRONMENT.has(name.toLowerCase()))
        last.set(name.toLowerCase(), `${name}=${word.slice(assignment[0].length)}`);
    }
  }
  return [...last.values()];
}

function firstNonAssignment(argv: readonly string[]): number {
  let i = 0;
  while (i < argv.length && isAssignment(argv[i]!)) i++;
  return i;
}

function judgeScope(
  words: FragmentPaths,
  dir: DirNode | null,
  moved: Dirs | null,
  result: Walk,
  startCwd: string | null,
  data: ReadonlySet<number>,
  install: string | null,
): void {
  const fragment = words.fragment;
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
      const about = words.info(i);
      // Literal data words are not read (`grep '../x' f`). A word the shell expands (`$HOME`,
      // an unquoted `~`) is judged as before: what it becomes is unknown.
      if (data.has(i) && about === undefined) continue;
      // The common case, decided without building a path: a plain word with no `/` and no `..`
      // names nothing outside a directory that is inside.
      if (about === undefined && !word.includes('/') && !word.includes('..')) continue;
      const path = words.path(i);
      if (path !== null && classifyPath(path, dir).outside) result.outside = fragment.argv[i]!;
    }
  }
  for (const r of fragment.redirects) {
    if (result.outside !== null) return;
    if (!targetIsPath(r)) continue;
    const path = words.redirectPath(r);
    if (path !== null && classifyPath(path, dir).outside) result.outside = r.target;
  }
}

/** Records the first certain protected write and the first possible one / protected name. */
function protectedHits(
  words: FragmentPaths,
  dir: DirNode | null,
  analysed: AnalyzedFragment | null,
  readOnly: boolean,
  verbAt: number,
  asWritten: boolean,
  result: Walk,
): void {
  const fragment = words.fragment;
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
      // `> 2` writes a file named 2; only `>&2` duplicates a descriptor.
      targetIsPath(r) &&
      writesTarget(r) &&
      written(words.redirectPath(r), r.target)
    )
      return;
  }
  let argv0Known = false;
  if (analysed !== null) {
    for (const view of analysed.views) {
      const { targets, changedRecursively } = words.writes(view);
      // `chmod -R a-w .`, `chmod 000 .git`: a recursive change of a folder holding protected paths.
      if (changedRecursively !== null) {
        for (const path of changedRecursively) {
          const c = classifyPath(words.viewPath(path) ?? { text: path, glob: null, expands: false }, dir, asWritten);
          if (c.gitFolder || c.holdsRoot === true) {
            if (c.uncertain) result.protectedName ??= `${path} (could hold a protected path)`;
            else {
              result.protectedWrite = path;
              return;
            }
          }
        }
      }
      // argv itself, and readings of its length such as its verb by name (`/bin/cp` as `cp`).
      if (view.length === fragment.argv.length) argv0Known ||= isKnownWriter(view);
      // An operand that starts with `-` (after `--`) is also a file name as it stands:
      // `cp -- a -x/../permissions.json` writes the root's permissions.json.
      for (const path of targets.paths) {
        if (written(words.viewPath(path), path)) return;
        // Stryker disable next-line StringLiteral: the literal reading of a word without a leading dash is its reading
        if (path.startsWith('-') && written(words.viewPath(path, true), path)) return;
      }
      if (targets.into !== null) {
        const into = targets.into;
        const dirInfo = words.viewInfo(into.dir);
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
    if (!argv0Known && words.mentionsProtected(i)) {
      result.protectedName = word;
      return;
    }
    if (plainIsSafe && words.info(i) === undefined && !word.includes('.') && !word.includes('/')) continue;
    for (const path of words.argumentPaths(i)) {
      const c = classifyPath(path, dir, asWritten);
      if (c.protected || c.gitFolder) {
        result.protectedName = c.uncertain ? `${fragment.argv[i]!} (could name a protected path)` : fragment.argv[i]!;
        return;
      }
    }
  }
  if (dir !== null && dir.inGit) result.protectedName = `${dir.toString()} (the working directory is inside .git)`;
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
