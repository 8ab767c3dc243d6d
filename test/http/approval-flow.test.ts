// The approval flow through HTTP: proposals decided and recorded, approvals by role, events with
// the real actor (RN-049, RN-567, RN-609).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventsOf, proposeTerminal, seedProject, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let project: { id: string; root: string };

beforeEach(async () => {
  t = await startTestApp();
  project = await seedProject(t);
});
afterEach(async () => t.close());

const setPermissions = (perms: object) =>
  t.call('PUT', `/api/projects/${project.id}/permissions`, { userId: 'max', ...perms });

describe('propose', () => {
  it('no rule: the action stays pending (absence of a rule is never permission)', async () => {
    const r = await proposeTerminal(t, project.id, project.root, 'make build');
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'pending', reasonCode: 'default_require_approval' });
    const listed = await t.call('GET', `/api/projects/${project.id}/actions?status=pending`);
    expect(listed.body.actions.map((a: { id: string }) => a.id)).toEqual([r.body.id]);
  });

  it('RN-567/RN-609: proposed_action.created carries status, the decide() reason and a relative scopeRoot, with the agent as actor', async () => {
    await setPermissions({ allow: ['Terminal(ls)'] });
    const r = await proposeTerminal(t, project.id, project.root, 'ls');
    expect(r.body.status).toBe('auto_approved');
    expect(r.body.reason).toContain('Terminal(ls)');
    const created = (await eventsOf(t, project.id)).filter((e) => e.type === 'proposed_action.created');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ actorKind: 'agent', actorId: 'agent-dev', actionId: r.body.id });
    expect(created[0]?.payload).toMatchObject({
      status: 'auto_approved',
      reason: r.body.reason,
      reasonCode: 'permissions_allow',
    });
    const scopeRoot: string = created[0]?.payload.scopeRoot;
    expect(scopeRoot).toMatch(/^container:shop-api-[0-9a-f]{8}$/);
    expect(scopeRoot.startsWith('/')).toBe(false);
    expect(JSON.stringify(await eventsOf(t, project.id))).not.toContain(t.dir);
  });

  it('auto_approve: decided_by stays NULL and the hand-off is queued before the response', async () => {
    await setPermissions({ allow: ['Terminal(ls)'] });
    const notified: string[] = [];
    t.app.handoffs.subscribe((id) => notified.push(id));
    const r = await proposeTerminal(t, project.id, project.root, 'ls');
    expect(notified).toEqual([r.body.id]);
    const got = await t.call('GET', `/api/actions/${r.body.id}`);
    expect(got.body).toMatchObject({ status: 'auto_approved', decidedBy: null, execution: { status: 'queued' } });
    expect((await eventsOf(t, project.id)).some((e) => e.type === 'proposed_action.approved')).toBe(false);
  });

  it('deny in permissions.json is final: approve is 409 acao_ja_recusada', async () => {
    await setPermissions({ deny: ['Terminal(curl:*)'] });
    const r = await proposeTerminal(t, project.id, project.root, 'curl -s https://example.com');
    expect(r.body).toMatchObject({ status: 'denied', reasonCode: 'permissions_deny' });
    const approve = await t.call('POST', `/api/actions/${r.body.id}/approve`, { userId: 'olivia' });
    expect(approve.status).toBe(409);
    expect(approve.body).toMatchObject({ error: 'acao_ja_recusada', reason: 'acao_ja_recusada' });
    expect((await t.call('GET', `/api/actions/${r.body.id}`)).body.status).toBe('denied');
  });

  it('IAM: a developer agent proposing git_push is denied (the file never grants what IAM denies)', async () => {
    await setPermissions({ allow: ['GitPush()'] });
    const r = await t.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'git_push',
      payload: {},
    });
    expect(r.body).toMatchObject({ status: 'denied', reasonCode: 'iam_role_below_minimum' });
  });

  it('container floor: terminal in a running container starts from auto_approve (RN-492)', async () => {
    await t.app.store.transaction((tx) =>
      tx.containers.setState(project.id, 'running', 'c1', new Date().toISOString()),
    );
    const r = await proposeTerminal(t, project.id, project.root, 'make build');
    expect(r.body).toMatchObject({ status: 'auto_approved', reasonCode: 'container_floor' });
    await setPermissions({ ask: ['Terminal(make)'] });
    const asked = await proposeTerminal(t, project.id, project.root, 'make build');
    expect(asked.body).toMatchObject({ status: 'pending', reasonCode: 'permissions_ask' });
  });

  it('a proposal from someone who is not a member is refused and stores nothing', async () => {
    const r = await proposeTerminal(t, project.id, project.root, 'ls', 'stranger');
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('not_a_member');
    expect((await t.call('GET', `/api/projects/${project.id}/actions`)).body.actions).toEqual([]);
  });

  it('a hand edit of permissions.json takes effect on the next decision', async () => {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      `${project.root}/permissions.json`,
      JSON.stringify({ allow: ['Terminal(make build)'], deny: [], ask: [] }),
    );
    expect((await proposeTerminal(t, project.id, project.root, 'make build')).body.status).toBe('auto_approved');
  });
});

