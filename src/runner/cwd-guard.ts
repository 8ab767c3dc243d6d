// Decides whether a command may run in a given cwd: the cwd must name a place inside the root the
// runner serves, both as written (lexically) and once symlinks are resolved (realpath), so a link
// inside the root that points outside it is refused like `..` would be.
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { RUNNER_FAILURES, RUNNER_REFUSALS } from '../../runner-protocol/index.ts';

export type CwdVerdict =
  | { ok: true; realCwd: string; realRoot: string }
  | { ok: false; status: 'refused' | 'failed'; code: string; message: string };

/** True when `candidate` is `root` itself or below it. Both must be normalized absolute paths. */
export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return candidate.startsWith(prefix);
}

/** The lexical half: absolute, no `..` segment, no NUL, inside the root. No file system access. */
export function checkCwdLexically(root: string, cwd: string): string | null {
  if (cwd.length === 0) return 'the cwd is empty';
  if (cwd.includes('\0')) return 'the cwd contains a NUL byte';
  if (!path.isAbsolute(cwd)) return `the cwd "${cwd}" is not an absolute path`;
  if (cwd.split('/').includes('..')) return `the cwd "${cwd}" contains a ".." segment`;
  if (!isInside(path.resolve(root), path.resolve(cwd))) {
    return `the cwd "${cwd}" is outside the runner's root "${root}"`;
  }
  return null;
}

const outside = (message: string): CwdVerdict => ({
  ok: false,
  status: 'refused',
  code: RUNNER_REFUSALS.cwdOutsideRoot,
  message,
});

/**
 * Full check. Returns the resolved cwd, which is what the command must be spawned in: using the
 * real path closes the window where a checked symlink is swapped before the spawn. Synchronous on
 * purpose: it sits between `execute` and the spawn, and three thread-pool round trips cost far
 * more (milliseconds on a busy machine) than these cached-dentry system calls (microseconds).
 */
export function checkCwd(root: string, cwd: string): CwdVerdict {
  const lexical = checkCwdLexically(root, cwd);
  if (lexical !== null) return outside(`${lexical}; commands only run inside --root`);

  let realRoot: string;
  let realCwd: string;
  try {
    realRoot = realpathSync.native(root);
  } catch (error) {
    return {
      ok: false,
      status: 'failed',
      code: RUNNER_FAILURES.rootMissing,
      message: `the runner's root "${root}" cannot be resolved (${(error as NodeJS.ErrnoException).code ?? 'error'}); restart the runner with an existing --root`,
    };
  }
  try {
    realCwd = realpathSync.native(cwd);
  } catch (error) {
    return {
      ok: false,
      status: 'failed',
      code: RUNNER_FAILURES.cwdMissing,
      message: `the cwd "${cwd}" does not exist on the runner's machine (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    };
  }
  if (!isInside(realRoot, realCwd)) {
    return outside(
      `the cwd "${cwd}" resolves to "${realCwd}", outside the runner's root "${realRoot}" (a symlink leads out); commands only run inside --root`,
    );
  }
  if (!isDirectory(realCwd)) {
    return {
      ok: false,
      status: 'failed',
      code: RUNNER_FAILURES.cwdMissing,
      message: `the cwd "${cwd}" is not a directory`,
    };
  }
  return { ok: true, realCwd, realRoot };
}

function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
