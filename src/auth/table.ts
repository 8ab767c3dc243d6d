// THE authorization table: every HTTP route and every socket topic, and for each credential kind
// whether it may call it and on which resources. http-guard.ts and socket.ts enforce it and
// test/security/authorization-table.test.ts walks all of it; a route missing here is refused
// (403 route_not_in_table) and fails that test, so a new route cannot ship without a row.
import type { Role } from '../policy/index.ts';
import type { CredentialKind } from './principal.ts';

/** The named 403 codes a kind gets where the table refuses it. */
export const DENY = {
  /** Day-to-day calls (propose, decide, read) with the admin token. */
  adminProvisioningOnly: 'admin_token_provisioning_only',
  /** Provisioning (projects, members, credentials) with another kind. */
  adminRequired: 'admin_token_required',
  runnerSocketOnly: 'runner_token_socket_only',
  agentCannotDecide: 'agent_cannot_decide',
  /** An agent token outside "propose as me, read my own actions, join my topic". */
  agentScope: 'agent_token_scope',
  /** Proposing is an agent's (or the upstream service's on its behalf). */
  proposeNeedsAgent: 'propose_needs_agent_token',
  /** Agent topics are the agent's own (and the upstream service's relay). */
  agentTopicOnly: 'agent_topic_not_allowed',
  /** An executor token only claims and reports the action types the gateway does not run. */
  executorScope: 'executor_token_scope',
  /** Claiming and reporting external executions needs an executor token (its own credential). */
  executorRequired: 'executor_token_required',
  /** The console's files and its cookie are a person's (a human token; the upstream service's too). */
  consoleNeedsHuman: 'console_needs_human_token',
} as const;
export type DenyCode = (typeof DENY)[keyof typeof DENY];

/** Further 403 codes decided on the resource, after the kind was allowed. */
export const SCOPE_DENY = {
  notAMember: 'not_a_member',
  roleTooLow: 'role_too_low',
  otherProject: 'other_project',
  otherAgent: 'not_own_action',
  actingUserMismatch: 'acting_user_mismatch',
  actingAgentMismatch: 'acting_agent_mismatch',
  notInTable: 'route_not_in_table',
} as const;

export type Access =
  /** The kind alone decides (admin on provisioning, the upstream service on day-to-day calls). */
  | { allow: 'any' }
  /** Human: the token's member belongs to the resource's project (with at least `minRole`). */
  | { allow: 'member'; minRole?: Role }
  /** Agent or runner: the token is bound to the resource's project. */
  | { allow: 'own-project' }
  /** Agent: the resource is an action this agent proposed in its project. */
  | { allow: 'own-action' }
  | { deny: DenyCode };

/** Where a route's project comes from (its `:id` / `:projectId` param, or nowhere). */
export type Resource = 'none' | 'project' | 'action' | 'task' | 'container-project' | 'query-project';

/**
 * Acting identity named in the body. `user`: `userId`/`actingUserId` is the human who acts (a
 * human token's member, or named by a service token). `agent`: `agentId` is the proposing agent
 * (an agent token's own id). `optional-user`: like user, but an admin may omit it (provisioning).
 */
export type Acting = 'user' | 'agent' | 'optional-user';

export interface RouteRule {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The fastify route template. A trailing `*` matches any suffix (the OpenAPI pages). */
  url: string;
  resource: Resource;
  acting?: Acting;
  /**
   * The console's static files: the credential may also come from the console cookie (a page load
   * cannot send a bearer header). Only these GET routes read it, so no API route can be driven by
   * a cookie a browser sends on its own (no CSRF surface).
   */
  consoleCookie?: true;
  access: Record<CredentialKind, Access>;
}

const any: Access = { allow: 'any' };
const member: Access = { allow: 'member' };
const maintainer: Access = { allow: 'member', minRole: 'maintainer' };
const ownProject: Access = { allow: 'own-project' };
const ownAction: Access = { allow: 'own-action' };
const deny = (code: DenyCode): Access => ({ deny: code });

