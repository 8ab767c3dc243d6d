// The authorization table, walked: every registered route has exactly one row, and every row is
// called with every credential kind. Where the table allows the kind, the call must get past the
// guard (never 401, never a 403 carrying one of the table's codes); where it refuses, the answer
// is 403 with the row's named code. Scoped kinds are also called on resources outside their
// binding (another project, another agent's action, a project the human is not a member of).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIAL_KINDS, type CredentialKind } from '../../src/auth/principal.ts';
import { DENY, OPEN_ROUTES, ROUTE_TABLE, type RouteRule, SCOPE_DENY } from '../../src/auth/table.ts';
import { registeredRoutes } from '../../src/http/server.ts';
import { loadExecutionConfig } from '../../src/config.ts';
import { ADMIN_TOKEN, seedProject, startTestApp, type TestApp } from '../http/helpers.ts';

const TABLE_CODES = new Set<string>([...Object.values(DENY), ...Object.values(SCOPE_DENY)]);

let t: TestApp;
let p: { id: string; root: string };
let q: { id: string; root: string };
const tokens = {} as Record<CredentialKind, string>;
let ownAction: string;
/** Settled (denied): its output stream ends at once instead of waiting for a settlement. */
let ownDeniedAction: string;
let otherAgentsAction: string;
let otherProjectAction: string;
let taskP: string;
let taskQ: string;

async function propose(projectId: string, root: string, agentId: string): Promise<string> {
  const r = await t.call('POST', `/api/projects/${projectId}/actions`, {
    agentId,
    actionType: 'terminal',
    payload: { command: 'make build', cwd: root },
  });
  if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  return r.body.id;
}

beforeAll(async () => {
  // With the execution side (no Docker): the settlement and live-output routes exist only there.
  t = await startTestApp({ execution: loadExecutionConfig({}, {}) });
  p = await seedProject(t);
  const created = await t.call('POST', '/api/projects', {
    name: 'Other',
    executionMode: 'container',
    ownerId: 'quinn',
  });
  q = { id: created.body.id, root: created.body.root };
  await t.call('PUT', `/api/projects/${q.id}/members/agent-q`, { role: 'developer', kind: 'agent' });
  tokens.admin = ADMIN_TOKEN;
  tokens.service = t.serviceToken;
  tokens.agent = (await t.mint({ kind: 'agent', projectId: p.id, agentId: 'agent-dev' })).token;
  tokens.human = (await t.mint({ kind: 'human', memberId: 'olivia' })).token;
  tokens.runner = (await t.mint({ kind: 'runner', projectId: p.id })).token;
  tokens.executor = (await t.mint({ kind: 'executor', name: 'git-bot' })).token;
  ownAction = await propose(p.id, p.root, 'agent-dev');
  ownDeniedAction = await propose(p.id, p.root, 'agent-dev');
  await t.call('POST', `/api/actions/${ownDeniedAction}/deny`, { userId: 'olivia', reason: 'walk' });
  otherAgentsAction = await propose(p.id, p.root, 'agent-lead');
  otherProjectAction = await propose(q.id, q.root, 'agent-q');
  taskP = (await t.call('POST', `/api/projects/${p.id}/tasks`, { title: 'p task' })).body.id;
  taskQ = (await t.call('POST', `/api/projects/${q.id}/tasks`, { title: 'q task' })).body.id;
});
afterAll(async () => t.close());

type Target = 'own' | 'other-project' | 'other-agent';

/** The URL of a row with its params filled in for `target`, and a body that passes validation. */
async function requestFor(
  rule: RouteRule,
  kind: CredentialKind,
  target: Target,
): Promise<{ url: string; body: unknown }> {
  const project = target === 'other-project' ? q : p;
  const action =
    target === 'other-project' ? otherProjectAction : target === 'other-agent' ? otherAgentsAction : ownAction;
  let url = rule.url
    .replace('*', '/json')
    .replace(':projectId', project.id)
    .replace(
      ':tokenId',
      rule.url.includes('runner-tokens')
        ? (await t.call('POST', `/api/projects/${project.id}/runner-tokens`)).body.tokenId
        : 'x',
    )
    .replace(':userId', 'newbie')
    .replace(':type', 'git_push')
    .replace(':dispatchId', 'no-such-dispatch');
  if (rule.resource === 'action')
    url = url.replace(':id', rule.url.endsWith('/output') && target === 'own' ? ownDeniedAction : action);
  else if (rule.resource === 'task') url = url.replace(':id', target === 'other-project' ? taskQ : taskP);
  else if (rule.url === '/api/credentials/:id')
    url = url.replace(':id', (await t.mint({ kind: 'service', name: 'throwaway' })).id);
  else url = url.replace(':id', project.id);
  if (rule.resource === 'query-project') url += `?projectId=${project.id}`;
  if (rule.url.endsWith('/claim')) url += '?wait=0';
  // The acting user: a service names it; a human token may leave it out (it is the token's member).
  const user = kind === 'human' ? {} : { userId: 'olivia' };
  const bodies: Record<string, unknown> = {
    'POST /api/projects': { name: 'Walk', executionMode: 'container', ownerId: 'olivia' },
    'PUT /api/projects/:id/members/:userId': {
      role: 'developer',
      ...(kind === 'service' ? { actingUserId: 'olivia' } : {}),
    },
    'PUT /api/projects/:id/sandbox': { required: false, ...(kind === 'service' ? { actingUserId: 'olivia' } : {}) },
    'POST /api/credentials': { kind: 'service', name: 'walker' },
    'POST /api/projects/:id/actions': {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: 'ls', cwd: project.root },
    },
    'POST /api/actions/:id/deny': { ...user, reason: 'walked' },
    'PUT /api/projects/:id/permissions': { ...user, allow: [], deny: [], ask: [] },
    'PUT /api/projects/:id/agent-autonomy': {
      ...user,
      agentId: 'agent-dev',
      actionType: 'terminal',
      mode: 'require_approval',
    },
    'POST /api/projects/:id/tasks': { title: 'walked' },
    'POST /api/executors/:type/dispatches/:dispatchId/report': { attempt: 1, status: 'executed' },
    'POST /api/executors/:type/dispatches/:dispatchId/extend': { attempt: 1 },
  };
  const key = `${rule.method} ${rule.url}`;
  const body = key in bodies ? bodies[key] : rule.method === 'GET' || rule.method === 'DELETE' ? undefined : user;
  return { url, body };
}

