// Adversarial: every credential kind pushed past its binding. Agents never decide and never read
// beyond their own actions and project; a human token acts as its member only; revoked and expired
// tokens stop working; a token of one kind is refused where another is expected; events record the
// credential (id, kind, via) and never a secret; failed authentications are limited per source.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import { DEFAULT_AUTH_CONFIG } from '../../src/config.ts';
import { createLogger } from '../../src/logger.ts';
import {
  ADMIN_TOKEN,
  eventsOf,
  OWNER,
  seedProject,
  startTestApp,
  testAppConfig,
  type TestApp,
} from '../http/helpers.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let t: TestApp;
let p: Awaited<ReturnType<typeof seedProject>>;
let q: { id: string; root: string };
let agent: { token: string; id: string };
let lead: { token: string; id: string };
let olivia: { token: string; id: string };
let dev: { token: string; id: string };
let runner: { token: string; id: string };

beforeAll(async () => {
  t = await startTestApp();
  p = await seedProject(t);
  const created = await t.call('POST', '/api/projects', {
    name: 'Other',
    executionMode: 'container',
    ownerId: 'quinn',
  });
  q = { id: created.body.id, root: created.body.root };
  await t.call('PUT', `/api/projects/${q.id}/members/agent-dev`, { role: 'developer', kind: 'agent' });
  agent = await t.mint({ kind: 'agent', projectId: p.id, agentId: 'agent-dev' });
  lead = await t.mint({ kind: 'agent', projectId: p.id, agentId: 'agent-lead' });
  olivia = await t.mint({ kind: 'human', memberId: OWNER });
  dev = await t.mint({ kind: 'human', memberId: 'dev' });
  runner = await t.mint({ kind: 'runner', projectId: p.id });
});
afterAll(async () => t.close());

const proposeAs = async (
  token: string,
  agentId = 'agent-dev',
  projectId = p.id,
  root = p.root,
  command = 'make build',
) =>
  t.callAs(token, 'POST', `/api/projects/${projectId}/actions`, {
    agentId,
    actionType: 'terminal',
    payload: { command, cwd: root },
  });
const statusOf = async (actionId: string) => (await t.call('GET', `/api/actions/${actionId}`)).body.status;

