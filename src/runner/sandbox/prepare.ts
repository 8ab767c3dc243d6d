// Makes the protected files exist before a sandboxed command starts, so that read-only mounts can
// cover them: a protection that only holds when the file happens to exist would let the agent
// create `.git/hooks/pre-commit` in a fresh repository. Returns what to protect and what to pin.
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, writeSync } from 'node:fs';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { isInside } from '../cwd-guard.ts';
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
  // What the config and the hooks point at inside the root: read-only too, in both modes.
  let refs;
  try {
    refs = protectGitRefs({ root, gitDirs, env });
  } catch (error) {
    if (error instanceof GitRefUnprotectableError) throw new SandboxUnprotectableError(error.message);
    throw error;
  }
  protection.readOnly.push(...refs.readOnly);
  protection.pinned.push(...refs.pinned);
  return protection;
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
