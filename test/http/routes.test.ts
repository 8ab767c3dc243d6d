// Every route of DESIGN "HTTP": auth, envelopes, projects and roots (RN-170), members, permissions,
// agent autonomy, runner tokens, events, containers, handoffs, activation, docs, health, metrics.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEV_TERMINAL_ALLOW_PATTERNS } from '../../src/policy/index.ts';
import { eventsOf, OWNER, proposeTerminal, seedProject, startTestApp, type TestApp } from './helpers.ts';
import { rawSql } from '../support/store-mode.ts';

let t: TestApp;
beforeEach(async () => {
  t = await startTestApp();
});
afterEach(async () => t.close());

describe('auth and envelopes', () => {
  it('every /api route needs a bearer token; health and metrics do not; docs need one too (issue 12)', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token' }, { authorization: 'Basic abc' }]) {
      const r = await t.app.http.inject({ method: 'GET', url: '/api/containers', headers });
      expect(r.statusCode).toBe(401);
      expect(r.json()).toMatchObject({ error: 'unauthorized' });
    }
    expect((await t.app.http.inject({ method: 'POST', url: '/api/projects', payload: {} })).statusCode).toBe(401);
    expect((await t.app.http.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.http.inject({ method: 'GET', url: '/metrics' })).body).toContain(
      'brabo_http_request_duration_seconds',
    );
    expect((await t.app.http.inject({ method: 'GET', url: '/docs/json' })).statusCode).toBe(401);
    const docs = await t.app.http.inject({
      method: 'GET',
      url: '/docs/json',
      headers: { authorization: `Bearer ${t.serviceToken}` },
    });
    expect(docs.statusCode).toBe(200);
    expect(Object.keys(docs.json().paths)).toEqual(
      expect.arrayContaining(['/api/projects', '/api/actions/{id}/approve-always', '/api/projects/{id}/events']),
    );
  });

  it('unknown routes, unknown ids and invalid bodies get {error, message}', async () => {
    expect(await t.call('GET', '/api/nothing')).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await t.call('GET', '/api/projects/nope')).toMatchObject({
      status: 404,
      body: { error: 'project_not_found' },
    });
    expect(await t.call('GET', '/api/actions/nope')).toMatchObject({
      status: 404,
      body: { error: 'action_not_found' },
    });
    const bad = await t.call('POST', '/api/projects', { name: '', executionMode: 'cloud', ownerId: OWNER });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_request');
    expect(typeof bad.body.message).toBe('string');
  });
});

