// Makes the protected files exist before a sandboxed command starts, so that read-only mounts can
// cover them: a protection that only holds when the file happens to exist would let the agent
// create `.git/hooks/pre-commit` in a fresh repository. Returns what to protect and what to pin.
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, writeSync } from 'node:fs';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { isInside } from '../cwd-guard.ts';
import { gitObjectFormat } from '../../../broker/git-config-refs.ts';
import { GitIndexError, indexGitlinks } from './git-index.ts';
import type { HashBytes } from './git-index.ts';
import { GitRefUnprotectableError, protectGitRefs } from './git-refs.ts';
import type { SandboxGit } from './policy.ts';
import { PROTECTED_IN_ROOT } from './rules.ts';
import type { ProtectedPath } from './rules.ts';

/** permissions.json as written when absent: the same as no file (no rules), but now pinned read-only. */
export const EMPTY_PERMISSIONS_TEXT = '{"allow": [], "deny": [], "ask": []}\n';

/** Git files that redirect where git reads its config and hooks from: read-only when present. */
export const GIT_REDIRECTS = ['commondir', 'modules', 'worktrees', 'config.worktree'] as const;

export class SandboxUnprotectableError extends Error {
  override name = 'SandboxUnprotectableError';
  readonly code = 'sandbox_unprotectable';
}

export interface Protection {
  readOnly: ProtectedPath[];
  pinned: string[];
  /** Redirect names absent now: nothing to mount over, so they may not appear (see rules.ts). */
  mustNotAppear: string[];
}

/**
 * Checked before every command, sandboxed or not: a `.git/commondir` in a main repository (which
 * never has one) sends git to another config and hooks. One left behind by a sandboxed command
 * whose runner was killed before it could delete it would otherwise run on the next human-approved
 * `git status`. Throws SandboxUnprotectableError.
 */
export function refuseGitRedirect(root: string): void {
  const dotGit = path.join(root, '.git');
  if (!lstatOrNull(dotGit)?.isDirectory()) return;
  const commondir = path.join(dotGit, 'commondir');
  if (lstatOrNull(commondir) === null) return;
  throw new SandboxUnprotectableError(
    `${commondir} redirects git to another repository's config and hooks; a main repository has none: remove it (after checking what it points to)`,
  );
}

/**
 * `root` must be a real path. Creates what is missing; throws SandboxUnprotectableError when a
 * protected name is a symlink. `git` is --sandbox-git: `read-only` (default) protects the whole git
 * directory (index, refs, objects: nothing can be staged or committed, so no gitlink to a planted
 * repository); `writable` only its config, hooks and redirections, and pins it.
 */