/** A day-to-day call: service and member humans; agents only where a row says so. */
const daily = (over: Partial<Record<CredentialKind, Access>> = {}): Record<CredentialKind, Access> => ({
  admin: deny(DENY.adminProvisioningOnly),
  agent: deny(DENY.agentScope),
  human: member,
  runner: deny(DENY.runnerSocketOnly),
  service: any,
  executor: deny(DENY.executorScope),
  ...over,
});

/** Provisioning: the admin token (and, where a row says so, owners and the upstream service). */
const provisioning = (over: Partial<Record<CredentialKind, Access>> = {}): Record<CredentialKind, Access> => ({
  admin: any,
  agent: deny(DENY.adminRequired),
  human: deny(DENY.adminRequired),
  runner: deny(DENY.runnerSocketOnly),
  service: deny(DENY.adminRequired),
  executor: deny(DENY.executorScope),
  ...over,
});

/** External executions (src/execution/executors.ts): the executor kind only. */
const executorOnly: Record<CredentialKind, Access> = {
  admin: deny(DENY.executorRequired),
  agent: deny(DENY.executorRequired),
  human: deny(DENY.executorRequired),
  runner: deny(DENY.runnerSocketOnly),
  service: deny(DENY.executorRequired),
  executor: any,
};

/** Every authenticated kind (whoami, the OpenAPI description). */
const everyone: Record<CredentialKind, Access> = {
  admin: any,
  agent: any,
  human: any,
  runner: any,
  service: any,
  executor: any,
};

/** Open without any credential. `/metrics` can be given its own token (BRABO_METRICS_TOKEN). */
export const OPEN_ROUTES: ReadonlyArray<{ method: 'GET'; url: string }> = [
  { method: 'GET', url: '/healthz' },
  { method: 'GET', url: '/readyz' },
  { method: 'GET', url: '/metrics' },
];

/** Who may load the console and hold its cookie: a human (the console's user) and the upstream service. */
const consoleUser: Record<CredentialKind, Access> = {
  admin: deny(DENY.consoleNeedsHuman),
  agent: deny(DENY.consoleNeedsHuman),
  human: any,
  runner: deny(DENY.consoleNeedsHuman),
  service: any,
  executor: deny(DENY.consoleNeedsHuman),
};

