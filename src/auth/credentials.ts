// Minting, listing and revoking credentials of every kind. The secret is returned once, by mint;
// the store keeps its SHA-256 only. Revocation also closes the credential's live sockets. The last
// live admin credential is never revoked (409 last_admin_credential): the operator would be locked
// out of provisioning with no way back but a restart that bootstraps a new one.
import { randomUUID } from 'node:crypto';
import { ActionError, notFound } from '../actions/errors.ts';
import type { CredentialRecord, Repositories, Store } from '../store/types.ts';
import { hashSecret, type MintableKind, newSecret, type Principal } from './principal.ts';
import { stampOf } from './principal.ts';

export interface MintRequest {
  kind: MintableKind;
  projectId?: string | undefined;
  agentId?: string | undefined;
  memberId?: string | undefined;
  name?: string | undefined;
  label?: string | undefined;
  /** ISO time, or seconds from now; both absent = no expiry. */
  expiresAt?: string | undefined;
  expiresInSeconds?: number | undefined;
}

/** A credential as the API shows it: bindings by name, never the secret or its hash. */
export interface CredentialView {
  id: string;
  kind: MintableKind;
  projectId: string | null;
  agentId: string | null;
  memberId: string | null;
  name: string | null;
  label: string | null;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export const viewOf = (r: CredentialRecord): CredentialView => ({
  id: r.id,
  kind: r.kind,
  projectId: r.projectId,
  agentId: r.kind === 'agent' ? r.subject : null,
  memberId: r.kind === 'human' ? r.subject : null,
  name: r.kind === 'service' || r.kind === 'executor' || r.kind === 'admin' ? r.subject : null,
  label: r.label,
  createdBy: r.createdBy,
  createdAt: r.createdAt,
  expiresAt: r.expiresAt,
  lastUsedAt: r.lastUsedAt,
  revokedAt: r.revokedAt,
});

const invalid = (code: string, message: string) => new ActionError('invalid', code, message);

export class CredentialService {
  readonly #store: Store;
  readonly #serviceTokens: boolean;
  readonly #disconnect: (credentialId: string) => number;
  readonly #now: () => number;

  constructor(options: {
    store: Store;
    serviceTokens: boolean;
    disconnect: (credentialId: string) => number;
    now?: () => number;
  }) {
    this.#store = options.store;
    this.#serviceTokens = options.serviceTokens;
    this.#disconnect = options.disconnect;
    this.#now = options.now ?? Date.now;
  }

  async mint(request: MintRequest, by: Principal): Promise<CredentialView & { token: string }> {
    const expiresAt = this.#expiry(request);
    let projectId: string | null = null;
    let subject: string | null = null;
    switch (request.kind) {
      case 'admin':
        // Provisioning only, bound to nothing; the name says whose it is (list shows it).
        subject = request.name ?? 'admin';
        break;
      case 'agent': {
        if (!request.projectId || !request.agentId)
          throw invalid(
            'binding_required',
            'an agent token is bound to one project and one agent: send projectId and agentId',
          );
        await this.#project(request.projectId);
        const member = await this.#store.read.members.get(request.projectId, request.agentId);
        if (!member || member.kind !== 'agent') {
          throw new ActionError(
            'conflict',
            'not_an_agent_member',
            `${request.agentId} is not an agent member of project ${request.projectId}; add it with PUT /api/projects/${request.projectId}/members/${request.agentId} {"role": ..., "kind": "agent"}`,
          );
        }
        projectId = request.projectId;
        subject = request.agentId;
        break;
      }
      case 'human':
        if (!request.memberId) throw invalid('binding_required', 'a human token is bound to one member: send memberId');
        subject = request.memberId;
        break;
      case 'service':
        if (!this.#serviceTokens)
          throw new ActionError(
            'forbidden',
            'service_tokens_disabled',
            'service tokens are turned off on this gateway (BRABO_SERVICE_TOKENS=0)',
          );
        if (!request.name)
          throw invalid(
            'binding_required',
            'a service token has a name (recorded on every event it causes as via: service:<name>): send name',
          );
        subject = request.name;
        break;
      case 'executor':
        if (!request.name)
          throw invalid(
            'binding_required',
            'an executor token has a name (the executor recorded on every outcome it reports): send name, and projectId to bind it to one project',
          );
        if (request.projectId) await this.#project(request.projectId);
        projectId = request.projectId ?? null;
        subject = request.name;
        break;
      case 'runner':
        if (!request.projectId)
          throw invalid('binding_required', 'a runner token is bound to one project: send projectId');
        await this.#project(request.projectId);
        projectId = request.projectId;
        break;
    }
    const token = newSecret(request.kind);
    const record: CredentialRecord = {
      id: randomUUID(),
      kind: request.kind,
      projectId,
      subject,
      label: request.label ?? null,
      createdBy: `${by.kind}:${by.credentialId}`,
      createdAt: new Date(this.#now()).toISOString(),
      expiresAt,
      lastUsedAt: null,
      revokedAt: null,
    };
    await this.#store.transaction(async (tx) => {
      await tx.credentials.insert({ ...record, tokenHash: hashSecret(token) });
      if (projectId)
        await tx.events.append({
          projectId,
          type: 'credential.minted',
          actorKind: 'system',
          actorId: null,
          actionId: null,
          payload: { minted: { id: record.id, kind: record.kind, subject }, by: stampOf(by) },
        });
    });
    return { ...viewOf(record), token };
  }