export function prepareProtection(
  root: string,
  git: SandboxGit = 'read-only',
  env: NodeJS.ProcessEnv = process.env,
): Protection {
  const protection: Protection = { readOnly: [], pinned: [], mustNotAppear: [] };
  const permissions = path.join(root, PROTECTED_IN_ROOT.permissions);
  ensureFile(root, permissions, EMPTY_PERMISSIONS_TEXT);
  protection.readOnly.push({ path: permissions, kind: 'file' });
  /** The git dirs whose config and hooks git uses for this root, wherever they lie. */
  const gitDirs: string[] = [];

  const dotGit = path.join(root, '.git');
  const gitStat = lstatOrNull(dotGit);
  if (gitStat?.isSymbolicLink()) throw unprotectable(dotGit);
  if (gitStat?.isFile()) {
    // A linked worktree or submodule: `.git` names the real git dir. The pointer itself is read-only;
    // when the git dir it names lies inside the root, it is protected like .git (outside the root
    // it is read-only with the rest of the host).
    protection.readOnly.push({ path: dotGit, kind: 'file' });
    const gitDir = linkedGitDir(dotGit);
    if (gitDir === root)
      throw new SandboxUnprotectableError(
        `${dotGit} names the project root itself as its git directory, so its config and hooks would be ordinary files of the root; point it at the real git directory`,
      );
    if (gitDir !== null && lstatOrNull(gitDir)?.isDirectory()) {
      gitDirs.push(gitDir);
      if (isInside(root, gitDir)) protectGitDir(root, gitDir, git, protection);
      // A linked worktree's git dir shares the main repository's (its commondir): config, hooks,
      // refs and objects live there, so when that lies inside the root it is protected too.
      const common = commonDirOf(gitDir);
      if (common !== null && common !== gitDir) {
        if (common === root)
          throw new SandboxUnprotectableError(
            `${gitDir}/commondir names the project root itself; point it at the real git directory`,
          );
        gitDirs.push(common);
        if (isInside(root, common)) protectGitDir(root, common, git, protection);
      }
    }
  } else {
    if (gitStat === null) mkdirSync(dotGit, { mode: 0o755 });
    // A main repository's .git never has a commondir (only linked worktrees' git dirs do).
    refuseGitRedirect(root);
    protectGitDir(root, dotGit, git, protection);
    gitDirs.push(dotGit);
  }
  // Existing submodules: their `.git` stays where it is, or nothing appears there.
  const repos = [{ worktree: root, gitDirs }];
  if (gitDirs.length > 0) protectSubmodules(root, root, gitDirs, git, protection, repos, 0, { gitlinks: 0 });
  // What the configs and the hooks point at inside the root: read-only too, in both modes.
  let refs;
  try {
    refs = protectGitRefs({ root, repos, env });
  } catch (error) {
    if (error instanceof GitRefUnprotectableError) throw new SandboxUnprotectableError(error.message);
    throw error;
  }
  protection.readOnly.push(...refs.readOnly);
  protection.pinned.push(...refs.pinned);
  protection.mustNotAppear.push(...refs.mustNotAppear);
  return protection;
}

/**
 * Applied before the rules are made (launch.ts). What lies inside a read-only folder is covered by it (`.git/modules/lib` inside the read-only
 * `.git`, a program `.git/hooks/fsmonitor-watchman`): a pin or a read-only mount there would only
 * add mounts, and a writable pin would be a writable mount inside the read-only folder.
 */
export function withoutCovered(protection: Protection): Protection {
  const readOnlyDirs = protection.readOnly.filter((entry) => entry.kind === 'dir').map((entry) => entry.path);
  const covered = (entry: string) => readOnlyDirs.some((dir) => entry.startsWith(`${dir}/`));
  const unique = <T>(list: T[], key: (entry: T) => string) => [
    ...new Map(list.map((entry) => [key(entry), entry])).values(),
  ];
  return {
    readOnly: unique(protection.readOnly, (entry) => entry.path).filter((entry) => !covered(entry.path)),
    pinned: unique(protection.pinned, (folder) => folder).filter(
      (folder) => !covered(folder) && !readOnlyDirs.includes(folder),
    ),
    mustNotAppear: unique(protection.mustNotAppear, (entry) => entry).filter((entry) => !covered(entry)),
  };
}

/** Submodules inside submodules, this deep at most (git has no limit; a repository this deep is refused). */
export const MAX_SUBMODULE_DEPTH = 8;
/** Gitlinks followed for one command at most (each costs a few mounts). */
export const MAX_GITLINKS = 1024;

/**
 * The gitlinks (mode 160000 entries) of the index of `gitDirs[0]`: `git status` recurses into each
 * whose `<path>/.git` exists and runs that repository's config (core.fsmonitor). A command could
 * replace that `.git` (a `gitdir:` file, or an old-style embedded folder) with a repository of its
 * own, or create one where the submodule is not checked out. So: an existing `.git` file is
 * read-only, and the git dir it names is protected like the root's when it lies inside the root
 * (`.git/modules/<name>` is already: inside the read-only git dir, or one of the redirections
 * read-only with --sandbox-git writable); an embedded `.git` folder is protected like the root's
 * (whole, or its config, hooks and redirections); the folders from the work tree down to it are
 * pinned (a rename would carry it away). Where `.git` does not exist, nothing may appear (deleted
 * after the command). Recurses into the submodules' own indexes.
 */
