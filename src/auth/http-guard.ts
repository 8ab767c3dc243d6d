// The HTTP side of the authorization table. onRequest: open routes, the per-source limit on failed
// authentications, the bearer secret -> Principal, the kind's row of the table. preHandler (after
// the params and body are validated): the resource's project against the credential's binding,
// and the acting user or agent resolved from the credential (request.auth). Then the request runs
// inside the credential's context so the events it writes record it (event-stamp.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { roleAtLeast } from '../policy/index.ts';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/types.ts';
import { type AuthFailure, type Authenticator, FAILURE_ANSWER } from './authenticator.ts';
import { bearerOf, tokenMatcher } from '../http/bearer.ts';
import { consoleCookieOf, consoleUnauthorized } from '../http/console-session.ts';
import { credentialContext } from './context.ts';
import type { Principal } from './principal.ts';
import { kindToken, stampOf } from './principal.ts';
import { AuthRateLimiter, RATE_LIMITED } from './rate-limit.ts';
import { type Access, isOpenRoute, ruleFor, type RouteRule, SCOPE_DENY } from './table.ts';

export interface RequestAuth {
  principal: Principal;
  rule: RouteRule | null;
  /** The human who acts (from a human token, or named by a service token); null where none is. */
  actingUserId: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth | null;
  }
}

export interface HttpGuardOptions {
  authenticator: Authenticator;
  limiter: AuthRateLimiter;
  store: Pick<Store, 'read'>;
  logger: Logger;
  /** BRABO_METRICS_TOKEN: when set, /metrics needs `Authorization: Bearer <it>`. */
  metricsToken: string | null;
}

const forbidden = (reply: FastifyReply, code: string, message: string) =>
  reply.code(403).send({ error: code, message });

/** The acting-user fields of a body (`userId` is the historical name, `actingUserId` the explicit one). */
function namedUsers(body: unknown): string[] {
  if (body === null || typeof body !== 'object') return [];
  const b = body as Record<string, unknown>;
  return [b.userId, b.actingUserId].filter((v): v is string => typeof v === 'string');
}