describe('approve and deny', () => {
  it('approve by a maintainer: proposed_action.approved with the real user, decided_by set, hand-off queued', async () => {
    const r = await proposeTerminal(t, project.id, project.root, 'make build');
    const approved = await t.call('POST', `/api/actions/${r.body.id}/approve`, { userId: 'max' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ desfecho: 'aprovada', action: { status: 'approved', decidedBy: 'max' } });
    const events = (await eventsOf(t, project.id)).filter((e) => e.type === 'proposed_action.approved');
    expect(events).toEqual([expect.objectContaining({ actorKind: 'user', actorId: 'max', actionId: r.body.id })]);
    expect((await t.call('GET', `/api/actions/${r.body.id}`)).body.execution.status).toBe('queued');
  });

  it('a second approve is an idempotent success without a second event', async () => {
    const r = await proposeTerminal(t, project.id, project.root, 'make build');
    await t.call('POST', `/api/actions/${r.body.id}/approve`, { userId: 'max' });
    const again = await t.call('POST', `/api/actions/${r.body.id}/approve`, { userId: 'olivia' });
    expect(again.body.desfecho).toBe('ja_aprovada');
    expect((await eventsOf(t, project.id)).filter((e) => e.type === 'proposed_action.approved')).toHaveLength(1);
  });

  it('deny records the human reason; a denied action cannot be approved; an approved one cannot be denied', async () => {
    const r = await proposeTerminal(t, project.id, project.root, 'make build');
    const denied = await t.call('POST', `/api/actions/${r.body.id}/deny`, { userId: 'dev', reason: 'not now' });
    expect(denied.body).toMatchObject({
      desfecho: 'recusada',
      action: { status: 'denied', decidedBy: 'dev', denialReason: 'not now' },
    });
    const events = (await eventsOf(t, project.id)).filter((e) => e.type === 'proposed_action.denied');
    expect(events).toEqual([
      expect.objectContaining({ actorId: 'dev', payload: expect.objectContaining({ reason: 'not now' }) }),
    ]);
    expect((await t.call('POST', `/api/actions/${r.body.id}/approve`, { userId: 'max' })).status).toBe(409);

    const other = await proposeTerminal(t, project.id, project.root, 'make build');
    await t.call('POST', `/api/actions/${other.body.id}/approve`, { userId: 'max' });
    const late = await t.call('POST', `/api/actions/${other.body.id}/deny`, { userId: 'max', reason: 'x' });
    expect(late).toMatchObject({ status: 409, body: { error: 'acao_ja_aprovada' } });
  });

  it('deny without a reason is a 400 and changes nothing', async () => {
    const r = await proposeTerminal(t, project.id, project.root, 'make build');
    const bad = await t.call('POST', `/api/actions/${r.body.id}/deny`, { userId: 'max', reason: '  ' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_request');
    expect((await t.call('GET', `/api/actions/${r.body.id}`)).body.status).toBe('pending');
  });
});

describe('RN-049: human approvals and policy approvals are told apart by the event log', () => {
  it('counts proposed_action.approved (humans) separately from created/auto_approved by an agent (policy)', async () => {
    await setPermissions({ allow: ['Terminal(ls)'] });
    await proposeTerminal(t, project.id, project.root, 'ls');
    await proposeTerminal(t, project.id, project.root, 'ls -la');
    const pending = await proposeTerminal(t, project.id, project.root, 'make build');
    await t.call('POST', `/api/actions/${pending.body.id}/approve`, { userId: 'max' });
    const alwaysPending = await proposeTerminal(t, project.id, project.root, 'npm test');
    await t.call('POST', `/api/actions/${alwaysPending.body.id}/approve-always`, { userId: 'max' });

    const events = await eventsOf(t, project.id);
    const human = events.filter((e) => e.type === 'proposed_action.approved');
    const policy = events.filter(
      (e) => e.type === 'proposed_action.created' && e.payload.status === 'auto_approved' && e.actorKind === 'agent',
    );
    expect(human.map((e) => e.actionId)).toEqual([pending.body.id, alwaysPending.body.id]);
    expect(policy).toHaveLength(2);
    expect(new Set(policy.map((e) => e.actionId)).size).toBe(2);
    for (const e of human) expect(e.actorKind).toBe('user');

    const metrics = await t.app.http.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/brabo_decisions_total\{by="human",outcome="approved"\} 2/);
    expect(metrics.body).toMatch(/brabo_decisions_total\{by="policy",outcome="approved"\} 2/);
    expect(metrics.body).toContain(
      'brabo_proposals_total{action_type="terminal",status="auto_approved",reason_code="permissions_allow"} 2',
    );
  });
});