function protectSubmodules(
  root: string,
  worktree: string,
  gitDirs: string[],
  git: SandboxGit,
  out: Protection,
  repos: Array<{ worktree: string; gitDirs: string[] }>,
  depth: number,
  count: { gitlinks: number },
): void {
  const gitDir = gitDirs[0] as string;
  let gitlinks: string[];
  try {
    gitlinks = indexGitlinks(path.join(gitDir, 'index'), hashBytesOf(gitDirs));
  } catch (error) {
    if (error instanceof GitIndexError)
      throw new SandboxUnprotectableError(
        `${error.message}; without its gitlinks (submodules) the sandbox cannot keep their .git in place`,
      );
    throw error;
  }
  if (gitlinks.length === 0) return;
  if (depth >= MAX_SUBMODULE_DEPTH)
    throw new SandboxUnprotectableError(
      `${worktree} is a submodule ${depth} levels deep that has submodules of its own; the sandbox follows ${MAX_SUBMODULE_DEPTH} levels`,
    );
  for (const gitlink of gitlinks) {
    if (++count.gitlinks > MAX_GITLINKS)
      throw new SandboxUnprotectableError(`more than ${MAX_GITLINKS} submodules: the sandbox cannot protect them all`);
    const dotGit = submoduleDotGit(root, worktree, gitlink, out);
    if (dotGit === null) continue;
    const stat = lstatOrNull(dotGit);
    if (stat === null) {
      out.mustNotAppear.push(dotGit);
      continue;
    }
    if (stat.isSymbolicLink()) throw unprotectable(dotGit);
    const subWorktree = path.dirname(dotGit);
    const subGitDirs: string[] = [];
    if (stat.isDirectory()) {
      protectGitDir(root, dotGit, git, out);
      subGitDirs.push(dotGit);
    } else {
      out.readOnly.push({ path: dotGit, kind: 'file' });
      const named = linkedGitDir(dotGit);
      if (named === null || !lstatOrNull(named)?.isDirectory()) continue; // git finds no repository there either
      if (named === root || named === subWorktree)
        throw new SandboxUnprotectableError(
          `${dotGit} names a work tree as its git directory, so its config would be an ordinary file; point it at the real git directory`,
        );
      if (isInside(root, named)) protectGitDir(root, named, git, out);
      subGitDirs.push(named);
      const common = commonDirOf(named);
      if (common !== null && common !== named) {
        if (isInside(root, common)) protectGitDir(root, common, git, out);
        subGitDirs.push(common);
      }
    }
    repos.push({ worktree: subWorktree, gitDirs: subGitDirs });
    protectSubmodules(root, subWorktree, subGitDirs, git, out, repos, depth + 1, count);
  }
}

/**
 * `<worktree>/<gitlink>/.git`, with the folders from the work tree down to the gitlink pinned when it exists;
 * null when a file stands on the way (then that file is kept read-only: no folder can take its
 * place). A folder on the way that does not exist yet: the `.git` below it must not appear.
 */
function submoduleDotGit(root: string, worktree: string, gitlink: string, out: Protection): string | null {
  const parts = gitlink.split('/');
  // git refuses such a path itself (verify_path): it never checks one out.
  if (parts.some((part) => part.toLowerCase() === '.git')) return null;
  let current = worktree;
  const folders: string[] = [];
  for (const part of parts) {
    current = path.join(current, part);
    const stat = lstatOrNull(current);
    if (stat === null) {
      out.mustNotAppear.push(path.join(worktree, gitlink, '.git'));
      return null;
    }
    if (stat.isSymbolicLink())
      throw new SandboxUnprotectableError(
        `${current} is a symbolic link on the way to the submodule ${path.join(worktree, gitlink)}, so the sandbox cannot keep its .git in place (the link could be replaced by a folder holding a repository); replace the link with a folder`,
      );
    if (!stat.isDirectory()) {
      out.readOnly.push({ path: current, kind: 'file' });
      return null;
    }
    folders.push(current);
  }
  if (!isInside(root, current)) return null;
  // Pinned only under a `.git` that exists: where none does, whatever appears is removed anyway.
  if (lstatOrNull(path.join(current, '.git')) !== null) out.pinned.push(...folders);
  return path.join(current, '.git');
}

