// Presented secret -> Principal, or a named failure. Every secret, admin credentials included, is
// looked up by its SHA-256, so no comparison ever touches a stored secret and every kind is
// revocable, expires and records its last use the same way. Used for HTTP (http-guard.ts) and the
// socket upgrade (socket.ts).
import type { Logger } from '../logger.ts';
import type { CredentialRecord, Store } from '../store/types.ts';
import { hashSecret, MAX_SECRET_LENGTH, type Principal } from './principal.ts';

export type AuthFailure = 'missing' | 'unknown' | 'revoked' | 'expired' | 'kind_disabled';

export type AuthResult = { ok: true; principal: Principal } | { ok: false; failure: AuthFailure };

/** The 401 sentence for each failure: what happened and what to do, never the secret. */
export const FAILURE_ANSWER: Record<AuthFailure, { code: string; message: string }> = {
  missing: {
    code: 'unauthorized',
    message: 'send Authorization: Bearer <token> (a human, agent or service token; the admin token for provisioning)',
  },
  unknown: {
    code: 'unauthorized',
    message:
      'the bearer token is not one this gateway issued; check for a truncated value, or mint a new one with `brabo token mint`',
  },
  revoked: { code: 'credential_revoked', message: 'this token was revoked; mint a new one with `brabo token mint`' },
  expired: { code: 'credential_expired', message: 'this token has expired; mint a new one with `brabo token mint`' },
  kind_disabled: {
    code: 'service_tokens_disabled',
    message: 'service tokens are turned off on this gateway (BRABO_SERVICE_TOKENS=0); use a human or agent token',
  },
};

export interface AuthenticatorOptions {
  store: Pick<Store, 'read' | 'transaction'>;
  /** BRABO_SERVICE_TOKENS=0 turns the service kind off (minting and use). */
  serviceTokens: boolean;
  logger: Logger;
  now?: () => number;
  /** A credential's last-used time is written at most this often (it is a write). Default 60 s. */
  touchEveryMs?: number;
}

export function principalOf(record: CredentialRecord): Principal {
  const base = { credentialId: record.id, expiresAt: record.expiresAt };
  switch (record.kind) {
    case 'admin':
      return { ...base, kind: 'admin' };
    case 'agent':
      return { ...base, kind: 'agent', projectId: record.projectId ?? '', agentId: record.subject ?? '' };
    case 'human':
      return { ...base, kind: 'human', memberId: record.subject ?? '' };
    case 'runner':
      return { ...base, kind: 'runner', projectId: record.projectId ?? '' };
    case 'service':
      return { ...base, kind: 'service', name: record.subject ?? '' };
    case 'executor':
      return { ...base, kind: 'executor', name: record.subject ?? '', projectId: record.projectId };
  }
}

export class Authenticator {
  readonly #options: AuthenticatorOptions;
  readonly #now: () => number;
  readonly #touchEveryMs: number;
  /** credential id -> when its last use was last written. Bounded: cleared when it grows large. */
  readonly #touched = new Map<string, number>();

  constructor(options: AuthenticatorOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#touchEveryMs = options.touchEveryMs ?? 60_000;
  }

  get serviceTokensEnabled(): boolean {
    return this.#options.serviceTokens;
  }

  async authenticate(secret: string | null | undefined): Promise<AuthResult> {
    if (typeof secret !== 'string' || secret.length === 0) return { ok: false, failure: 'missing' };
    if (secret.length > MAX_SECRET_LENGTH) return { ok: false, failure: 'unknown' };
    const record = await this.#options.store.read.credentials.findByHash(hashSecret(secret));
    if (!record) return { ok: false, failure: 'unknown' };
    const checked = this.check(record);
    if (!checked.ok) return checked;
    this.#touch(record.id);
    return checked;
  }

  /** Is this stored credential usable now? (Also used to re-check live sockets.) */
  check(record: CredentialRecord): AuthResult {
    if (record.revokedAt !== null) return { ok: false, failure: 'revoked' };
    if (record.expiresAt !== null && Date.parse(record.expiresAt) <= this.#now())
      return { ok: false, failure: 'expired' };
    if (record.kind === 'service' && !this.#options.serviceTokens) return { ok: false, failure: 'kind_disabled' };
    return { ok: true, principal: principalOf(record) };
  }

  #touch(id: string): void {
    const now = this.#now();
    const last = this.#touched.get(id);
    if (last !== undefined && now - last < this.#touchEveryMs) return;
    if (this.#touched.size > 10_000) this.#touched.clear();
    this.#touched.set(id, now);
    const at = new Date(now).toISOString();
    this.#options.store
      .transaction((tx) => tx.credentials.touch(id, at))
      .catch((err: unknown) => {
        this.#touched.delete(id);
        this.#options.logger.warn(
          { code: 'credential_touch_failed', credentialId: id, err },
          "could not record a credential's last use; it will be retried on its next use",
        );
      });
  }
}