export const ROUTE_TABLE: readonly RouteRule[] = [
  // The console: its files need a credential (bearer, or the cookie POST /console/session sets)
  { method: 'GET', url: '/', resource: 'none', consoleCookie: true, access: consoleUser },
  { method: 'GET', url: '/assets/*', resource: 'none', consoleCookie: true, access: consoleUser },
  { method: 'GET', url: '/favicon.svg', resource: 'none', consoleCookie: true, access: consoleUser },
  { method: 'POST', url: '/console/session', resource: 'none', access: consoleUser },
  { method: 'DELETE', url: '/console/session', resource: 'none', access: consoleUser },
  // Provisioning
  { method: 'POST', url: '/api/projects', resource: 'none', access: provisioning() },
  {
    method: 'GET',
    url: '/api/projects/:id',
    resource: 'project',
    access: provisioning({ human: member, service: any, agent: ownProject }),
  },
  {
    method: 'PUT',
    url: '/api/projects/:id/members/:userId',
    resource: 'project',
    acting: 'optional-user',
    access: provisioning({ human: member, service: any }),
  },
  {
    method: 'GET',
    url: '/api/projects/:id/members',
    resource: 'project',
    access: provisioning({ human: member, service: any }),
  },
  {
    method: 'PUT',
    url: '/api/projects/:id/sandbox',
    resource: 'project',
    acting: 'optional-user',
    access: provisioning({ human: member, service: any }),
  },
  {
    method: 'POST',
    url: '/api/projects/:id/runner-tokens',
    resource: 'project',
    access: provisioning({ human: maintainer, service: any }),
  },
  {
    method: 'DELETE',
    url: '/api/projects/:id/runner-tokens/:tokenId',
    resource: 'project',
    access: provisioning({ human: maintainer, service: any }),
  },
  { method: 'POST', url: '/api/credentials', resource: 'none', access: provisioning() },
  { method: 'GET', url: '/api/credentials', resource: 'none', access: provisioning() },
  { method: 'DELETE', url: '/api/credentials/:id', resource: 'none', access: provisioning() },
  { method: 'GET', url: '/api/me', resource: 'none', access: everyone },
  // Project configuration (a member's decision; the use cases check the role)
  { method: 'POST', url: '/api/projects/:id/activate-execution', resource: 'project', acting: 'user', access: daily() },
  { method: 'GET', url: '/api/projects/:id/permissions', resource: 'project', access: daily() },
  { method: 'PUT', url: '/api/projects/:id/permissions', resource: 'project', acting: 'user', access: daily() },
  { method: 'GET', url: '/api/projects/:id/agent-autonomy', resource: 'project', access: daily() },
  { method: 'PUT', url: '/api/projects/:id/agent-autonomy', resource: 'project', acting: 'user', access: daily() },
  // Actions: agents propose and read their own; humans decide
  {
    method: 'POST',
    url: '/api/projects/:id/actions',
    resource: 'project',
    acting: 'agent',
    access: daily({ agent: ownProject, human: deny(DENY.proposeNeedsAgent) }),
  },
  { method: 'GET', url: '/api/projects/:id/actions', resource: 'project', access: daily({ agent: ownProject }) },
  { method: 'GET', url: '/api/actions/:id', resource: 'action', access: daily({ agent: ownAction }) },
  { method: 'GET', url: '/api/actions/:id/settlement', resource: 'action', access: daily({ agent: ownAction }) },
  {
    method: 'POST',
    url: '/api/actions/:id/approve',
    resource: 'action',
    acting: 'user',
    access: daily({ agent: deny(DENY.agentCannotDecide) }),
  },
  {
    method: 'POST',
    url: '/api/actions/:id/deny',
    resource: 'action',
    acting: 'user',
    access: daily({ agent: deny(DENY.agentCannotDecide) }),
  },
  {
    method: 'POST',
    url: '/api/actions/:id/approve-always',
    resource: 'action',
    acting: 'user',
    access: daily({ agent: deny(DENY.agentCannotDecide) }),
  },
  { method: 'GET', url: '/api/projects/:id/events', resource: 'project', access: daily() },
  // Containers page and hand-offs (a human proposes or accepts)
  { method: 'GET', url: '/api/containers', resource: 'none', access: daily() },
  {
    method: 'POST',
    url: '/api/containers/:projectId/stop',
    resource: 'container-project',
    acting: 'user',
    access: daily(),
  },
  {
    method: 'POST',
    url: '/api/containers/:projectId/remove',
    resource: 'container-project',
    acting: 'user',
    access: daily(),
  },
  {
    method: 'POST',
    url: '/api/projects/:id/handoffs/infra/accept',
    resource: 'project',
    acting: 'user',
    access: daily(),
  },
  // Tasks
  { method: 'POST', url: '/api/projects/:id/tasks', resource: 'project', access: daily() },
  { method: 'GET', url: '/api/tasks/:id', resource: 'task', access: daily({ agent: ownProject }) },
  // Live output and the console's read models (a human sees its own projects; the service all)
  { method: 'GET', url: '/api/actions/:id/output', resource: 'action', access: daily({ agent: ownAction }) },
  { method: 'GET', url: '/api/console/projects', resource: 'none', access: daily() },
  { method: 'GET', url: '/api/console/queue', resource: 'none', access: daily() },
  { method: 'GET', url: '/api/console/review', resource: 'none', access: daily() }, // filters ids by the viewer
  { method: 'GET', url: '/api/console/actions/:id', resource: 'action', access: daily() },
  { method: 'GET', url: '/api/console/runners', resource: 'none', access: daily() },
  { method: 'GET', url: '/api/console/events', resource: 'query-project', access: daily() },
  // Operations: the cluster's nodes and where each runner is connected
  { method: 'GET', url: '/api/cluster', resource: 'none', access: provisioning({ service: any }) },
  // External executors claim queued actions of the types the gateway does not run, and report them
  { method: 'POST', url: '/api/executors/:type/claim', resource: 'none', access: executorOnly },
  { method: 'POST', url: '/api/executors/:type/dispatches/:dispatchId/report', resource: 'none', access: executorOnly },
  { method: 'POST', url: '/api/executors/:type/dispatches/:dispatchId/extend', resource: 'none', access: executorOnly },
  // The OpenAPI description and its UI: any credential (no longer open)
  { method: 'GET', url: '/docs*', resource: 'none', access: everyone },
];