describe('an agent token proposes as its agent and never decides', () => {
  it('proposes as itself; its own action cannot be approved, denied or always-allowed with its token, in any body', async () => {
    const own = await proposeAs(agent.token);
    expect(own.status).toBe(201);
    expect(own.body.status).toBe('pending');
    for (const [path, body] of [
      ['approve', {}],
      ['approve', { userId: 'olivia' }],
      ['approve', { userId: 'agent-dev' }],
      ['approve', { actingUserId: 'olivia' }],
      ['deny', { userId: 'olivia', reason: 'x' }],
      ['approve-always', { userId: 'olivia' }],
    ] as const) {
      const r = await t.callAs(agent.token, 'POST', `/api/actions/${own.body.id}/${path}`, body);
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(403);
      expect(r.body.error).toBe('agent_cannot_decide');
    }
    expect(await statusOf(own.body.id)).toBe('pending');
  });

  it("cannot decide any other action either (another agent's, another project's)", async () => {
    const others = [
      (await proposeAs(lead.token, 'agent-lead')).body.id,
      (
        await t.call('POST', `/api/projects/${q.id}/actions`, {
          agentId: 'agent-dev',
          actionType: 'terminal',
          payload: { command: 'make', cwd: q.root },
        })
      ).body.id,
    ];
    for (const id of others) {
      for (const path of ['approve', 'deny', 'approve-always']) {
        const r = await t.callAs(agent.token, 'POST', `/api/actions/${id}/${path}`, { userId: 'olivia', reason: 'r' });
        expect(r.status).toBe(403);
        expect(r.body.error).toBe('agent_cannot_decide');
      }
      expect(await statusOf(id)).toBe('pending');
    }
  });

  it('cannot propose as another agent, nor into another project (even where the same agent id is a member)', async () => {
    const asLead = await proposeAs(agent.token, 'agent-lead');
    expect(asLead).toMatchObject({ status: 403, body: { error: 'acting_agent_mismatch' } });
    const elsewhere = await proposeAs(agent.token, 'agent-dev', q.id, q.root);
    expect(elsewhere).toMatchObject({ status: 403, body: { error: 'other_project' } });
  });

  it("reads its own actions and settlement only; never another agent's, another project, the events or the config", async () => {
    const own = (await proposeAs(agent.token)).body.id;
    const theirs = (await proposeAs(lead.token, 'agent-lead')).body.id;
    expect((await t.callAs(agent.token, 'GET', `/api/actions/${own}`)).status).toBe(200);
    expect(await t.callAs(agent.token, 'GET', `/api/actions/${theirs}`)).toMatchObject({
      status: 403,
      body: { error: 'not_own_action' },
    });
    expect(await t.callAs(agent.token, 'GET', `/api/actions/${theirs}/settlement`)).toMatchObject({
      status: 403,
      body: { error: 'not_own_action' },
    });
    const listed = await t.callAs(agent.token, 'GET', `/api/projects/${p.id}/actions`);
    expect(listed.status).toBe(200);
    expect(listed.body.actions.length).toBeGreaterThan(0);
    expect(listed.body.actions.every((a: { proposerId: string }) => a.proposerId === 'agent-dev')).toBe(true);
    for (const url of [`/api/projects/${q.id}`, `/api/projects/${q.id}/actions`]) {
      expect(await t.callAs(agent.token, 'GET', url), url).toMatchObject({
        status: 403,
        body: { error: 'other_project' },
      });
    }
    for (const url of [
      `/api/projects/${p.id}/events`,
      `/api/projects/${p.id}/permissions`,
      `/api/projects/${p.id}/members`,
      '/api/containers',
      '/api/credentials',
    ]) {
      const r = await t.callAs(agent.token, 'GET', url);
      expect(r.status, url).toBe(403);
      expect(['agent_token_scope', 'admin_token_required']).toContain(r.body.error);
    }
    const put = await t.callAs(agent.token, 'PUT', `/api/projects/${p.id}/permissions`, {
      userId: 'olivia',
      allow: ['Terminal(curl:*)'],
    });
    expect(put).toMatchObject({ status: 403, body: { error: 'agent_token_scope' } });
    const autonomy = await t.callAs(agent.token, 'PUT', `/api/projects/${p.id}/agent-autonomy`, {
      userId: 'olivia',
      agentId: 'agent-dev',
      actionType: '*',
      mode: 'auto_approve',
    });
    expect(autonomy).toMatchObject({ status: 403, body: { error: 'agent_token_scope' } });
  });
});

