// Who is calling: one credential of one kind, resolved from the bearer secret it presented. The
// kind decides which rows of the authorization table (table.ts) apply; the binding (project,
// agent, member, service name) decides on which resources. The secret itself is never kept here.
import { createHash, randomBytes } from 'node:crypto';

export const CREDENTIAL_KINDS = ['admin', 'agent', 'human', 'runner', 'service', 'executor'] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];
/** Kinds the API mints: every kind (admin credentials too, by an admin; see admin-bootstrap.ts for the first). */
export const MINTABLE_KINDS = ['admin', 'agent', 'human', 'runner', 'service', 'executor'] as const;
export type MintableKind = (typeof MINTABLE_KINDS)[number];

interface Base {
  credentialId: string;
  /** ISO time after which the credential stops working (live sockets are closed then); null = never. */
  expiresAt: string | null;
}
export type Principal =
  | (Base & { kind: 'admin' })
  | (Base & { kind: 'agent'; projectId: string; agentId: string })
  | (Base & { kind: 'human'; memberId: string })
  | (Base & { kind: 'runner'; projectId: string })
  | (Base & { kind: 'service'; name: string })
  /** An external executor (a git bot, the upstream api's worker): claims and reports the action types the gateway does not run; bound to one project or (null) to all. */
  | (Base & { kind: 'executor'; name: string; projectId: string | null });

/** What an event records about the credential that caused it: id and kind, never the secret. */
export interface CredentialStamp {
  id: string;
  /** `system`: no credential acted (sweeps, lease expiry, the dispatcher's own moves); see SYSTEM_STAMP. */
  kind: CredentialKind | 'system';
  /** `service:<name>` when a service token acted on a user's behalf. */
  via: string | null;
}

/**
 * The explicit actor of work no credential started: the dispatcher claiming and delivering, the
 * delivery timeout, a lost runner's grace running out, lease sweeps, start-up recovery.
 */
export const SYSTEM_STAMP: CredentialStamp = { id: 'system', kind: 'system', via: null };

export const stampOf = (principal: Principal): CredentialStamp => ({
  id: principal.credentialId,
  kind: principal.kind,
  via: principal.kind === 'service' ? `service:${principal.name}` : null,
});

/**
 * Secret prefixes: a leaked token says what it is (secret scanners, support), and a token shown
 * where another kind is expected gets a sentence naming both kinds. Runner tokens keep their
 * unprefixed format (unchanged for existing runners).
 */
export const TOKEN_PREFIX: Record<Exclude<MintableKind, 'runner'>, string> = {
  admin: 'brabo_admin_',
  agent: 'brabo_agent_',
  human: 'brabo_human_',
  service: 'brabo_service_',
  executor: 'brabo_executor_',
};

/** "an agent token", "a human token": the kind with its article, for messages. */
export const kindToken = (kind: string): string => `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} token`;

export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** 256 random bits: a plain SHA-256 at rest is enough (nothing to brute-force). */
export function newSecret(kind: MintableKind): string {
  const random = randomBytes(32).toString('base64url');
  return kind === 'runner' ? random : `${TOKEN_PREFIX[kind]}${random}`;
}

/** Longest secret we look up; anything longer is refused without a query. */
export const MAX_SECRET_LENGTH = 4096;