/** The index's object id length, from the repository's extensions.objectFormat. */
function hashBytesOf(gitDirs: string[]): HashBytes {
  const common = gitDirs[gitDirs.length - 1] as string;
  let text = '';
  try {
    text = readFileSync(path.join(common, 'config'), 'utf8').slice(0, 1 << 20);
  } catch {
    // no config: sha1
  }
  const format = gitObjectFormat(text);
  if (format === 'sha1') return 20;
  if (format === 'sha256') return 32;
  throw new SandboxUnprotectableError(`${common}/config names an object format git-index.ts does not know: ${format}`);
}

/**
 * The git dir itself first (read-only, or pinned: either way a mount point that cannot be renamed
 * away for a look-alike), then what must stay read-only inside it when it is writable. Its config
 * and hooks are created and checked in both modes: a `config` that is a symlink into the worktree
 * would be writable through the link.
 */
function protectGitDir(root: string, gitDir: string, git: SandboxGit, out: Protection): void {
  const readOnlyDir = git === 'read-only';
  if (readOnlyDir) out.readOnly.push({ path: gitDir, kind: 'dir' });
  else out.pinned.push(gitDir);
  const hooks = path.join(gitDir, 'hooks');
  const hooksStat = lstatOrNull(hooks);
  if (hooksStat?.isSymbolicLink()) throw unprotectable(hooks);
  if (hooksStat === null) mkdirSync(hooks, { mode: 0o755 });
  const config = path.join(gitDir, 'config');
  ensureFile(root, config, '');
  if (!readOnlyDir) {
    out.readOnly.push({ path: hooks, kind: 'dir' });
    out.readOnly.push({ path: config, kind: 'file' });
  }
  for (const name of GIT_REDIRECTS) {
    const entry = path.join(gitDir, name);
    const stat = lstatOrNull(entry);
    if (stat === null) {
      // Nothing can appear in a read-only git dir; a writable one gets it deleted afterwards.
      if (!readOnlyDir) out.mustNotAppear.push(entry);
      continue;
    }
    if (stat.isSymbolicLink()) throw unprotectable(entry);
    if (!readOnlyDir) out.readOnly.push({ path: entry, kind: stat.isDirectory() ? 'dir' : 'file' });
  }
}

/** Where a linked worktree's git dir keeps what it shares (its `commondir`), as a real path; null: none. */
function commonDirOf(gitDir: string): string | null {
  let text: string;
  try {
    text = readFileSync(path.join(gitDir, 'commondir'), 'utf8').slice(0, 8192).trim();
  } catch {
    return null;
  }
  if (text === '') return null;
  try {
    const common = realpathSync(path.resolve(gitDir, text));
    return lstatSync(common).isDirectory() ? common : null;
  } catch {
    return null;
  }
}

function ensureFile(root: string, file: string, initial: string): void {
  const stat = lstatOrNull(file);
  if (stat?.isSymbolicLink()) throw unprotectable(file);
  if (stat !== null) return;
  // 'wx': never follows or overwrites something created in between.
  try {
    const fd = openSync(file, 'wx', 0o644);
    try {
      if (initial.length > 0) writeAll(fd, initial);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (!isInside(root, realpathSync(file))) throw unprotectable(file);
}

function writeAll(fd: number, text: string): void {
  const buffer = Buffer.from(text);
  let offset = 0;
  while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
}

function linkedGitDir(dotGitFile: string): string | null {
  let text: string;
  try {
    text = readFileSync(dotGitFile, 'utf8').slice(0, 8192);
  } catch {
    return null;
  }
  const match = /^gitdir: *(.+)$/m.exec(text);
  if (!match?.[1]) return null;
  const target = path.resolve(path.dirname(dotGitFile), match[1].trim());
  try {
    return realpathSync(target);
  } catch {
    return null;
  }
}

function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

const unprotectable = (file: string): SandboxUnprotectableError =>
  new SandboxUnprotectableError(
    `${file} is a symbolic link, so the sandbox cannot keep it read-only (the link itself could be replaced); replace it with the real file or folder`,
  );