describe('a human token decides as its member only', () => {
  it('approves as its member (body userId optional); naming anyone else is 403 acting_user_mismatch and nothing changes', async () => {
    const first = (await proposeAs(agent.token)).body.id;
    for (const body of [
      { userId: 'max' },
      { actingUserId: 'max' },
      { userId: 'olivia', actingUserId: 'max' },
      { userId: 'agent-dev' },
    ]) {
      const r = await t.callAs(olivia.token, 'POST', `/api/actions/${first}/approve`, body);
      expect(r, JSON.stringify(body)).toMatchObject({ status: 403, body: { error: 'acting_user_mismatch' } });
    }
    const denyAsMax = await t.callAs(olivia.token, 'POST', `/api/actions/${first}/deny`, {
      userId: 'max',
      reason: 'no',
    });
    expect(denyAsMax.body.error).toBe('acting_user_mismatch');
    expect(await statusOf(first)).toBe('pending');
    const ok = await t.callAs(olivia.token, 'POST', `/api/actions/${first}/approve`, {});
    expect(ok.status).toBe(200);
    expect(ok.body.action.decidedBy).toBe(OWNER);
    const approved = (await eventsOf(t, p.id)).find(
      (e) => e.actionId === first && e.type === 'proposed_action.approved',
    );
    expect(approved?.payload.credential).toEqual({ id: olivia.id, kind: 'human' });
    expect(approved?.payload.via).toBeUndefined();
  });

  it("a member's own role still applies (the developer cannot approve what needs a maintainer)", async () => {
    const branch = await t.callAs(agent.token, 'POST', `/api/projects/${p.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'git_branch_create',
      payload: { branch: 'x' },
    });
    const r = await t.callAs(dev.token, 'POST', `/api/actions/${branch.body.id}/approve`, {});
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('role_below_minimum');
  });

  it("a project the member does not belong to is 403 not_a_member; proposing is not a human token's", async () => {
    const theirs = (
      await t.call('POST', `/api/projects/${q.id}/actions`, {
        agentId: 'agent-dev',
        actionType: 'terminal',
        payload: { command: 'make', cwd: q.root },
      })
    ).body.id;
    expect(await t.callAs(olivia.token, 'POST', `/api/actions/${theirs}/approve`, {})).toMatchObject({
      status: 403,
      body: { error: 'not_a_member' },
    });
    expect(await t.callAs(olivia.token, 'GET', `/api/projects/${q.id}/events`)).toMatchObject({
      status: 403,
      body: { error: 'not_a_member' },
    });
    expect(await statusOf(theirs)).toBe('pending');
    expect(await proposeAs(olivia.token)).toMatchObject({ status: 403, body: { error: 'propose_needs_agent_token' } });
  });

  it('GET /api/me: the kind, the member and the projects it is a human member of', async () => {
    const me = await t.callAs(olivia.token, 'GET', '/api/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ kind: 'human', credentialId: olivia.id, memberId: OWNER, allProjects: false });
    expect(me.body.projects).toEqual([{ projectId: p.id, projectName: 'Shop API', role: 'owner' }]);
    expect((await t.callAs(agent.token, 'GET', '/api/me')).body).toMatchObject({
      kind: 'agent',
      agentId: 'agent-dev',
      projects: [{ projectId: p.id, role: 'developer' }],
    });
  });
});

describe('a service token names the acting user, and events say it came through the service', () => {
  it('records decidedBy = the named user and via: service:<name>; conflicting names are refused; a name is required', async () => {
    const id = (await proposeAs(agent.token)).body.id;
    expect(
      await t.callAs(t.serviceToken, 'POST', `/api/actions/${id}/approve`, { userId: 'olivia', actingUserId: 'max' }),
    ).toMatchObject({ status: 403, body: { error: 'acting_user_mismatch' } });
    expect(await t.callAs(t.serviceToken, 'POST', `/api/actions/${id}/approve`, {})).toMatchObject({
      status: 400,
      body: { error: 'acting_user_required' },
    });
    const r = await t.callAs(t.serviceToken, 'POST', `/api/actions/${id}/approve`, { actingUserId: 'max' });
    expect(r.status).toBe(200);
    expect(r.body.action.decidedBy).toBe('max');
    const approved = (await eventsOf(t, p.id)).find((e) => e.actionId === id && e.type === 'proposed_action.approved');
    expect(approved?.actorId).toBe('max');
    expect(approved?.payload).toMatchObject({
      credential: { id: t.serviceCredentialId, kind: 'service' },
      via: 'service:test-upstream',
    });
  });
});

describe('a token of one kind where another is expected', () => {
  it('runner on HTTP, agent/human/service on provisioning, admin on day-to-day calls: 403 with the named code', async () => {
    const action = (await proposeAs(agent.token)).body.id;
    const cases: Array<[string, 'GET' | 'POST' | 'PUT', string, unknown, string]> = [
      [runner.token, 'GET', `/api/projects/${p.id}`, undefined, 'runner_token_socket_only'],
      [runner.token, 'POST', `/api/actions/${action}/approve`, { userId: 'olivia' }, 'runner_token_socket_only'],
      [
        runner.token,
        'POST',
        `/api/projects/${p.id}/actions`,
        { agentId: 'agent-dev', actionType: 'terminal', payload: { command: 'ls' } },
        'runner_token_socket_only',
      ],
      [
        agent.token,
        'POST',
        '/api/projects',
        { name: 'x', executionMode: 'container', ownerId: 'agent-dev' },
        'admin_token_required',
      ],
      [
        agent.token,
        'POST',
        '/api/credentials',
        { kind: 'agent', projectId: p.id, agentId: 'agent-lead' },
        'admin_token_required',
      ],
      [agent.token, 'PUT', `/api/projects/${p.id}/members/agent-dev`, { role: 'owner' }, 'admin_token_required'],
      [olivia.token, 'POST', '/api/credentials', { kind: 'human', memberId: 'max' }, 'admin_token_required'],
      [t.serviceToken, 'POST', '/api/credentials', { kind: 'service', name: 'again' }, 'admin_token_required'],
      [
        t.serviceToken,
        'POST',
        '/api/projects',
        { name: 'x', executionMode: 'container', ownerId: 'olivia' },
        'admin_token_required',
      ],
      [ADMIN_TOKEN, 'POST', `/api/actions/${action}/approve`, { userId: 'olivia' }, 'admin_token_provisioning_only'],
      [
        ADMIN_TOKEN,
        'POST',
        `/api/projects/${p.id}/actions`,
        { agentId: 'agent-dev', actionType: 'terminal', payload: { command: 'ls' } },
        'admin_token_provisioning_only',
      ],
      [ADMIN_TOKEN, 'GET', `/api/projects/${p.id}/events`, undefined, 'admin_token_provisioning_only'],
    ];
    for (const [token, method, url, body, code] of cases) {
      const r = await t.callAs(token, method, url, body);
      expect(r.status, `${method} ${url} -> ${JSON.stringify(r.body)}`).toBe(403);
      expect(r.body.error, `${method} ${url}`).toBe(code);
    }
    expect(await statusOf(action)).toBe('pending');
  });

  it('the admin token keeps provisioning: projects, members, runner tokens (201 {token, tokenId, projectId}), credentials', async () => {
    const created = await t.callAs(ADMIN_TOKEN, 'POST', '/api/projects', {
      name: 'Prov',
      executionMode: 'container',
      ownerId: 'olivia',
    });
    expect(created.status).toBe(201);
    expect(
      (await t.callAs(ADMIN_TOKEN, 'PUT', `/api/projects/${created.body.id}/members/max`, { role: 'maintainer' }))
        .status,
    ).toBe(200);
    const grant = await t.callAs(ADMIN_TOKEN, 'POST', `/api/projects/${created.body.id}/runner-tokens`);
    expect(grant.status).toBe(201);
    expect(Object.keys(grant.body).sort()).toEqual(['projectId', 'token', 'tokenId']);
    expect(grant.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(
      (await t.callAs(ADMIN_TOKEN, 'DELETE', `/api/projects/${created.body.id}/runner-tokens/${grant.body.tokenId}`))
        .status,
    ).toBe(204);
  });
});

describe('revoked and expired tokens', () => {
  it('a revoked token is 401 credential_revoked on its next call; the list shows it revoked and never a secret', async () => {
    const doomed = await t.mint({ kind: 'agent', projectId: p.id, agentId: 'agent-dev', label: 'doomed' });
    expect((await proposeAs(doomed.token)).status).toBe(201);
    const revoked = await t.callAs(ADMIN_TOKEN, 'DELETE', `/api/credentials/${doomed.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.credential.revokedAt).not.toBeNull();
    expect(await proposeAs(doomed.token)).toMatchObject({ status: 401, body: { error: 'credential_revoked' } });
    const listed = await t.callAs(ADMIN_TOKEN, 'GET', '/api/credentials?includeRevoked=true');
    const row = listed.body.credentials.find((c: { id: string }) => c.id === doomed.id);
    expect(row).toMatchObject({ kind: 'agent', projectId: p.id, agentId: 'agent-dev', label: 'doomed' });
    expect(row.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed.body)).not.toContain(doomed.token);
    expect(
      (await t.callAs(ADMIN_TOKEN, 'GET', '/api/credentials')).body.credentials.some(
        (c: { id: string }) => c.id === doomed.id,
      ),
    ).toBe(false);
    expect((await t.callAs(ADMIN_TOKEN, 'DELETE', '/api/credentials/nope')).body.error).toBe('credential_not_found');
  });

  it('an expired token is 401 credential_expired; an expiry in the past is refused at minting', async () => {
    const soon = new Date(Date.now() + 400).toISOString();
    const short = await t.mint({ kind: 'human', memberId: OWNER, expiresAt: soon });
    expect((await t.callAs(short.token, 'GET', '/api/me')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(soon) - Date.now() + 20)));
    expect(await t.callAs(short.token, 'GET', '/api/me')).toMatchObject({
      status: 401,
      body: { error: 'credential_expired' },
    });
    const past = await t.callAs(ADMIN_TOKEN, 'POST', '/api/credentials', {
      kind: 'human',
      memberId: OWNER,
      expiresAt: '2000-01-01T00:00:00Z',
    });
    expect(past).toMatchObject({ status: 400, body: { error: 'invalid_expiry' } });
  });

  it('minting checks the binding: an agent token needs an agent member of that project', async () => {
    for (const body of [
      { kind: 'agent', projectId: p.id, agentId: 'olivia' },
      { kind: 'agent', projectId: p.id, agentId: 'ghost' },
    ]) {
      expect((await t.callAs(ADMIN_TOKEN, 'POST', '/api/credentials', body)).body.error).toBe('not_an_agent_member');
    }
    expect(
      (
        await t.callAs(ADMIN_TOKEN, 'POST', '/api/credentials', {
          kind: 'agent',
          projectId: 'nope',
          agentId: 'agent-dev',
        })
      ).body.error,
    ).toBe('project_not_found');
    expect((await t.callAs(ADMIN_TOKEN, 'POST', '/api/credentials', { kind: 'human' })).body.error).toBe(
      'binding_required',
    );
  });
});

