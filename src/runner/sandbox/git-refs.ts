// What git's config makes git run or read from inside the root, outside the git dir: a
// `core.hooksPath` folder (husky's `.husky`), `include.path` / `includeIf.*.path` files (which may
// set core.fsmonitor), and the targets of hooks that are symlinks (`pre-commit ->
// ../../scripts/pre-commit`). A command could plant a hook or an fsmonitor there instead of in the
// read-only .git, and the user's next `git commit` would run it. They are made read-only like
// .git/config, created first when absent; the folders between the root and each of them are pinned
// (bound onto themselves), since renaming a folder above a mount point is allowed and would carry
// the protected entry away (`mv .husky x && mkdir -p .husky/_`).
//
// The values are read with the reader the Docker broker uses (broker/git-config-refs.ts), from
// every config git reads for this root: system, global, the repository's config and
// config.worktree, and what they include (to git's depth of 10). Paths are followed the way the
// kernel follows them; a symbolic link inside the root on the way is refused
// (sandbox_unprotectable), since the command could re-point it.
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitConfigProgramTargets, gitConfigTargets } from '../../../broker/git-config-refs.ts';
import type { RefContext } from '../../../broker/git-config-refs.ts';
import { isInside } from '../cwd-guard.ts';
import type { ProtectedPath } from './rules.ts';

/** git's own limit on nested includes. */
const MAX_INCLUDE_DEPTH = 10;
/** Symbolic links followed on one path before giving up (the kernel's ELOOP is 40). */
const MAX_LINKS = 40;
/** A config larger than this is read only this far (git configs are a few KB). */
const MAX_CONFIG_BYTES = 1 << 20;

export class GitRefUnprotectableError extends Error {
  override name = 'GitRefUnprotectableError';
}

export interface GitRefsInput {
  /** Real path of the project root. */
  root: string;
  /**
   * The repositories git works in here: the root's, then its submodules' (each with its own work
   * tree inside the root). `gitDirs`: the git dirs whose config and hooks git uses for that work
   * tree, the git dir first, then its common dir.
   */
  repos: Array<{ worktree: string; gitDirs: string[] }>;
  env: NodeJS.ProcessEnv;
}

export interface GitRefProtection {
  readOnly: ProtectedPath[];
  pinned: string[];
  /** Programs config values name that do not exist (yet): nothing may appear there (rules.ts). */
  mustNotAppear: string[];
}

export function protectGitRefs(input: GitRefsInput): GitRefProtection {
  const { root, repos, env } = input;
  const out: GitRefProtection = { readOnly: [], pinned: [], mustNotAppear: [] };
  const home = env.HOME ?? os.homedir();
  const texts = new Map<string, string | null>();
  const read = (file: string) => {
    if (!texts.has(file)) texts.set(file, readConfig(file));
    return texts.get(file) as string | null;
  };
  for (const { worktree, gitDirs } of repos) protectRepo(root, worktree, gitDirs, env, home, read, out);
  return out;
}

