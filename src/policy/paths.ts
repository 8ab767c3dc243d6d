// Lexical path handling for the path scope (RN-075) and local roots (RN-170). No regular
// expressions and no recursion: inputs come from agents' commands, a 100 000-slash path is one
// linear scan.

/** The four device names that carry output and are nobody's files; exactly these, not all /dev. */
export const STREAM_DEVICES: readonly string[] = Object.freeze([
  '/dev/null',
  '/dev/stdin',
  '/dev/stdout',
  '/dev/stderr',
]);

/**
 * Resolves `path` against `base` (absolute) lexically: `.`, `..` and repeated or trailing slashes
 * are folded; symlinks are not followed (the scope is policy, not isolation).
 */
export function resolveLexically(base: string, path: string): string {
  const segments: string[] = [];
  const take = (text: string): void => {
    let start = 0;
    for (let i = 0; i <= text.length; i++) {
      if (i === text.length || text[i] === '/') {
        const segment = text.slice(start, i);
        if (segment === '..') segments.pop();
        else if (segment !== '' && segment !== '.') segments.push(segment);
        start = i + 1;
      }
    }
  };
  if (!path.startsWith('/')) take(base);
  take(path);
  return '/' + segments.join('/');
}

/** `/a/b/` -> `/a/b` by a scan from the end; `/` stays `/`. */
export function stripTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}

/** Whether `path` (normalized absolute) is `root` or below it. */
export function isInside(path: string, root: string): boolean {
  if (root === '/') return true;
  return path === root || (path.startsWith(root) && path[root.length] === '/');
}

export function hasDotDotSegment(path: string): boolean {
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    if (i === path.length || path[i] === '/') {
      if (i - start === 2 && path[start] === '.' && path[start + 1] === '.') return true;
      start = i + 1;
    }
  }
  return false;
}

export type RootErrorCode =
  'root_not_absolute' | 'root_has_dotdot' | 'root_is_system_root' | 'root_overlaps_gateway' | 'root_invalid';
export type RootValidation = { ok: true; root: string } | { ok: false; code: RootErrorCode; message: string };

const SYSTEM_ROOTS = new Set([
  '/',
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/home',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/media',
  '/mnt',
  '/opt',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/snap',
  '/srv',
  '/sys',
  '/tmp',
  '/usr',
  '/var',
  '/usr/bin',
  '/usr/sbin',
  '/usr/lib',
  '/usr/lib32',
  '/usr/lib64',
  '/usr/libexec',
  '/usr/local',
  '/usr/local/bin',
  '/usr/local/lib',
  '/usr/local/sbin',
  '/usr/share',
  '/usr/include',
  '/usr/src',
  '/var/lib',
  '/var/log',
  '/var/run',
  '/var/tmp',
  '/var/cache',
  '/var/spool',
  '/var/mail',
  '/var/lib/docker',
  '/etc/ssh',
  '/run/user',
  '/System',
  '/Users',
  '/Library',
  '/Applications',
  '/private',
  '/private/tmp',
  '/private/var',
]);

/**
 * RN-170, lexical part: a local (runner) root must be absolute, carry no `..`, not be a system
 * root and not overlap the gateway's own checkout. Re-run every time a root is derived, so a row
 * tampered with in the database never becomes a scope on `/`.
 */
export function validateLocalRoot(root: string, opts: { gatewayCheckout?: string } = {}): RootValidation {
  if (typeof root !== 'string' || root.trim() === '') {
    return {
      ok: false,
      code: 'root_invalid',
      message: 'The project root is empty: give the absolute path of the project folder.',
    };
  }
  for (let i = 0; i < root.length; i++) {
    const code = root.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) {
      return {
        ok: false,
        code: 'root_invalid',
        message: 'The project root contains control characters: give a plain absolute path.',
      };
    }
  }
  if (!root.startsWith('/')) {
    return {
      ok: false,
      code: 'root_not_absolute',
      message: `The project root "${root}" is not absolute: give a path starting with /.`,
    };
  }
  if (hasDotDotSegment(root)) {
    return {
      ok: false,
      code: 'root_has_dotdot',
      message: `The project root "${root}" contains "..": give the folder's path without "..".`,
    };
  }
  const normalized = resolveLexically('/', root);
  if (SYSTEM_ROOTS.has(normalized)) {
    return {
      ok: false,
      code: 'root_is_system_root',
      message: `The project root "${normalized}" is a system folder: choose a folder of its own, e.g. /home/<you>/projects/<name>.`,
    };
  }
  if (opts.gatewayCheckout !== undefined && opts.gatewayCheckout !== '') {
    const checkout = resolveLexically('/', opts.gatewayCheckout);
    if (isInside(normalized, checkout) || isInside(checkout, normalized)) {
      return {
        ok: false,
        code: 'root_overlaps_gateway',
        message: `The project root "${normalized}" overlaps the gateway's own checkout "${checkout}": choose a folder outside it.`,
      };
    }
  }
  return { ok: true, root: normalized };
}

/** RN-609: the root as it appears in events: execution mode plus a relative id, never a path. */
export function scopeRootLabel(mode: 'container' | 'mounted' | 'runner', relativeId: string): string {
  return `${mode}:${relativeId}`;
}