describe('events record the credential, never the secret', () => {
  it('every event of a request carries {id, kind}; no event contains any token', async () => {
    const id = (await proposeAs(agent.token)).body.id;
    await t.callAs(olivia.token, 'POST', `/api/actions/${id}/deny`, { reason: 'not now' });
    const events = (await eventsOf(t, p.id)).filter((e) => e.actionId === id);
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['proposed_action.created', 'proposed_action.denied']),
    );
    expect(events.find((e) => e.type === 'proposed_action.created')?.payload.credential).toEqual({
      id: agent.id,
      kind: 'agent',
    });
    expect(events.find((e) => e.type === 'proposed_action.denied')?.payload.credential).toEqual({
      id: olivia.id,
      kind: 'human',
    });
    const all = JSON.stringify(await eventsOf(t, p.id));
    for (const secret of [agent.token, lead.token, olivia.token, dev.token, runner.token, t.serviceToken, ADMIN_TOKEN])
      expect(all).not.toContain(secret);
  });
});

describe('configuration', () => {
  async function appWith(auth: Partial<typeof DEFAULT_AUTH_CONFIG>, log?: Writable, existingDir?: string) {
    const dir = existingDir ?? mkdtempSync(join(tmpdir(), 'brabo-creds-'));
    const app = await createApp(testAppConfig(dir, { auth: { ...DEFAULT_AUTH_CONFIG, ...auth }, logLevel: 'info' }), {
      logger: createLogger(log ? 'info' : 'silent', log),
    });
    const inject = async (method: 'GET' | 'POST', url: string, token: string | null, body?: unknown) => {
      const r = await app.http.inject({
        method,
        url,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return { status: r.statusCode, body: r.json() as any, headers: r.headers };
    };
    return {
      app,
      dir,
      inject,
      stop: () => app.close(),
      close: async () => {
        await app.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }

  it('failed authentications are limited per source: 429 auth_rate_limited (valid tokens too, meanwhile), logged without the secret', async () => {
    let logged = '';
    const sink = new Writable({
      write(chunk, _e, done) {
        logged += chunk.toString();
        done();
      },
    });
    const s = await appWith({ maxAuthFailures: 3 }, sink);
    try {
      const guesses = [
        'brabo_agent_guess-one-xxxxxxxxxxxxxxxx',
        'brabo_human_guess-two-yyyyyyyyyyyy',
        'plain-guess-three-zzzzzzzzzzzz',
      ];
      for (const guess of guesses) expect((await s.inject('GET', '/api/me', guess)).status).toBe(401);
      const limited = await s.inject('GET', '/api/me', 'brabo_service_guess-four-wwwwwwwwww');
      expect(limited.status).toBe(429);
      expect(limited.body.error).toBe('auth_rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await s.inject('GET', '/api/me', ADMIN_TOKEN)).status).toBe(429);
      expect((await s.inject('GET', '/healthz', null)).status).toBe(200);
      expect(logged).toContain('auth_failed');
      expect(logged).toContain('auth_rate_limited');
      for (const guess of guesses) expect(logged).not.toContain(guess);
      expect(logged).not.toContain(ADMIN_TOKEN);
    } finally {
      await s.close();
    }
  });

  it('wrong /metrics tokens count as failed authentications: limited per source (429) and logged without the secret', async () => {
    let logged = '';
    const sink = new Writable({
      write(chunk, _e, done) {
        logged += chunk.toString();
        done();
      },
    });
    const metricsToken = 'metrics-token-0123456789abcdef';
    const s = await appWith({ maxAuthFailures: 3, metricsToken }, sink);
    const metrics = (bearer: string | null) =>
      s.app.http.inject({
        method: 'GET',
        url: '/metrics',
        headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` },
      });
    try {
      const guesses = [null, 'metrics-token-guess-1xxxxxxxx', 'metrics-token-guess-2yyyyyyyy'];
      for (const guess of guesses) expect((await metrics(guess)).statusCode).toBe(401);
      const limited = await metrics('metrics-token-guess-3zzzzzzzz');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe('auth_rate_limited');
      // The right token waits too while the source is limited, and so do the API routes.
      expect((await metrics(metricsToken)).statusCode).toBe(429);
      expect((await s.inject('GET', '/api/me', ADMIN_TOKEN)).status).toBe(429);
      expect((await s.inject('GET', '/healthz', null)).status).toBe(200);
      expect(logged).toContain('metrics_token_required');
      for (const guess of guesses.slice(1)) expect(logged).not.toContain(guess);
      expect(logged).not.toContain(metricsToken);
    } finally {
      await s.close();
    }
  });

  it('BRABO_SERVICE_TOKENS=0: no service token is minted, and one minted before stops working', async () => {
    const on = await appWith({});
    const minted = await on.inject('POST', '/api/credentials', ADMIN_TOKEN, { kind: 'service', name: 'upstream' });
    expect(minted.status).toBe(201);
    expect((await on.inject('GET', '/api/me', minted.body.token)).status).toBe(200);
    await on.stop();
    // The same data dir, restarted with the kind turned off.
    const off = await appWith({ serviceTokens: false }, undefined, on.dir);
    try {
      expect(
        await off.inject('POST', '/api/credentials', ADMIN_TOKEN, { kind: 'service', name: 'upstream' }),
      ).toMatchObject({ status: 403, body: { error: 'service_tokens_disabled' } });
      expect(await off.inject('GET', '/api/me', minted.body.token)).toMatchObject({
        status: 401,
        body: { error: 'service_tokens_disabled' },
      });
    } finally {
      await off.close();
    }
  });

  it('BRABO_METRICS_TOKEN puts a token on /metrics; /healthz stays open', async () => {
    const s = await appWith({ metricsToken: 'metrics-token-0123456789abcdef' });
    try {
      expect(await s.app.http.inject({ method: 'GET', url: '/metrics' }).then((r) => r.statusCode)).toBe(401);
      expect(
        await s.app.http
          .inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
          .then((r) => r.statusCode),
      ).toBe(401);
      expect(
        await s.app.http
          .inject({
            method: 'GET',
            url: '/metrics',
            headers: { authorization: 'Bearer metrics-token-0123456789abcdef' },
          })
          .then((r) => r.statusCode),
      ).toBe(200);
      expect((await s.inject('GET', '/healthz', null)).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
