// Issue 9 B.5: the files that decide what runs next (permissions.json, .git/config, .git/hooks) are
// bind-mounted read-only over their own places under /work, so a command in the container cannot
// change them even when decide() was fooled into auto-approving it. They are created first when
// absent: protection must not depend on the project already having them.
//
// .git itself is bind-mounted onto itself (read-write): a mount point cannot be renamed, removed or
// replaced (EBUSY), so `mv .git x && mkdir .git && ...` cannot swap in a repository whose config
// is writable. `.git/commondir` would let a repository read its config and hooks from another
// folder, so it is pinned too: created as "." when absent (git then uses .git itself, exactly as
// without the file) and mounted read-only.
//
// What those files point at inside the project is protected the same way: a core.hooksPath folder
// (husky's `.husky`), include.path files, and the targets of hooks that are symlinks (`pre-commit
// -> ../../scripts/pre-commit`); otherwise a command would rewrite the hook instead of .git/hooks.
//
// A protected path that is a symlink is refused: Docker follows a bind source's symlinks, so a
// `.git/config -> /etc/shadow` would otherwise expose a host file inside the container.
import { chown, lstat, mkdir, readdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { failure } from './failures.ts';
import { gitConfigProgramTargets, gitConfigTargets, placeOf } from './git-config-refs.ts';
import { WORKSPACE_MOUNT } from './paths.ts';
import type { BrokerFailure } from './port.ts';

export interface ProtectedMount {
  source: string;
  /** Absolute path inside the container. */
  target: string;
  readOnly: boolean;
}

export const PERMISSIONS_FILE = 'permissions.json';
/** An empty permissions.json reads exactly like an absent one: no rules. */
const EMPTY_PERMISSIONS = '{}\n';

export type Owner = { uid: number; gid: number } | undefined;

/** `1000:1000` -> {uid, gid}; a name (not numeric) cannot be resolved on the host: undefined. */
export function parseOwner(user: string): Owner {
  const match = /^([0-9]+)(?::([0-9]+))?$/.exec(user);
  if (match?.[1] === undefined) return undefined;
  const uid = Number(match[1]);
  return { uid, gid: match[2] === undefined ? uid : Number(match[2]) };
}

class Unsafe extends Error {}

/**
 * Creates what is missing (owned by the container user) and returns the mounts, parents first.
 * Nothing is created outside `workspace`.
 */
export async function prepareProtectedPaths(
  workspace: string,
  owner: Owner,
): Promise<ProtectedMount[] | BrokerFailure> {
  const mounts: ProtectedMount[] = [];
  const toTarget = (hostPath: string) => join(WORKSPACE_MOUNT, relative(workspace, hostPath));
  const make = async (path: string, kind: 'file' | 'dir', content = ''): Promise<'file' | 'dir'> => {
    const found = await lstat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (found?.isSymbolicLink()) throw new Unsafe(`${path} is a symbolic link`);
    if (found === undefined) {
      try {
        if (kind === 'dir') await mkdir(path, { mode: 0o755 });
        else await writeFile(path, content, { flag: 'wx', mode: 0o644 });
      } catch (error) {
        // Another start of the same project created it a moment ago: look again.
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return make(path, kind, content);
        throw error;
      }
      if (owner !== undefined && process.getuid?.() === 0) await chown(path, owner.uid, owner.gid);
      return kind;
    }
    if (found.isDirectory()) return 'dir';
    if (found.isFile()) return 'file';
    throw new Unsafe(`${path} is neither a regular file nor a folder`);
  };
  const protectGitDir = async (gitDir: string) => {
    for (const [name, kind] of [
      ['hooks', 'dir'],
      ['config', 'file'],
    ] as const) {
      const path = join(gitDir, name);
      if ((await make(path, kind)) !== kind)
        throw new Unsafe(`${path} is not a ${kind === 'dir' ? 'folder' : 'regular file'}`);
      mounts.push({ source: path, target: toTarget(path), readOnly: true });
    }
    const commondir = join(gitDir, 'commondir');
    if ((await make(commondir, 'file', '.\n')) !== 'file') throw new Unsafe(`${commondir} is not a regular file`);
    mounts.push({ source: commondir, target: toTarget(commondir), readOnly: true });
    const common = resolve(gitDir, (await readFile(commondir, 'utf8')).trim() || '.');
    if (common !== gitDir && isInside(workspace, common)) {
      // A linked worktree's common folder inside the project: its config and hooks count too.
      for (const [name, kind] of [
        ['hooks', 'dir'],
        ['config', 'file'],
      ] as const) {
        const path = join(common, name);
        if ((await make(path, kind)) === kind) mounts.push({ source: path, target: toTarget(path), readOnly: true });
      }
    }
    await protectReferences(gitDir);
  };
  /** What the config and the hooks point at inside the project: read-only too. */
  const protectReferences = async (gitDir: string) => {
    const hookDirs = [join(gitDir, 'hooks')];
    const config = join(gitDir, 'config');
    // `~` is the container user's home, outside the project: not followed.
    const targets = gitConfigTargets(await readFile(config, 'utf8'), {
      worktree: workspace,
      configDir: gitDir,
      home: null,
      absolute: (value) => inProject(value, workspace),
    });
    for (const target of targets.hooksPaths) {
      const path = resolve(target);
      const place = placeOf(workspace, path);
      if (place === 'outside') continue;
      if (place === 'project') throw new Unsafe(`core.hooksPath in ${config} is the project folder itself`);
      if ((await make(path, 'dir')) !== 'dir') throw new Unsafe(`${path} (core.hooksPath) is not a folder`);
      protect(path);
      hookDirs.push(path);
    }
    for (const target of targets.includes) {
      const path = resolve(target);
      if (placeOf(workspace, path) !== 'inside') continue;
      if ((await make(path, 'file')) !== 'file') throw new Unsafe(`${path} (include.path) is not a regular file`);
      protect(path);
    }
    // Programs config values name inside the project (core.fsmonitor = ./tools/watch, a filter
    // driver, an alias `!./x`) and the scripts their lines run: read-only. A program that does not
    // exist is created empty and not executable (git fails to run it as it did before: the
    // container's mounts are fixed when it is made, so nothing can be removed after each command).
    const programs = gitConfigProgramTargets(await readFile(config, 'utf8'), {
      worktree: workspace,
      configDir: gitDir,
      home: null,
      absolute: (value) => inProject(value, workspace),
    });
    for (const target of programs.programs) {
      const path = resolve(target);
      if (placeOf(workspace, path) !== 'inside') continue;
      await mkdir(dirname(path), { recursive: true });
      await make(path, 'file');
      protect(path);
    }
    for (const target of programs.scripts) {
      const path = resolve(target);
      if (placeOf(workspace, path) !== 'inside') continue;
      const found = await lstat(path).catch(() => undefined);
      if (found?.isFile()) protect(path);
    }
    // A hook that is a symlink runs whatever it points to: that file is protected too.
    for (const folder of hookDirs) {
      for (const name of await readdir(folder)) {
        const hook = join(folder, name);
        if (!(await lstat(hook)).isSymbolicLink()) continue;
        const target = await realpath(hook).catch(() => undefined);
        if (target === undefined)
          throw new Unsafe(`${hook} is a symbolic link to nothing (a command could create its target)`);
        if (isInside(await realpath(workspace), target))
          protect(join(workspace, relative(await realpath(workspace), target)));
      }
    }
  };
  const protect = (path: string) => {
    if (!mounts.some((mount) => mount.source === path))
      mounts.push({ source: path, target: toTarget(path), readOnly: true });
    // The folders between the project and it are pinned (bound onto themselves): renaming a folder
    // above a mount point is allowed and would carry the protected entry away (`mv .husky x &&
    // mkdir -p .husky/_`).
    for (let folder = dirname(path); isInside(workspace, folder); folder = dirname(folder))
      if (!mounts.some((mount) => mount.source === folder))
        mounts.push({ source: folder, target: toTarget(folder), readOnly: false });
  };

  try {
    const permissions = join(workspace, PERMISSIONS_FILE);
    if ((await make(permissions, 'file', EMPTY_PERMISSIONS)) !== 'file')
      throw new Unsafe(`${permissions} is not a regular file`);
    mounts.push({ source: permissions, target: toTarget(permissions), readOnly: true });

    const git = join(workspace, '.git');
    if ((await make(git, 'dir')) === 'dir') {
      mounts.push({ source: git, target: toTarget(git), readOnly: false });
      await protectGitDir(git);
    } else {
      // `.git` is a file (`gitdir: <path>`): pin it read-only; protect the folder it names when
      // that folder is inside the project (outside, the container cannot see it).
      mounts.push({ source: git, target: toTarget(git), readOnly: true });
      const pointer = /^gitdir:\s*(.+)$/m.exec(await readFile(git, 'utf8'))?.[1]?.trim();
      const gitDir = pointer === undefined ? undefined : resolve(workspace, pointer);
      if (gitDir !== undefined && isInside(workspace, gitDir) && gitDir !== workspace) {
        if ((await make(gitDir, 'dir')) !== 'dir') throw new Unsafe(`${gitDir} (named by .git) is not a folder`);
        mounts.push({ source: gitDir, target: toTarget(gitDir), readOnly: false });
        await protectGitDir(gitDir);
      }
    }
  } catch (error) {
    return preparationFailed(workspace, error);
  }
  // Parents before children, so a read-only file is mounted over the pinned folder, not under it.
  return mounts.sort((a, b) => a.target.split('/').length - b.target.split('/').length);
}

/** An absolute config value as a host path: `/work/...` is how git inside the container sees the project. */
function inProject(value: string, workspace: string): string {
  return value === WORKSPACE_MOUNT || value.startsWith(`${WORKSPACE_MOUNT}/`)
    ? join(workspace, value.slice(WORKSPACE_MOUNT.length))
    : value;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

function preparationFailed(workspace: string, error: unknown): BrokerFailure {
  if (error instanceof Unsafe) {
    return failure(
      'workspace_unsafe',
      `The project folder "${workspace}" cannot be protected: ${error.message}. ` +
        'permissions.json, .git, .git/config, .git/hooks and .git/commondir must be real files and folders inside the project; replace the link, then start again.',
      { hostPath: workspace },
    );
  }
  const errno = (error as NodeJS.ErrnoException).code;
  if (errno === 'ENOENT') {
    return failure(
      'workspace_missing',
      `The project folder "${workspace}" does not exist on the Docker host, so it cannot be mounted at /work. Create the folder (writable by the container user) and start again.`,
      { hostPath: workspace },
    );
  }
  return failure(
    'workspace_not_writable',
    `The broker could not create the protected files of the project folder "${workspace}" (${errno ?? String(error)}). ` +
      'Give the gateway write access to the folder (and make it owned by the container user), then start again.',
    { hostPath: workspace, errno },
  );
}
