// Bearer secrets on HTTP: reading `Authorization: Bearer <token>`, and a constant-time comparison
// with one configured secret (BRABO_METRICS_TOKEN). Credentials are looked up by hash instead
// (src/auth/authenticator.ts).
import { createHash, timingSafeEqual } from 'node:crypto';

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