export function installHttpGuard(app: FastifyInstance, options: HttpGuardOptions): void {
  const { authenticator, limiter, store } = options;
  const isMetricsToken = options.metricsToken ? tokenMatcher(options.metricsToken) : null;
  app.decorateRequest('auth', null);

  const fail = (request: FastifyRequest, reply: FastifyReply, failure: AuthFailure) => {
    limiter.recordFailure(request.ip);
    // Never the presented secret: only what kind of failure and from where.
    request.log.warn(
      { code: 'auth_failed', failure, remoteAddress: request.ip, route: request.routeOptions.url ?? 'unmatched' },
      'authentication failed',
    );
    const answer = FAILURE_ANSWER[failure];
    return reply.code(401).send({ error: answer.code, message: answer.message });
  };

  app.addHook('onRequest', async (request, reply) => {
    const url = request.routeOptions.url;
    if (isOpenRoute(request.method, url)) {
      if (url === '/metrics' && isMetricsToken) {
        // A protected /metrics is an authentication like any other: limited and logged per source.
        const waitMs = limiter.retryAfterMs(request.ip);
        if (waitMs > 0) {
          return reply
            .code(429)
            .header('retry-after', String(Math.ceil(waitMs / 1000)))
            .send({ error: RATE_LIMITED.code, message: RATE_LIMITED.message(waitMs) });
        }
        const presented = bearerOf(request.headers.authorization);
        if (presented === null || !isMetricsToken(presented)) {
          limiter.recordFailure(request.ip);
          request.log.warn(
            { code: 'metrics_token_required', remoteAddress: request.ip, route: '/metrics' },
            'authentication failed',
          );
          return reply.code(401).send({
            error: 'metrics_token_required',
            message: 'this gateway protects /metrics: send Authorization: Bearer <BRABO_METRICS_TOKEN>',
          });
        }
      }
      return;
    }
    const retryAfterMs = limiter.retryAfterMs(request.ip);
    if (retryAfterMs > 0) {
      request.log.warn(
        { code: RATE_LIMITED.code, remoteAddress: request.ip },
        'authentication refused: too many failures from this address',
      );
      return reply
        .code(429)
        .header('retry-after', String(Math.ceil(retryAfterMs / 1000)))
        .send({ error: RATE_LIMITED.code, message: RATE_LIMITED.message(retryAfterMs) });
    }
    // The console's files also take the console cookie (they alone: the API stays bearer-only).
    const consoleFile = url !== undefined && ruleFor(request.method, url)?.consoleCookie === true;
    const secret =
      bearerOf(request.headers.authorization) ?? (consoleFile ? consoleCookieOf(request.headers.cookie) : null);
    const result = await authenticator.authenticate(secret);
    if (!result.ok) {
      if (!consoleFile) return fail(request, reply, result.failure);
      // A first visit (no cookie yet) is not a failed authentication; a bad cookie is.
      if (result.failure !== 'missing') {
        limiter.recordFailure(request.ip);
        request.log.warn(
          { code: 'auth_failed', failure: result.failure, remoteAddress: request.ip, route: url },
          'console authentication failed',
        );
      }
      return consoleUnauthorized(request, reply, FAILURE_ANSWER[result.failure]);
    }
    const { principal } = result;
    // Unmatched paths: any valid credential gets the 404 (without one: 401 above).
    if (url === undefined) {
      request.auth = { principal, rule: null, actingUserId: null };
      return;
    }
    const rule = ruleFor(request.method, url);
    if (!rule) {
      request.log.error(
        { code: SCOPE_DENY.notInTable, method: request.method, route: url },
        'a route without a row in the authorization table was refused; add it to src/auth/table.ts',
      );
      return forbidden(
        reply,
        SCOPE_DENY.notInTable,
        `${request.method} ${url} has no rule in the authorization table, so it is refused`,
      );
    }
    const access = rule.access[principal.kind];
    if ('deny' in access) return forbidden(reply, access.deny, denySentence(access.deny, principal, rule));
    request.auth = { principal, rule, actingUserId: null };
  });

  app.addHook('preHandler', async (request, reply) => {
    const auth = request.auth;
    if (!auth?.rule) return;
    const { principal, rule } = auth;
    const access = rule.access[principal.kind];
    const params = (request.params ?? {}) as Record<string, string>;
    const scope = await resourceOf(store, rule, params, (request.query ?? {}) as Record<string, unknown>);
    const refusal = scope === 'missing' ? null : await checkScope(store, access, principal, scope);
    if (refusal) return forbidden(reply, refusal.code, refusal.message);

    if (rule.acting === 'agent') {
      const agentId = (request.body as { agentId?: unknown } | undefined)?.agentId;
      if (principal.kind === 'agent' && agentId !== principal.agentId) {
        return forbidden(
          reply,
          SCOPE_DENY.actingAgentMismatch,
          `this agent token acts as ${principal.agentId} only; the body names ${JSON.stringify(agentId)}`,
        );
      }
    } else if (rule.acting) {
      const named = namedUsers(request.body);
      if (principal.kind === 'human') {
        const other = named.find((u) => u !== principal.memberId);
        if (other !== undefined) {
          return forbidden(
            reply,
            SCOPE_DENY.actingUserMismatch,
            `this token acts as ${principal.memberId} only; the body names ${other} (leave userId out, or send your own)`,
          );
        }
        auth.actingUserId = principal.memberId;
      } else if (principal.kind === 'service') {
        if (new Set(named).size > 1) {
          return forbidden(
            reply,
            SCOPE_DENY.actingUserMismatch,
            `userId and actingUserId name different users (${named.join(', ')}); name one acting user`,
          );
        }
        if (named.length === 0)
          return reply.code(400).send({
            error: 'acting_user_required',
            message: 'a service token acts for a user: name them with actingUserId (or userId) in the body',
          });
        auth.actingUserId = named[0] ?? null;
      } else {
        auth.actingUserId = named[0] ?? null;
      }
    }
  });

  // Last preHandler, callback style: the handler (and everything it awaits) runs in this context.
  app.addHook('preHandler', (request, _reply, done) => {
    const auth = request.auth;
    if (!auth) return done();
    credentialContext.run({ ...stampOf(auth.principal), actingUserId: auth.actingUserId }, done);
  });
}

type Scope = { projectId: string | null; proposerId: string | null } | 'missing';

