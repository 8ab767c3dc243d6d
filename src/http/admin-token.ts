// The bearer admin token: BRABO_ADMIN_TOKEN when set, else generated once into
// <data-dir>/admin-token (mode 0600) and reused on later starts. Compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const ADMIN_TOKEN_FILE = 'admin-token';

export interface AdminToken {
  token: string;
  source: 'env' | 'file' | 'generated';
  /** The file holding it (null when it came from the environment). */
  path: string | null;
}

export async function resolveAdminToken(dataDir: string, fromEnv: string | null): Promise<AdminToken> {
  if (fromEnv) return { token: fromEnv, source: 'env', path: null };
  const path = join(dataDir, ADMIN_TOKEN_FILE);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const existing = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (existing !== null && existing.trim().length > 0) {
    await chmod(path, 0o600);
    return { token: existing.trim(), source: 'file', path };
  }
  const token = randomBytes(32).toString('base64url');
  const handle = await open(path, 'wx', 0o600);
  try {
    await handle.writeFile(`${token}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  return { token, source: 'generated', path };
}

const digestOf = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * Constant-time comparison with one fixed token: both sides are hashed to equal length first; the
 * expected side's digest is computed once (this runs on every request).
 */
export function tokenMatcher(expected: string): (presented: string) => boolean {
  const expectedDigest = digestOf(expected);
  return (presented) => timingSafeEqual(digestOf(presented), expectedDigest);
}

/** Reads `Authorization: Bearer <token>`; null when absent or malformed. */
export function bearerOf(header: string | undefined): string | null {
  if (typeof header !== 'string') return null;
  const space = header.indexOf(' ');
  if (space < 0 || header.slice(0, space).toLowerCase() !== 'bearer') return null;
  const token = header.slice(space + 1).trim();
  return token.length > 0 ? token : null;
}