/** The rule of a matched route template, or null (then refused: route_not_in_table). */
export function ruleFor(method: string, url: string): RouteRule | null {
  for (const rule of ROUTE_TABLE) {
    if (rule.method !== method && !(method === 'HEAD' && rule.method === 'GET')) continue;
    if (rule.url.endsWith('*') ? url.startsWith(rule.url.slice(0, -1)) : rule.url === url) return rule;
  }
  return null;
}

export const isOpenRoute = (method: string, url: string | undefined): boolean =>
  url !== undefined && (method === 'GET' || method === 'HEAD') && OPEN_ROUTES.some((r) => r.url === url);

// ---- socket topics ----------------------------------------------------------------------------

export interface TopicRule {
  /** `runner:*`: the suffix is the project id; `agent:*`: the agent id (`agent:*` itself = every agent). */
  topic: 'runner:*' | 'agent:*' | 'agent:all' | 'project:*' | 'executor:*';
  access: Record<CredentialKind, Access | { allow: 'own-agent' }>;
}

export const TOPIC_TABLE: readonly TopicRule[] = [
  {
    topic: 'runner:*',
    access: {
      admin: deny(DENY.adminProvisioningOnly),
      agent: deny(DENY.agentScope),
      human: member, // watches presence of its projects' runners
      runner: ownProject,
      service: any, // watcher
      executor: deny(DENY.executorScope),
    },
  },
  {
    topic: 'agent:*',
    access: {
      admin: deny(DENY.adminProvisioningOnly),
      agent: { allow: 'own-agent' },
      human: deny(DENY.agentTopicOnly),
      runner: deny(DENY.runnerSocketOnly),
      service: any, // the upstream api relays to its agents
      executor: deny(DENY.executorScope),
    },
  },
  {
    topic: 'agent:all',
    access: {
      admin: deny(DENY.adminProvisioningOnly),
      agent: deny(DENY.agentTopicOnly),
      human: deny(DENY.agentTopicOnly),
      runner: deny(DENY.runnerSocketOnly),
      service: any,
      executor: deny(DENY.executorScope),
    },
  },
  {
    // The console's live feed of one project (pending actions, runner presence, output).
    topic: 'project:*',
    access: {
      admin: deny(DENY.adminProvisioningOnly),
      agent: deny(DENY.agentScope),
      human: member,
      runner: deny(DENY.runnerSocketOnly),
      service: any,
      executor: deny(DENY.executorScope),
    },
  },
  {
    // External executors: offers of one action type, and its claims and reports (src/execution/executor-channel.ts).
    topic: 'executor:*',
    access: executorOnly,
  },
];

export function topicRuleFor(topic: string): TopicRule | null {
  if (topic.startsWith('project:')) return TOPIC_TABLE.find((r) => r.topic === 'project:*') ?? null;
  if (topic === 'agent:*') return TOPIC_TABLE.find((r) => r.topic === 'agent:all') ?? null;
  if (topic.startsWith('agent:')) return TOPIC_TABLE.find((r) => r.topic === 'agent:*') ?? null;
  if (topic.startsWith('runner:')) return TOPIC_TABLE.find((r) => r.topic === 'runner:*') ?? null;
  if (topic.startsWith('executor:')) return TOPIC_TABLE.find((r) => r.topic === 'executor:*') ?? null;
  return null;
}