function protectRepo(
  root: string,
  worktree: string,
  gitDirs: string[],
  env: NodeJS.ProcessEnv,
  home: string,
  read: (file: string) => string | null,
  out: GitRefProtection,
): void {
  const context = (configDir: string): RefContext => ({ worktree, configDir, home, homeOf });

  // Every config git reads here, and every file they include (followed wherever it lies: an
  // included file outside the root may include one inside it).
  const pending: Array<{ file: string; depth: number }> = configFiles(gitDirs, env, home).map((file) => ({
    file,
    depth: 0,
  }));
  const seen = new Set<string>();
  const hookDirs = gitDirs.map((gitDir) => path.join(gitDir, 'hooks'));
  while (pending.length > 0) {
    const { file, depth } = pending.shift() as { file: string; depth: number };
    if (seen.has(file)) continue;
    seen.add(file);
    const text = read(file);
    if (text === null) continue;
    const targets = gitConfigTargets(text, context(path.dirname(file)));
    for (const target of targets.hooksPaths) {
      const real = follow(root, target);
      if (real === null) continue;
      if (real.path === root)
        throw new GitRefUnprotectableError(
          `core.hooksPath in ${file} is the project root itself, so every file in it could be a hook; point it at a folder inside the root`,
        );
      if (!isInside(root, real.path)) continue;
      protect(root, real.path, 'dir', out);
      hookDirs.push(real.path);
    }
    for (const target of targets.includes) {
      const real = follow(root, target);
      if (real === null) continue;
      if (real.path !== root && isInside(root, real.path)) protect(root, real.path, 'file', out);
      if (depth + 1 <= MAX_INCLUDE_DEPTH) pending.push({ file: real.path, depth: depth + 1 });
    }
    // Programs config values name (core.fsmonitor = ./tools/watch, a filter driver, an alias
    // `!./x`): read-only when they exist; when absent, nothing may appear there. Not created
    // first: an empty file there would change what git reports, and the folder may be the root.
    const programs = gitConfigProgramTargets(text, context(path.dirname(file)));
    for (const target of programs.programs) {
      const real = follow(root, target);
      if (real === null) {
        blockedAt(root, target, out);
        continue;
      }
      if (real.path === root || !isInside(root, real.path)) continue;
      if (real.missing) {
        if (!out.mustNotAppear.includes(real.path)) out.mustNotAppear.push(real.path);
      } else protect(root, real.path, 'file', out);
    }
    // The other words of those lines: a script an interpreter runs (`python3 tools/conv.py`), when it is one.
    for (const target of programs.scripts) {
      let real;
      try {
        real = follow(root, target);
      } catch {
        continue; // a symbolic link on the way: an argument, not certainly a script; not refused
      }
      if (real === null || real.missing || real.path === root || !isInside(root, real.path)) continue;
      if (lstatOrNull(real.path)?.isFile()) protect(root, real.path, 'file', out);
    }
  }

  // A hook that is a symbolic link runs what it points to: that is protected too.
  for (const folder of hookDirs) {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue; // absent, or not a folder (git finds no hooks there)
    }
    for (const entry of entries) {
      if (!entry.isSymbolicLink()) continue;
      const hook = path.join(folder, entry.name);
      const link = readlinkSync(hook);
      const real = follow(root, path.isAbsolute(link) ? link : `${folder}/${link}`);
      if (real === null || real.missing) {
        if (real !== null && !isInside(root, real.path)) continue; // outside: nothing can create it
        throw new GitRefUnprotectableError(
          `${hook} is a symbolic link to nothing inside the root (a command could create what it points to); remove it or create its target`,
        );
      }
      if (real.path !== root && isInside(root, real.path)) protect(root, real.path, 'file', out);
    }
  }
}

/**
 * A program path that cannot be followed because a file stands where a folder would be
 * (`tools` a file, the program `tools/watch`): that file is kept read-only, so no folder can
 * take its place.
 */
function blockedAt(root: string, target: string, out: GitRefProtection): void {
  const lexical = path.resolve(target);
  if (!isInside(root, lexical)) return;
  let current = root;
  for (const part of path.relative(root, lexical).split(path.sep)) {
    current = path.join(current, part);
    const stat = lstatOrNull(current);
    if (stat === null) return;
    if (!stat.isDirectory()) {
      protect(root, current, 'file', out);
      return;
    }
  }
}

/** The config files git reads for this root, in git's order (those that do not exist are skipped later). */
function configFiles(gitDirs: string[], env: NodeJS.ProcessEnv, home: string): string[] {
  const files: string[] = [];
  if (env.GIT_CONFIG_NOSYSTEM === undefined || env.GIT_CONFIG_NOSYSTEM === '' || env.GIT_CONFIG_NOSYSTEM === '0') {
    if (env.GIT_CONFIG_SYSTEM) files.push(env.GIT_CONFIG_SYSTEM);
    // git's compiled-in prefix differs: Debian /etc, Homebrew /opt/homebrew/etc or /usr/local/etc.
    else files.push('/etc/gitconfig', '/usr/local/etc/gitconfig', '/opt/homebrew/etc/gitconfig');
  }
  if (env.GIT_CONFIG_GLOBAL) files.push(env.GIT_CONFIG_GLOBAL);
  else
    files.push(
      path.join(env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : path.join(home, '.config'), 'git', 'config'),
      path.join(home, '.gitconfig'),
    );
  // The common dir's config is the repository's; config.worktree is per worktree (extensions.worktreeConfig).
  for (const gitDir of [...gitDirs].reverse()) files.push(path.join(gitDir, 'config'));
  for (const gitDir of gitDirs) files.push(path.join(gitDir, 'config.worktree'));
  return files.filter((file) => path.isAbsolute(file));
}

