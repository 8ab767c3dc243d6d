// Lexical check of an exec cwd, done before anything reaches Docker. The in-exec check (see
// exec.ts) repeats it on the physical path, so this one only has to be strict, not complete.

/** Where the project folder is mounted inside every managed container. */
export const WORKSPACE_MOUNT = '/work';

const MAX_CWD_LENGTH = 4096;

export type LexicalCwdResult = { ok: true; cwd: string } | { ok: false; reason: string };

/**
 * Accepts an absolute path at or below /work with no `..` segment and returns it normalized
 * (duplicate slashes and `.` segments removed). Everything else is refused with a reason.
 */
export function checkCwdLexically(cwd: string): LexicalCwdResult {
  if (typeof cwd !== 'string' || cwd.length === 0) return { ok: false, reason: 'the cwd is empty' };
  if (cwd.length > MAX_CWD_LENGTH) return { ok: false, reason: `the cwd is longer than ${MAX_CWD_LENGTH} characters` };
  if (cwd.includes('\0')) return { ok: false, reason: 'the cwd contains a NUL byte' };
  if (!cwd.startsWith('/')) return { ok: false, reason: 'the cwd is not an absolute path' };
  const segments = cwd.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) return { ok: false, reason: 'the cwd contains a ".." segment' };
  const normalized = '/' + segments.join('/');
  if (!isInsideWorkspace(normalized)) return { ok: false, reason: `the cwd is not at or below ${WORKSPACE_MOUNT}` };
  return { ok: true, cwd: normalized };
}

/** True for /work and anything below it; a normalized absolute path is expected. */
export function isInsideWorkspace(normalizedPath: string): boolean {
  return normalizedPath === WORKSPACE_MOUNT || normalizedPath.startsWith(WORKSPACE_MOUNT + '/');
}