describe('projects and roots', () => {
  it('RN-109 container: workspace dir <slug>-<8 chars of id> created under PROJECT_WORKSPACES_ROOT; owner is a member', async () => {
    const r = await t.call('POST', '/api/projects', { name: 'Café Shop!', executionMode: 'container', ownerId: OWNER });
    expect(r.status).toBe(201);
    expect(r.body.workspaceDirName).toBe(`cafe-shop-${r.body.id.slice(0, 8)}`);
    expect(r.body.root).toBe(join(t.config.projectWorkspacesRoot, r.body.workspaceDirName));
    expect(statSync(r.body.root).isDirectory()).toBe(true);
    expect((await t.call('GET', `/api/projects/${r.body.id}`)).body).toEqual(r.body);
    expect((await t.call('GET', `/api/projects/${r.body.id}/members`)).body.members).toEqual([
      expect.objectContaining({ memberId: OWNER, role: 'owner', kind: 'human' }),
    ]);
  });

  it('mounted: root under BRABO_PROJECTS_BASE, NOT created at creation (RN-501); outside the base is refused', async () => {
    const r = await t.call('POST', '/api/projects', {
      name: 'M',
      executionMode: 'mounted',
      ownerId: OWNER,
      root: 'team/m',
    });
    expect(r.status).toBe(201);
    expect(r.body.root).toBe(join(t.config.projectsBase, 'team/m'));
    expect(existsSync(r.body.root)).toBe(false);
    const absolute = await t.call('POST', '/api/projects', {
      name: 'M',
      executionMode: 'mounted',
      ownerId: OWNER,
      root: join(t.config.projectsBase, 'x'),
    });
    expect(absolute.body.workspaceDirName).toBe('x');
    for (const root of ['../escape', '/etc', 'a/../../b']) {
      const refused = await t.call('POST', '/api/projects', {
        name: 'M',
        executionMode: 'mounted',
        ownerId: OWNER,
        root,
      });
      expect(refused).toMatchObject({ status: 400, body: { error: 'root_outside_projects_base' } });
    }
  });

  it('RN-170: runner roots are validated (absolute, no .., not a system root, not the gateway checkout, exists, writable)', async () => {
    const good = join(t.dir, 'my-repo');
    mkdirSync(good);
    mkdirSync(join(t.config.gatewayCheckout, 'inner'), { recursive: true });
    const cases: Array<[string | undefined, string]> = [
      [undefined, 'root_required'],
      ['relative/path', 'root_not_absolute'],
      [`${good}/../x`, 'root_has_dotdot'],
      ['/', 'root_is_system_root'],
      ['/usr/bin', 'root_is_system_root'],
      [join(t.config.gatewayCheckout, 'inner'), 'root_overlaps_gateway'],
      [join(t.dir, 'missing'), 'root_not_found'],
    ];
    for (const [root, code] of cases) {
      const r = await t.call('POST', '/api/projects', {
        name: 'R',
        executionMode: 'runner',
        ownerId: OWNER,
        ...(root ? { root } : {}),
      });
      expect({ root, status: r.status, error: r.body.error }).toEqual({ root, status: 400, error: code });
    }
    const ok = await t.call('POST', '/api/projects', {
      name: 'R',
      executionMode: 'runner',
      ownerId: OWNER,
      root: `${good}/`,
    });
    expect(ok.status).toBe(201);
    expect(ok.body.root).toBe(good);
  });

  it('a runner root tampered with in the database is re-validated and never becomes a scope', async () => {
    const good = join(t.dir, 'repo');
    mkdirSync(good);
    const p = await t.call('POST', '/api/projects', { name: 'R', executionMode: 'runner', ownerId: OWNER, root: good });
    await t.call('PUT', `/api/projects/${p.body.id}/members/a`, { role: 'developer', kind: 'agent' });
    await rawSql(t.config, 'UPDATE projects SET root = ? WHERE id = ?', ['/', p.body.id]);
    const r = await t.call('POST', `/api/projects/${p.body.id}/actions`, {
      agentId: 'a',
      actionType: 'terminal',
      payload: { command: 'ls', cwd: '/' },
    });
    expect(r).toMatchObject({ status: 409, body: { error: 'project_root_invalid' } });
  });
});