function readConfig(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').slice(0, MAX_CONFIG_BYTES);
  } catch {
    return null; // absent or unreadable: git skips it too
  }
}

/**
 * `target` (absolute, not normalized) followed as the kernel would: `..` after a symbolic link
 * goes up from where the link leads. Returns the real path, `missing` when a part of it does not
 * exist yet (the rest joined as written), or null when it cannot be followed (too many links, a
 * file in the middle). A symbolic link inside the root on the way is refused: the command could
 * re-point it after the check.
 */
export function follow(root: string, target: string): { path: string; missing: boolean } | null {
  let parts = target.split('/').filter((part) => part !== '' && part !== '.');
  let current = '/';
  let links = 0;
  while (parts.length > 0) {
    const part = parts.shift() as string;
    if (part === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    const stat = lstatOrNull(next);
    if (stat === null) return { path: path.join(next, ...parts), missing: true }; // nothing to follow below
    if (stat.isSymbolicLink()) {
      if (isInside(root, next) && next !== root)
        throw new GitRefUnprotectableError(
          `${next} is a symbolic link on the way to a path git's config or a hook names (${target}), so the sandbox cannot keep that path read-only (the link could be re-pointed); replace the link with the real folder or file, or point the config at the real path`,
        );
      if (++links > MAX_LINKS) return null;
      const link = readlinkSync(next);
      parts = [...link.split('/').filter((piece) => piece !== '' && piece !== '.'), ...parts];
      if (path.isAbsolute(link)) current = '/';
      continue;
    }
    if (!stat.isDirectory() && parts.length > 0) return null; // a file in the middle: git finds nothing
    current = next;
  }
  return { path: current, missing: false };
}

/**
 * Makes `target` (a real path inside the root, possibly missing) exist and read-only: the folders
 * from the root down to it are created when absent and pinned; the target itself is created as
 * `kind` when absent, and protected as what it is otherwise.
 */
export function protect(
  root: string,
  target: string,
  kind: 'dir' | 'file',
  out: Pick<GitRefProtection, 'readOnly' | 'pinned'>,
): void {
  const parts = path.relative(root, target).split(path.sep);
  let current = root;
  for (const part of parts.slice(0, -1)) {
    current = path.join(current, part);
    const stat = lstatOrNull(current);
    if (stat === null) mkdirSync(current, { mode: 0o755 });
    else if (stat.isSymbolicLink() || !stat.isDirectory())
      throw new GitRefUnprotectableError(
        `${current} is not a folder, on the way to ${target} that git's config names; the sandbox cannot keep that path read-only`,
      );
    if (!out.pinned.includes(current)) out.pinned.push(current);
  }
  const stat = lstatOrNull(target);
  if (stat?.isSymbolicLink())
    throw new GitRefUnprotectableError(`${target} (named by git's config or a hook) is a symbolic link`);
  let actual: 'dir' | 'file' = kind;
  if (stat === null) {
    if (kind === 'dir') mkdirSync(target, { mode: 0o755 });
    else createEmpty(target);
  } else actual = stat.isDirectory() ? 'dir' : 'file';
  if (!out.readOnly.some((entry) => entry.path === target)) out.readOnly.push({ path: target, kind: actual });
}

/** 'wx': never follows or overwrites something created in between. */
function createEmpty(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o644));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** `~user`: the current user's home by name, else /etc/passwd (macOS keeps users elsewhere: unknown). */
function homeOf(user: string): string | null {
  try {
    if (os.userInfo().username === user) return os.homedir();
  } catch {
    // no passwd entry for the current uid
  }
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const fields = line.split(':');
      if (fields[0] === user && fields[5]) return fields[5];
    }
  } catch {
    // no /etc/passwd
  }
  return null;
}

function lstatOrNull(entry: string): Stats | null {
  try {
    return lstatSync(entry);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}