  async list(filter: {
    kind?: MintableKind | undefined;
    projectId?: string | undefined;
    subject?: string | undefined;
    includeRevoked?: boolean | undefined;
    limit?: number | undefined;
  }): Promise<CredentialView[]> {
    const records = await this.#store.read.credentials.list({
      limit: filter.limit ?? 500,
      ...(filter.kind ? { kind: filter.kind } : {}),
      ...(filter.projectId ? { projectId: filter.projectId } : {}),
      ...(filter.subject ? { subject: filter.subject } : {}),
      ...(filter.includeRevoked ? { includeRevoked: true } : {}),
    });
    return records.map(viewOf);
  }

  /** Revokes and closes the credential's live sockets (this node now; other nodes on their sweep). */
  async revoke(id: string, by: Principal): Promise<{ credential: CredentialView; socketsClosed: number }> {
    const existing = await this.#store.read.credentials.get(id);
    if (!existing) throw new ActionError('not_found', 'credential_not_found', `no credential with id ${id}`);
    const at = new Date(this.#now()).toISOString();
    await this.#store.transaction(async (tx) => {
      if (existing.kind === 'admin') await this.#keepOneAdmin(tx, id);
      const changed = await tx.credentials.revoke(id, at);
      if (changed && existing.projectId) {
        await tx.events.append({
          projectId: existing.projectId,
          type: 'credential.revoked',
          actorKind: 'system',
          actorId: null,
          actionId: null,
          payload: { revoked: { id, kind: existing.kind }, by: stampOf(by) },
        });
      }
    });
    const socketsClosed = this.#disconnect(id);
    return { credential: viewOf({ ...existing, revokedAt: existing.revokedAt ?? at }), socketsClosed };
  }

  /**
   * Refuses to revoke `id` when no other live admin credential would remain. Under the store's
   * admin lock, so two admins revoking each other at once on two nodes cannot both succeed.
   */
  async #keepOneAdmin(tx: Repositories, id: string): Promise<void> {
    await tx.credentials.lockAdminCredentials();
    const now = this.#now();
    const others = (await tx.credentials.list({ kind: 'admin', limit: 10_000 })).filter(
      (c) => c.id !== id && c.revokedAt === null && (c.expiresAt === null || Date.parse(c.expiresAt) > now),
    );
    if (others.length === 0)
      throw new ActionError(
        'conflict',
        'last_admin_credential',
        `${id} is the last live admin credential; mint another first (brabo token mint --kind admin), then revoke this one`,
      );
  }

  async #project(projectId: string): Promise<void> {
    if (!(await this.#store.read.projects.get(projectId))) throw notFound('project', projectId);
  }

  #expiry(request: MintRequest): string | null {
    if (request.expiresAt !== undefined && request.expiresInSeconds !== undefined)
      throw invalid('invalid_expiry', 'send expiresAt or expiresInSeconds, not both');
    const at =
      request.expiresInSeconds !== undefined
        ? this.#now() + request.expiresInSeconds * 1000
        : request.expiresAt !== undefined
          ? Date.parse(request.expiresAt)
          : null;
    if (at === null) return null;
    if (!Number.isFinite(at))
      throw invalid('invalid_expiry', `expiresAt ${JSON.stringify(request.expiresAt)} is not an ISO-8601 time`);
    if (at <= this.#now())
      throw invalid('invalid_expiry', 'the expiry is in the past; a credential must be usable when it is minted');
    return new Date(at).toISOString();
  }
}