describe('permissions.json through the API', () => {
  it("PUT validates with the engine's named errors and writes nothing on error; GET reads the file", async () => {
    const { id, root } = await seedProject(t);
    expect((await t.call('GET', `/api/projects/${id}/permissions`)).body).toMatchObject({
      exists: false,
      broken: false,
      permissions: { allow: [], deny: [], ask: [] },
    });
    const bad = await t.call('PUT', `/api/projects/${id}/permissions`, { userId: 'max', allow: ['Termnal(ls)'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('permissions_invalid');
    expect(bad.body.message).toContain('Termnal');
    expect(existsSync(join(root, 'permissions.json'))).toBe(false);
    const good = await t.call('PUT', `/api/projects/${id}/permissions`, {
      userId: 'max',
      allow: ['Terminal(ls)'],
      ask: ['GitPush()'],
    });
    expect(good.body.permissions).toEqual({ allow: ['Terminal(ls)'], deny: [], ask: ['GitPush()'] });
    expect(JSON.parse(readFileSync(join(root, 'permissions.json'), 'utf8'))).toEqual({
      allow: ['Terminal(ls)'],
      deny: [],
      ask: ['GitPush()'],
    });
    expect((await t.call('PUT', `/api/projects/${id}/permissions`, { userId: 'dev', allow: [] })).status).toBe(403);
  });

  it('a corrupt file on disk: decisions fall back to no-allow with the error visible, never a crash', async () => {
    const { id, root } = await seedProject(t);
    writeFileSync(
      join(root, 'permissions.json'),
      '{"allow": ["Terminal(ls)"], "deny": ["Terminal(curl:*)"], "ask": [42]}',
    );
    const view = await t.call('GET', `/api/projects/${id}/permissions`);
    expect(view.body).toMatchObject({
      broken: true,
      exists: true,
      permissions: { allow: [], deny: ['Terminal(curl:*)'] },
    });
    expect(view.body.problem.code).toBe('permissions_invalid');
    const ls = await proposeTerminal(t, id, root, 'ls');
    expect(ls.body).toMatchObject({ status: 'pending', permissionsProblem: { code: 'permissions_invalid' } });
    expect((await proposeTerminal(t, id, root, 'curl x')).body.status).toBe('denied');
    writeFileSync(join(root, 'permissions.json'), 'not json at all');
    const garbage = await proposeTerminal(t, id, root, 'ls');
    expect(garbage.body).toMatchObject({ status: 'pending', permissionsProblem: { code: 'permissions_invalid_json' } });
    expect((await t.call('GET', '/healthz')).status).toBe(200);
  });
});

describe('agent autonomy', () => {
  it('maintainer only; the wildcard is auto mode (lifts the path scope, RN-603); "manual" rewrites it as require_approval', async () => {
    const { id, root } = await seedProject(t);
    const body = { userId: 'dev', agentId: 'agent-dev', actionType: '*', mode: 'auto_approve' };
    expect((await t.call('PUT', `/api/projects/${id}/agent-autonomy`, body)).status).toBe(403);
    const set = await t.call('PUT', `/api/projects/${id}/agent-autonomy`, { ...body, userId: 'max' });
    expect(set.body).toMatchObject({ actionType: '*', mode: 'auto_approve', updatedBy: 'max' });
    const outside = await proposeTerminal(t, id, root, 'cat /etc/hostname');
    expect(outside.body).toMatchObject({ status: 'auto_approved', reason: 'agent_autonomy: auto_approve' });
    await t.call('PUT', `/api/projects/${id}/agent-autonomy`, {
      ...body,
      userId: 'max',
      actionType: 'terminal',
      mode: 'deny',
    });
    expect((await proposeTerminal(t, id, root, 'ls')).body.status).toBe('denied');
    expect(
      (
        await t.call('POST', `/api/projects/${id}/actions`, {
          agentId: 'agent-dev',
          actionType: 'git_commit',
          payload: {},
        })
      ).body.status,
    ).toBe('auto_approved');
    await t.call('PUT', `/api/projects/${id}/agent-autonomy`, { ...body, userId: 'max', mode: 'manual' });
    const rules = (await t.call('GET', `/api/projects/${id}/agent-autonomy`)).body.rules;
    expect(rules.find((r: { actionType: string }) => r.actionType === '*').mode).toBe('require_approval');
    expect(
      (
        await t.call('POST', `/api/projects/${id}/actions`, {
          agentId: 'agent-dev',
          actionType: 'git_commit',
          payload: {},
        })
      ).body.status,
    ).toBe('pending');
    const changes = (await eventsOf(t, id)).filter((e) => e.type === 'agent_autonomy.changed');
    expect(changes.map((e) => e.actorId)).toEqual(['max', 'max', 'max']);
  });
});

describe('runner tokens', () => {
  it('issues a project-scoped token (32 random bytes, base64url), verifiable by the gateway, revocable', async () => {
    const { id } = await seedProject(t);
    const r = await t.call('POST', `/api/projects/${id}/runner-tokens`);
    expect(r.status).toBe(201);
    expect(r.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await t.app.store.runnerTokens.verify(r.body.token)).toEqual({ projectId: id, tokenId: r.body.tokenId });
    const other = await seedProject(t);
    expect((await t.call('DELETE', `/api/projects/${other.id}/runner-tokens/${r.body.tokenId}`)).status).toBe(404);
    expect((await t.call('DELETE', `/api/projects/${id}/runner-tokens/${r.body.tokenId}`)).status).toBe(204);
    expect(await t.app.store.runnerTokens.verify(r.body.token)).toBeNull();
    expect((await t.call('POST', '/api/projects/nope/runner-tokens')).status).toBe(404);
  });
});

describe('events', () => {
  it('reads the log with a cursor', async () => {
    const { id, root } = await seedProject(t);
    await proposeTerminal(t, id, root, 'make a');
    const page1 = await t.call('GET', `/api/projects/${id}/events?limit=2`);
    expect(page1.body.events).toHaveLength(2);
    const page2 = await t.call('GET', `/api/projects/${id}/events?after=${page1.body.cursor}&limit=1000`);
    const all = await eventsOf(t, id);
    expect([...page1.body.events, ...page2.body.events]).toEqual(all);
    const end = await t.call('GET', `/api/projects/${id}/events?after=${page2.body.cursor}`);
    expect(end.body).toEqual({ events: [], cursor: page2.body.cursor });
  });
});

describe('containers and handoffs', () => {
  it('stop/remove are proposed by the clicking human; remove is never auto-approved', async () => {
    const { id } = await seedProject(t);
    expect((await t.call('POST', `/api/containers/${id}/stop`, { userId: 'max' })).body.error).toBe(
      'container_not_found',
    );
    await t.app.store.transaction((tx) => tx.containers.setState(id, 'running', 'c1', new Date().toISOString()));
    expect((await t.call('GET', '/api/containers')).body.containers).toEqual([
      expect.objectContaining({ projectId: id, projectName: 'Shop API', state: 'running' }),
    ]);
    // A person's proposals follow permissions.json (agent autonomy is for agents only).
    await t.call('PUT', `/api/projects/${id}/permissions`, {
      userId: 'max',
      allow: ['ContainerStop()', 'ContainerRemove()'],
    });
    const stop = await t.call('POST', `/api/containers/${id}/stop`, { userId: 'max' });
    expect(stop.body.status).toBe('auto_approved');
    const remove = await t.call('POST', `/api/containers/${id}/remove`, { userId: 'max' });
    expect(remove.body).toMatchObject({ status: 'pending' });
    const created = (await eventsOf(t, id)).filter((e) => e.type === 'proposed_action.created');
    expect(created.map((e) => [e.actorKind, e.actorId])).toEqual([
      ['user', 'max'],
      ['user', 'max'],
    ]);
    expect((await t.call('POST', `/api/containers/${id}/stop`, { userId: 'dev' })).body.status).toBe('denied');
  });

  it('RN-671: without the infra agent the accept is 409 infra_agent_missing and writes nothing', async () => {
    const { id } = await seedProject(t);
    const r = await t.call('POST', `/api/projects/${id}/handoffs/infra/accept`, { userId: 'max' });
    expect(r).toMatchObject({ status: 409, body: { error: 'infra_agent_missing' } });
    expect(r.body.message).toContain(`PUT /api/projects/${id}/members/infra`);
    expect((await t.call('GET', `/api/projects/${id}/agent-autonomy`)).body.rules).toEqual([]);
    expect((await eventsOf(t, id)).filter((e) => e.type === 'handoff.accepted')).toEqual([]);
  });

  it('RN-671: accepting the infra handoff pre-seeds container_start auto_approve and proposes a start with every field omitted', async () => {
    const { id } = await seedProject(t);
    await t.call('PUT', `/api/projects/${id}/members/infra`, { role: 'maintainer', kind: 'agent' });
    expect((await t.call('POST', `/api/projects/${id}/handoffs/infra/accept`, { userId: 'dev' })).status).toBe(403);
    const r = await t.call('POST', `/api/projects/${id}/handoffs/infra/accept`, { userId: 'max' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'auto_approved', reason: 'agent_autonomy: auto_approve' });
    const action = (await t.call('GET', `/api/actions/${r.body.id}`)).body;
    expect(action).toMatchObject({
      actionType: 'container_start',
      payload: {},
      proposerId: 'infra',
      execution: { status: 'queued' },
    });
    expect((await t.call('GET', `/api/projects/${id}/members`)).body.members).toContainEqual(
      expect.objectContaining({ memberId: 'infra', kind: 'agent', role: 'maintainer' }),
    );
    const rules = (await t.call('GET', `/api/projects/${id}/agent-autonomy`)).body.rules;
    expect(rules).toEqual([
      expect.objectContaining({ agentId: 'infra', actionType: 'container_start', mode: 'auto_approve' }),
    ]);
  });
});

describe('activation of execution', () => {
  it('pre-seeds DEV_TERMINAL_ALLOW_PATTERNS into allow and git_commit auto_approve for each dev-<module>', async () => {
    const { id, root } = await seedProject(t, { moduleMap: { api: {}, web: {} } });
    await t.call('PUT', `/api/projects/${id}/permissions`, {
      userId: 'max',
      allow: ['Terminal(make build)'],
      deny: ['Terminal(curl:*)'],
    });
    expect((await t.call('POST', `/api/projects/${id}/activate-execution`, { userId: 'dev' })).status).toBe(403);
    const r = await t.call('POST', `/api/projects/${id}/activate-execution`, { userId: 'max' });
    expect(r.body.devAgents).toEqual(['dev-api', 'dev-web']);
    const file = JSON.parse(readFileSync(join(root, 'permissions.json'), 'utf8'));
    expect(file.allow).toEqual(['Terminal(make build)', ...DEV_TERMINAL_ALLOW_PATTERNS]);
    expect(file.deny).toEqual(['Terminal(curl:*)']);
    const commit = await t.call('POST', `/api/projects/${id}/actions`, {
      agentId: 'dev-api',
      actionType: 'git_commit',
      payload: {},
    });
    expect(commit.body.status).toBe('auto_approved');
    const push = await t.call('POST', `/api/projects/${id}/actions`, {
      agentId: 'dev-api',
      actionType: 'git_push',
      payload: {},
    });
    expect(push.body.status).not.toBe('auto_approved');
    expect((await proposeTerminal(t, id, root, 'git branch -D main', 'dev-api')).body.status).toBe('pending');
    expect((await proposeTerminal(t, id, root, 'git status', 'dev-api')).body.status).toBe('auto_approved');
    const again = await t.call('POST', `/api/projects/${id}/activate-execution`, { userId: 'max' });
    expect(again.body.patternsAdded).toEqual([]);
  });
});

describe('roles matrix', () => {
  // MIN_ROLE: developer for terminal/git_commit/write_file, maintainer for most, owner for spend.
  const matrix: Array<[string, 'developer' | 'maintainer' | 'owner']> = [
    ['terminal', 'developer'],
    ['write_file', 'developer'],
    ['git_branch_create', 'maintainer'],
    ['container_start', 'maintainer'],
    ['spend', 'owner'],
  ];
  const rank = { developer: 0, maintainer: 1, owner: 2 };

  it.each(matrix)(
    '%s: approving needs %s or above (403 otherwise, action stays pending)',
    async (actionType, minimum) => {
      const { id, root } = await seedProject(t);
      await t.call('PUT', `/api/projects/${id}/members/agent-owner`, { role: 'owner', kind: 'agent' });
      for (const [user, role] of [
        ['dev', 'developer'],
        ['max', 'maintainer'],
        [OWNER, 'owner'],
      ] as const) {
        const payload = actionType === 'terminal' ? { command: 'make build', cwd: root } : {};
        const p = await t.call('POST', `/api/projects/${id}/actions`, { agentId: 'agent-owner', actionType, payload });
        expect(p.body.status).toBe('pending');
        const r = await t.call('POST', `/api/actions/${p.body.id}/approve`, { userId: user });
        const allowed = rank[role] >= rank[minimum];
        expect({ user, status: r.status }).toEqual({ user, status: allowed ? 200 : 403 });
        if (!allowed) {
          expect(r.body.error).toBe('role_below_minimum');
          expect((await t.call('GET', `/api/actions/${p.body.id}`)).body.status).toBe('pending');
        }
      }
      expect(
        (
          await t.call('POST', `/api/actions/${(await proposeTerminal(t, id, root, 'make x')).body.id}/approve`, {
            userId: 'stranger',
          })
        ).body.error,
      ).toBe('not_a_member');
    },
  );
});
