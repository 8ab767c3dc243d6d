// The socket side of the authorization table: the upgrade's secret -> identity (same credentials,
// same per-source failure limit as HTTP), every join checked against TOPIC_TABLE, and a sweep that
// closes live sockets whose credential was revoked (on any node) or has expired.
import { UpgradeRateLimitedError } from '../../gateway/index.ts';
import type { Gateway, JoinAuthorizer, SocketAuthenticator, SocketIdentity } from '../../gateway/index.ts';
import { JOIN_ERRORS } from '../../runner-protocol/index.ts';
import type { Logger } from '../logger.ts';
import { roleAtLeast } from '../policy/index.ts';
import type { Store } from '../store/types.ts';
import type { Authenticator } from './authenticator.ts';
import { clientSource } from './client-source.ts';
import type { Principal } from './principal.ts';
import { kindToken } from './principal.ts';
import { AuthRateLimiter, RATE_LIMITED } from './rate-limit.ts';
import { SCOPE_DENY, topicRuleFor } from './table.ts';

export function identityOf(principal: Principal): SocketIdentity {
  const ref = { credentialId: principal.credentialId, expiresAt: principal.expiresAt };
  switch (principal.kind) {
    case 'admin':
      return { kind: 'admin', ...ref };
    case 'agent':
      return { kind: 'agent', agentId: principal.agentId, projectId: principal.projectId, ...ref };
    case 'human':
      return { kind: 'human', memberId: principal.memberId, ...ref };
    case 'runner':
      return { kind: 'runner', projectId: principal.projectId, tokenId: principal.credentialId, ...ref };
    case 'service':
      return { kind: 'service', name: principal.name, ...ref };
    case 'executor':
      return { kind: 'executor', name: principal.name, projectId: principal.projectId, ...ref };
  }
}

export function socketAuthenticator(
  authenticator: Authenticator,
  limiter: AuthRateLimiter,
  logger: Logger,
  trustedProxies: readonly string[] = [],
): SocketAuthenticator {
  return {
    async authenticate(params, info) {
      const source = clientSource(info.remoteAddress, info.forwardedFor, trustedProxies);
      const retryAfterMs = limiter.retryAfterMs(source);
      if (retryAfterMs > 0) {
        logger.warn(
          { code: RATE_LIMITED.code, remoteAddress: source },
          'socket upgrade refused: too many failed authentications from this address',
        );
        throw new UpgradeRateLimitedError(retryAfterMs, RATE_LIMITED.message(retryAfterMs));
      }
      const result = await authenticator.authenticate(params['token'] ?? info.authToken);
      if (!result.ok) {
        limiter.recordFailure(source);
        logger.warn(
          { code: 'auth_failed', failure: result.failure, remoteAddress: source, route: 'socket' },
          'socket authentication failed',
        );
        return null;
      }
      return identityOf(result.principal);
    },
  };
}

type Refusal = { code: string; message: string; reason: string };
const refuse = (reason: string, message: string): Refusal => ({ code: JOIN_ERRORS.forbiddenTopic, reason, message });

/**
 * TOPIC_TABLE as the gateway's join check. The refusal keeps the wire code `forbidden_topic`
 * (runners act on it) and names the table's reason in `reason`.
 */
export function joinAuthorizer(store: Pick<Store, 'read'>): JoinAuthorizer {
  return async (identity, topic) => {
    const rule = topicRuleFor(topic);
    if (!rule) return refuse(SCOPE_DENY.notInTable, `${topic} has no rule in the authorization table`);
    const access = rule.access[identity.kind];
    if ('deny' in access) return refuse(access.deny, `${kindToken(identity.kind)} may not join ${topic}`);
    const suffix = topic.slice(topic.indexOf(':') + 1);
    switch (access.allow) {
      case 'any':
        return null;
      case 'own-agent':
        return identity.kind === 'agent' && identity.agentId === suffix
          ? null
          : refuse(
              SCOPE_DENY.otherAgent,
              `this agent token joins agent:${identity.kind === 'agent' ? identity.agentId : '?'} only`,
            );
      case 'own-project':
      case 'own-action':
        return (identity.kind === 'runner' || identity.kind === 'agent') && identity.projectId === suffix
          ? null
          : refuse(SCOPE_DENY.otherProject, `this ${identity.kind} token is not bound to project ${suffix}`);
      case 'member': {
        if (identity.kind !== 'human') return null;
        const m = await store.read.members.get(suffix, identity.memberId);
        if (!m || m.kind !== 'human')
          return refuse(SCOPE_DENY.notAMember, `${identity.memberId} is not a human member of project ${suffix}`);
        if (access.minRole && !roleAtLeast(m.role, access.minRole))
          return refuse(SCOPE_DENY.roleTooLow, `joining ${topic} needs the role ${access.minRole}`);
        return null;
      }
    }
  };
}

/** Live identities of a gateway (disconnect with a predicate that never matches visits them all). */
function liveIdentities(gateway: Gateway): SocketIdentity[] {
  const seen: SocketIdentity[] = [];
  gateway.disconnect((identity) => {
    seen.push(identity);
    return false;
  });
  return seen;
}

/**
 * Every `intervalMs`: sockets whose credential expired are closed at once; the others' credentials
 * are re-read from the store, so a revocation on another node closes sockets here too.
 */
export function startCredentialSweep(options: {
  gateway: Gateway;
  store: Pick<Store, 'read'>;
  authenticator: Authenticator;
  logger: Logger;
  intervalMs: number;
  now?: () => number;
}): () => void {
  const now = options.now ?? Date.now;
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const ids = new Set<string>();
      for (const identity of liveIdentities(options.gateway))
        if (identity.credentialId && identity.credentialId !== 'admin') ids.add(identity.credentialId);
      for (const id of ids) {
        const record = await options.store.read.credentials.get(id);
        const verdict = record
          ? options.authenticator.check(record)
          : { ok: false as const, failure: 'revoked' as const };
        if (verdict.ok) continue;
        const closed = options.gateway.disconnect((identity) => identity.credentialId === id, {
          code: 1008,
          reason: `token ${verdict.failure}`,
        });
        if (closed > 0)
          options.logger.info(
            { code: 'credential_sockets_closed', credentialId: id, failure: verdict.failure, socketsClosed: closed },
            'closed the live sockets of a credential that is no longer valid',
          );
      }
      const t = now();
      options.gateway.disconnect(
        (identity) => typeof identity.expiresAt === 'string' && Date.parse(identity.expiresAt) <= t,
        { code: 1008, reason: 'token expired' },
      );
    } catch (err) {
      options.logger.warn(
        { code: 'credential_sweep_failed', err },
        'could not re-check the credentials of live sockets; retrying on the next sweep',
      );
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweep(), options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
