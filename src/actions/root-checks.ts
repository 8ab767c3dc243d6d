// RN-170 on the real path, and one root per project (issue 9 A.8). The lexical checks always
// apply; the realpath checks apply where the path exists on this machine (a runner project's root
// lives on the runner's machine and may not exist here at all), so a symlink to `/` or to the
// gateway checkout is refused, like `/proc/...` and the other kernel file systems are.
import { realpathSync } from 'node:fs';
import { isInside, validateLocalRoot } from '../policy/index.ts';
import type { ExecutionMode, ProjectRootRow } from '../store/types.ts';

/** Kernel and device file systems: never a project folder, whatever follows the prefix. */
const VIRTUAL_FILESYSTEMS = ['/proc', '/sys', '/dev'] as const;

export type RootCheck = { ok: true; real: string | null } | { ok: false; code: string; message: string };

export function inVirtualFilesystem(path: string): string | null {
  return VIRTUAL_FILESYSTEMS.find((prefix) => isInside(path, prefix)) ?? null;
}

/** The real path when `path` exists on this machine, else null (nothing to resolve). */
export function realPathOrNull(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

/**
 * `root` is lexically valid already (validateLocalRoot). Refuses a root inside /proc, /sys or /dev,
 * and, when it exists here, one whose real path is a system root, inside a kernel file system or
 * overlaps the gateway checkout (compared by real paths too).
 */
export function checkRealRoot(root: string, gatewayCheckout: string): RootCheck {
  const virtual = inVirtualFilesystem(root);
  if (virtual !== null)
    return {
      ok: false,
      code: 'root_in_virtual_filesystem',
      message: `The project root "${root}" is inside ${virtual}, a kernel file system: choose a folder on disk.`,
    };
  const real = realPathOrNull(root);
  if (real === null || real === root) return { ok: true, real };
  const realVirtual = inVirtualFilesystem(real);
  if (realVirtual !== null)
    return {
      ok: false,
      code: 'root_in_virtual_filesystem',
      message: `The project root "${root}" resolves through a symbolic link to "${real}", inside ${realVirtual}: choose a real folder.`,
    };
  const checkout = realPathOrNull(gatewayCheckout) ?? gatewayCheckout;
  const checked = validateLocalRoot(real, { gatewayCheckout: checkout });
  if (!checked.ok)
    return {
      ok: false,
      code: checked.code,
      message: `The project root "${root}" resolves through a symbolic link to "${real}". ${checked.message}`,
    };
  return { ok: true, real };
}

/** Two roots overlap when they are the same folder or one contains the other. */
export const rootsOverlap = (a: string, b: string): boolean => isInside(a, b) || isInside(b, a);

/** Modes whose roots are chosen by a person and so can collide (container roots are generated). */
const CHOSEN_ROOT_MODES: ReadonlySet<ExecutionMode> = new Set(['mounted', 'runner']);

/**
 * The first existing mounted/runner project whose root overlaps `root`, as written or once
 * symlinks are resolved on this machine; null when none does.
 */
export function overlappingProject(
  root: string,
  real: string | null,
  existing: readonly ProjectRootRow[],
): ProjectRootRow | null {
  for (const row of existing) {
    if (!CHOSEN_ROOT_MODES.has(row.executionMode)) continue;
    if (rootsOverlap(root, row.root)) return row;
    const otherReal = realPathOrNull(row.root);
    const candidates = [real ?? root, root];
    const others = otherReal === null ? [row.root] : [otherReal, row.root];
    if (candidates.some((mine) => others.some((theirs) => rootsOverlap(mine, theirs)))) return row;
  }
  return null;
}