/** The project (and, for actions, the proposer) a request is about; 'missing' lets the route 404. */
async function resourceOf(
  store: Pick<Store, 'read'>,
  rule: RouteRule,
  params: Record<string, string>,
  query: Record<string, unknown>,
): Promise<Scope> {
  switch (rule.resource) {
    case 'query-project': {
      const id = typeof query.projectId === 'string' ? query.projectId : '';
      return (await store.read.projects.get(id)) ? { projectId: id, proposerId: null } : 'missing';
    }
    case 'none':
      return { projectId: null, proposerId: null };
    case 'project':
      return (await store.read.projects.get(params.id ?? ''))
        ? { projectId: params.id ?? null, proposerId: null }
        : 'missing';
    case 'container-project':
      return (await store.read.projects.get(params.projectId ?? ''))
        ? { projectId: params.projectId ?? null, proposerId: null }
        : 'missing';
    case 'action': {
      const action = await store.read.actions.get(params.id ?? '');
      return action ? { projectId: action.projectId, proposerId: action.proposerId } : 'missing';
    }
    case 'task': {
      const task = await store.read.tasks.get(params.id ?? '');
      return task ? { projectId: task.projectId, proposerId: null } : 'missing';
    }
  }
}

async function checkScope(
  store: Pick<Store, 'read'>,
  access: Access,
  principal: Principal,
  scope: Exclude<Scope, 'missing'>,
): Promise<{ code: string; message: string } | null> {
  if (!('allow' in access) || access.allow === 'any' || scope.projectId === null) return null;
  const projectId = scope.projectId;
  if (access.allow === 'member') {
    if (principal.kind !== 'human') return null;
    const m = await store.read.members.get(projectId, principal.memberId);
    if (!m || m.kind !== 'human')
      return {
        code: SCOPE_DENY.notAMember,
        message: `${principal.memberId} is not a human member of project ${projectId}`,
      };
    if (access.minRole && !roleAtLeast(m.role, access.minRole)) {
      return {
        code: SCOPE_DENY.roleTooLow,
        message: `this needs the role ${access.minRole} or above in project ${projectId}; ${principal.memberId} is ${m.role}`,
      };
    }
    return null;
  }
  if (principal.kind !== 'agent' && principal.kind !== 'runner') return null;
  if (principal.projectId !== projectId)
    return {
      code: SCOPE_DENY.otherProject,
      message: `this ${principal.kind} token is bound to project ${principal.projectId}, not ${projectId}`,
    };
  if (access.allow === 'own-action' && principal.kind === 'agent' && scope.proposerId !== principal.agentId) {
    return { code: SCOPE_DENY.otherAgent, message: `this agent token reads the actions of ${principal.agentId} only` };
  }
  return null;
}

function denySentence(code: string, principal: Principal, rule: RouteRule): string {
  const what = `${rule.method} ${rule.url}`;
  switch (code) {
    case 'admin_token_provisioning_only':
      return `the admin token is for provisioning (projects, members, credentials) only; call ${what} with a human, agent or service token (brabo token mint)`;
    case 'admin_token_required':
      return `${what} is provisioning: it needs the admin token, not ${kindToken(principal.kind)}`;
    case 'runner_token_socket_only':
      return "a runner token only connects a runner to its project's socket topic; it calls no HTTP route";
    case 'executor_token_scope':
      return `an executor token only claims and reports actions (POST /api/executors/...); ${what} needs a human, agent or service token`;
    case 'executor_token_required':
      return `${what} is for external executors: mint an executor token (brabo token mint --kind executor --name <executor>) and use it, not ${kindToken(principal.kind)}`;
    case 'console_needs_human_token':
      return principal.kind === 'admin'
        ? 'the admin token only provisions (projects, members, credentials); the console needs your personal (human) token: brabo token mint --kind human --member <you>'
        : `this is ${kindToken(principal.kind)}; the console needs your personal (human) token: brabo token mint --kind human --member <you>`;
    case 'agent_cannot_decide':
      return 'an agent token never decides (approve, deny, always allow); a human decides with their own token';
    case 'propose_needs_agent_token':
      return "agents propose actions: use the agent's token (or a service token naming agentId)";
    default:
      return `${kindToken(principal.kind)} may not call ${what}`;
  }
}