describe('the authorization table', () => {
  it('has one row for every registered route, and every row is a registered route', () => {
    const open = OPEN_ROUTES;
    const routes = registeredRoutes(t.app.http).filter(
      (r) => !open.some((o) => o.url === r.url && o.method === r.method),
    );
    const rowOf = (r: { method: string; url: string }) =>
      ROUTE_TABLE.filter(
        (row) =>
          row.method === r.method &&
          (row.url.endsWith('*') ? r.url.startsWith(row.url.slice(0, -1)) : row.url === r.url),
      );
    for (const route of routes) expect(rowOf(route), `${route.method} ${route.url}`).toHaveLength(1);
    for (const row of ROUTE_TABLE.filter((r) => !r.url.endsWith('*'))) {
      expect(
        routes.some((r) => r.method === row.method && r.url === row.url),
        `${row.method} ${row.url} is in the table but not served`,
      ).toBe(true);
    }
    expect(routes.length).toBeGreaterThan(25);
  });

  const cases = ROUTE_TABLE.flatMap((rule) => CREDENTIAL_KINDS.map((kind) => ({ rule, kind })));
  it.each(cases.map((c) => [`${c.rule.method} ${c.rule.url} as ${c.kind}`, c] as const))(
    '%s',
    async (_name, { rule, kind }) => {
      const access = rule.access[kind];
      const { url, body } = await requestFor(rule, kind, 'own');
      const r = await t.callAs(tokens[kind], rule.method, url, body);
      if ('deny' in access) {
        expect(r.status, JSON.stringify(r.body)).toBe(403);
        expect(r.body.error).toBe(access.deny);
        expect(typeof r.body.message).toBe('string');
        return;
      }
      expect(r.status, JSON.stringify(r.body)).not.toBe(401);
      if (r.status === 403) expect(TABLE_CODES.has(r.body.error), `${r.body.error}: ${r.body.message}`).toBe(false);
      expect(r.status, JSON.stringify(r.body)).not.toBe(500); // 503 execution_disabled is a named answer of this API-only app

      // Outside the binding: another project (agent, runner, human) or another agent's action.
      if (
        rule.resource !== 'none' &&
        (access.allow === 'own-project' || access.allow === 'own-action' || access.allow === 'member')
      ) {
        const outside = await requestFor(rule, kind, 'other-project');
        const o = await t.callAs(tokens[kind], rule.method, outside.url, outside.body);
        expect(o.status, JSON.stringify(o.body)).toBe(403);
        expect(o.body.error).toBe(kind === 'human' ? SCOPE_DENY.notAMember : SCOPE_DENY.otherProject);
      }
      if (access.allow === 'own-action') {
        const other = await requestFor(rule, kind, 'other-agent');
        const o = await t.callAs(tokens[kind], rule.method, other.url, other.body);
        expect(o.status, JSON.stringify(o.body)).toBe(403);
        expect(o.body.error).toBe(SCOPE_DENY.otherAgent);
      }
    },
  );

  it('without a credential every row is 401 (only /healthz, /readyz and /metrics are open)', async () => {
    for (const rule of ROUTE_TABLE) {
      const { url, body } = await requestFor(rule, 'service', 'own');
      const r = await t.callAs(null, rule.method, url, body);
      expect(r.status, `${rule.method} ${url}`).toBe(401);
    }
    expect((await t.callAs(null, 'GET', '/healthz')).status).toBe(200);
    expect((await t.callAs(null, 'GET', '/metrics')).status).toBe(200);
  });

  it("the open routes are health, readiness and metrics only; the console's files have rows that read its cookie", () => {
    expect(OPEN_ROUTES.map((r) => r.url).sort()).toEqual(['/healthz', '/metrics', '/readyz']);
    const cookieRows = ROUTE_TABLE.filter((r) => r.consoleCookie).map((r) => `${r.method} ${r.url}`);
    expect(cookieRows.sort()).toEqual(['GET /', 'GET /assets/*', 'GET /favicon.svg']);
  });
});
