// Who is on the other end of a socket, decided once at the HTTP upgrade (Phoenix's
// `connect/3`). A null identity is HTTP 403 before the upgrade, never accept-then-close.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * `credentialId` (when the product's authenticator made the identity) lets the server close the
 * sockets of a revoked credential; `expiresAt` those of an expired one. Which topics each kind may
 * join is the product's authorization table (src/auth/table.ts), given as `authorizeJoin`.
 */
interface CredentialRef {
  credentialId?: string;
  expiresAt?: string | null;
}
export type SocketIdentity =
  | ({ kind: 'runner'; projectId: string; tokenId: string } & CredentialRef)
  /** An operator in gateway-only deployments and tests: may join any topic. */
  | ({ kind: 'admin' } & CredentialRef)
  | ({ kind: 'agent'; agentId: string; projectId?: string } & CredentialRef)
  /** A person (personal access token): watches its projects' runners. */
  | ({ kind: 'human'; memberId: string } & CredentialRef)
  /** The upstream api: relays agent topics and watches runners. */
  | ({ kind: 'service'; name: string } & CredentialRef)
  /** An external executor of the action types the gateway does not run (src/execution/external-types.ts). */
  | ({ kind: 'executor'; name: string; projectId: string | null } & CredentialRef);

/** Phoenix's connect_info. `authToken` comes from the 1.8 `authToken` subprotocol. */
export interface ConnectInfo {
  origin: string | null;
  remoteAddress: string | null;
  /** The upgrade's X-Forwarded-For header, for a trusted load balancer's client address. */
  forwardedFor: string | null;
  authToken: string | null;
}

export interface SocketAuthenticator {
  /**
   * `params` are the query-string params (without `vsn`). Null refuses the upgrade with 403;
   * throwing UpgradeRateLimitedError refuses it with 429 and Retry-After.
   */
  authenticate(params: Readonly<Record<string, string>>, info: ConnectInfo): Promise<SocketIdentity | null>;
}

/** An upgrade refused because its source failed to authenticate too often: 429 `auth_rate_limited`. */
export class UpgradeRateLimitedError extends Error {
  readonly code = 'auth_rate_limited';
  readonly retryAfterMs: number;
  constructor(retryAfterMs: number, message: string) {
    super(message);
    this.name = 'UpgradeRateLimitedError';
    this.retryAfterMs = retryAfterMs;
  }
}

/** What the store's RunnerTokenRepository offers the gateway. */
export interface RunnerTokenVerifier {
  verify(
    token: string,
  ): Promise<{ projectId: string; tokenId: string } | null> | { projectId: string; tokenId: string } | null;
}

export interface AgentTokenVerifier {
  verify(token: string): Promise<{ agentId: string } | null> | { agentId: string } | null;
}

const AUTH_TOKEN_PROTOCOL_PREFIX = 'base64url.bearer.phx.';
/** Subprotocol the server answers when the client offers the Phoenix 1.8 auth token. */
export const PHOENIX_SUBPROTOCOL = 'phoenix';

/** Extracts the token from `Sec-WebSocket-Protocol: phoenix, base64url.bearer.phx.<b64url>`. */
export function authTokenFromProtocols(header: string | undefined): string | null {
  if (!header) return null;
  for (const protocol of header.split(',')) {
    const value = protocol.trim();
    if (value.startsWith(AUTH_TOKEN_PROTOCOL_PREFIX)) {
      const decoded = Buffer.from(value.slice(AUTH_TOKEN_PROTOCOL_PREFIX.length), 'base64url').toString('utf8');
      return decoded.length > 0 ? decoded : null;
    }
  }
  return null;
}

const sha256 = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * The default authenticator: the token is `params.token` or the subprotocol auth token; an admin
 * token (compared in constant time), then runner tokens, then agent tokens are tried in order.
 */
export function tokenAuthenticator(options: {
  adminToken?: string;
  runnerTokens?: RunnerTokenVerifier;
  agentTokens?: AgentTokenVerifier;
}): SocketAuthenticator {
  const adminHash = options.adminToken ? sha256(options.adminToken) : null;
  return {
    async authenticate(params, info) {
      const token = params['token'] ?? info.authToken;
      if (!token || token.length > 4096) return null;
      if (adminHash && timingSafeEqual(sha256(token), adminHash)) return { kind: 'admin' };
      const runner = await options.runnerTokens?.verify(token);
      if (runner) return { kind: 'runner', projectId: runner.projectId, tokenId: runner.tokenId };
      const agent = await options.agentTokens?.verify(token);
      if (agent) return { kind: 'agent', agentId: agent.agentId };
      return null;
    },
  };
}

/**
 * Runner tokens kept in memory, hashed (SHA-256 of a 256-bit random secret, so a plain hash is
 * enough), scoped to one project and revocable. The SQL repository replaces it in production.
 */
export class InMemoryRunnerTokens implements RunnerTokenVerifier {
  readonly #byHash = new Map<string, { projectId: string; tokenId: string }>();
  readonly #hashById = new Map<string, string>();

  issue(projectId: string): { token: string; tokenId: string } {
    const tokenId = randomUUID();
    const token = `brt_${randomBytes(32).toString('base64url')}`;
    const hash = sha256(token).toString('hex');
    this.#byHash.set(hash, { projectId, tokenId });
    this.#hashById.set(tokenId, hash);
    return { token, tokenId };
  }

  verify(token: string): { projectId: string; tokenId: string } | null {
    return this.#byHash.get(sha256(token).toString('hex')) ?? null;
  }

  /** Returns whether the token existed. Pair with `gateway.disconnect(byRunnerToken(id))`. */
  revoke(tokenId: string): boolean {
    const hash = this.#hashById.get(tokenId);
    if (hash === undefined) return false;
    this.#hashById.delete(tokenId);
    this.#byHash.delete(hash);
    return true;
  }
}

/** Predicate for `gateway.disconnect`: the live sockets of one credential (any kind). */
export const byCredential =
  (credentialId: string) =>
  (identity: SocketIdentity): boolean =>
    identity.credentialId === credentialId || (identity.kind === 'runner' && identity.tokenId === credentialId);

/** Predicate for `gateway.disconnect`: the live sockets of one runner token. */
export const byRunnerToken =
  (tokenId: string) =>
  (identity: SocketIdentity): boolean =>
    identity.kind === 'runner' && identity.tokenId === tokenId;
