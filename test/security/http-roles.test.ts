// Adversarial: who may decide. Agents propose and never decide; a member of another project
// reaches nothing here; a member's kind and role cannot be bent by the request body.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventsOf, proposeTerminal, seedProject, startTestApp, type TestApp } from '../http/helpers.ts';

let t: TestApp;
let a: Awaited<ReturnType<typeof seedProject>>;
let b: Awaited<ReturnType<typeof seedProject>>;

beforeEach(async () => {
  t = await startTestApp();
  a = await seedProject(t);
  b = await seedProject(t);
  // The other project's maintainer, who is nobody in project A.
  await t.call('PUT', `/api/projects/${b.id}/members/bea`, { role: 'owner' });
});
afterEach(async () => t.close());

const pendingTerminal = async (command = 'make build') => {
  const r = await proposeTerminal(t, a.id, a.root, command);
  expect(r.body.status).toBe('pending');
  return r.body.id as string;
};
const statusOf = async (actionId: string) => (await t.call('GET', `/api/actions/${actionId}`)).body.status;
const permissionsFile = (root: string) => join(root, 'permissions.json');

describe('an agent never decides (RN: agents are members with kind agent)', () => {
  it('a maintainer-role agent cannot approve, deny or always-allow, even its own proposal', async () => {
    const actionId = await pendingTerminal();
    const own = (
      await t.call('POST', `/api/projects/${a.id}/actions`, {
        agentId: 'agent-lead',
        actionType: 'git_push',
        payload: {},
      })
    ).body.id;
    for (const id of [actionId, own]) {
      for (const [path, body] of [
        ['approve', { userId: 'agent-lead' }],
        ['approve-always', { userId: 'agent-lead' }],
        ['deny', { userId: 'agent-lead', reason: 'no' }],
        ['approve', { userId: 'agent-dev' }],
      ] as const) {
        const r = await t.call('POST', `/api/actions/${id}/${path}`, body);
        expect(r.status, `${path} by ${body.userId}`).toBe(403);
        expect(r.body.error).toBe('agent_cannot_decide');
      }
      expect(await statusOf(id)).toBe('pending');
    }
    expect((await eventsOf(t, a.id)).filter((e) => e.type.startsWith('permission'))).toEqual([]);
  });

  it('an agent cannot rewrite permissions.json, agent autonomy, activate execution or accept a handoff', async () => {
    const calls: Array<[string, string, object]> = [
      [
        'PUT',
        `/api/projects/${a.id}/permissions`,
        { userId: 'agent-lead', allow: ['Terminal(curl)'], deny: [], ask: [] },
      ],
      [
        'PUT',
        `/api/projects/${a.id}/agent-autonomy`,
        { userId: 'agent-lead', agentId: 'agent-lead', actionType: '*', mode: 'auto_approve' },
      ],
      ['POST', `/api/projects/${a.id}/activate-execution`, { userId: 'agent-lead' }],
      ['POST', `/api/projects/${a.id}/handoffs/infra/accept`, { userId: 'agent-lead' }],
      ['POST', `/api/containers/${a.id}/stop`, { userId: 'agent-lead' }],
      ['POST', `/api/containers/${a.id}/remove`, { userId: 'agent-lead' }],
    ];
    for (const [method, url, body] of calls) {
      const r = await t.call(method as 'PUT', url, body);
      expect(r.status, url).toBe(403);
      expect(r.body.error, url).toBe('agent_cannot_decide');
    }
    const permissions = await t.call('GET', `/api/projects/${a.id}/permissions`);
    expect(permissions.body.exists).toBe(false);
    expect((await t.call('GET', `/api/projects/${a.id}/agent-autonomy`)).body.rules).toEqual([]);
    expect((await t.call('GET', `/api/projects/${a.id}`)).body.executionActivatedAt).toBeNull();
    expect((await t.call('GET', `/api/projects/${a.id}/actions`)).body.actions).toEqual([]);
  });

  it('PUT members cannot turn an agent into a human (the kind is fixed), so it still cannot approve', async () => {
    const actionId = await pendingTerminal();
    const flip = await t.call('PUT', `/api/projects/${a.id}/members/agent-lead`, { role: 'owner' });
    const explicit = await t.call('PUT', `/api/projects/${a.id}/members/agent-lead`, { role: 'owner', kind: 'human' });
    expect(explicit.status).toBe(409);
    expect(explicit.body.error).toBe('member_kind_immutable');
    // Omitting kind keeps the member's kind: a role change only.
    expect(flip.status).toBe(200);
    expect(flip.body.kind).toBe('agent');
    const r = await t.call('POST', `/api/actions/${actionId}/approve`, { userId: 'agent-lead' });
    expect(r.status).toBe(403);
    expect(await statusOf(actionId)).toBe('pending');
  });

  it('an acting user named on PUT members must be a human owner: a developer cannot raise their own role', async () => {
    const self = await t.call('PUT', `/api/projects/${a.id}/members/dev`, { role: 'owner', actingUserId: 'dev' });
    expect(self.status).toBe(403);
    const byMaintainer = await t.call('PUT', `/api/projects/${a.id}/members/dev`, {
      role: 'owner',
      actingUserId: 'max',
    });
    expect(byMaintainer.status).toBe(403);
    const byAgent = await t.call('PUT', `/api/projects/${a.id}/members/dev`, {
      role: 'owner',
      actingUserId: 'agent-lead',
    });
    expect(byAgent.status).toBe(403);
    const byOutsider = await t.call('PUT', `/api/projects/${a.id}/members/dev`, { role: 'owner', actingUserId: 'bea' });
    expect(byOutsider.status).toBe(403);
    const members = (await t.call('GET', `/api/projects/${a.id}/members`)).body.members;
    expect(members.find((m: { memberId: string }) => m.memberId === 'dev').role).toBe('developer');
    const byOwner = await t.call('PUT', `/api/projects/${a.id}/members/dev`, {
      role: 'maintainer',
      actingUserId: 'olivia',
    });
    expect(byOwner.status).toBe(200);
    const event = (await eventsOf(t, a.id)).filter((e) => e.type === 'member.role_changed').at(-1);
    expect(event).toMatchObject({ actorKind: 'user', actorId: 'olivia' });
  });
});

describe('roles and projects: IAM of the approver, no reach across projects', () => {
  it('a developer cannot approve an action whose type needs maintainer', async () => {
    const push = (
      await t.call('POST', `/api/projects/${a.id}/actions`, {
        agentId: 'agent-lead',
        actionType: 'git_push',
        payload: {},
      })
    ).body.id;
    const r = await t.call('POST', `/api/actions/${push}/approve`, { userId: 'dev' });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('role_below_minimum');
    expect(await statusOf(push)).toBe('pending');
  });

  it("the owner of project B cannot approve, deny or always-allow project A's action, and no file is written", async () => {
    const actionId = await pendingTerminal('pnpm test');
    writeFileSync(permissionsFile(b.root), JSON.stringify({ allow: [], deny: [], ask: [] }));
    for (const [path, body] of [
      ['approve', { userId: 'bea' }],
      ['approve-always', { userId: 'bea' }],
      ['deny', { userId: 'bea', reason: 'no' }],
    ] as const) {
      const r = await t.call('POST', `/api/actions/${actionId}/${path}`, body);
      expect(r.status, path).toBe(403);
      expect(r.body.error).toBe('not_a_member');
    }
    expect(await statusOf(actionId)).toBe('pending');
    expect(JSON.parse(readFileSync(permissionsFile(b.root), 'utf8')).allow).toEqual([]);
    expect((await t.call('GET', `/api/projects/${a.id}/permissions`)).body.exists).toBe(false);
  });

  it("approve-always writes into the action's own project only", async () => {
    const actionId = await pendingTerminal('pnpm test');
    const r = await t.call('POST', `/api/actions/${actionId}/approve-always`, { userId: 'olivia' });
    expect(r.status).toBe(200);
    expect(r.body.patterns.length).toBeGreaterThan(0);
    expect((await t.call('GET', `/api/projects/${a.id}/permissions`)).body.permissions.allow).toEqual(r.body.patterns);
    expect((await t.call('GET', `/api/projects/${b.id}/permissions`)).body.exists).toBe(false);
  });

  it("a runner token of project A cannot be revoked through project B's URL", async () => {
    const grant = (await t.call('POST', `/api/projects/${a.id}/runner-tokens`)).body;
    const r = await t.call('DELETE', `/api/projects/${b.id}/runner-tokens/${grant.tokenId}`);
    expect(r.status).toBe(404);
    expect(await t.app.store.runnerTokens.verify(grant.token)).toEqual({ projectId: a.id, tokenId: grant.tokenId });
  });

  it("proposing as another project's member (or as nobody) is refused before decide()", async () => {
    const r = await t.call('POST', `/api/projects/${a.id}/actions`, {
      agentId: 'bea',
      actionType: 'terminal',
      payload: { command: 'ls' },
    });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('not_a_member');
  });
});

describe('decisions are final and happen once', () => {
  it('a second approve, an approve after deny and a deny after approve change nothing', async () => {
    const approved = await pendingTerminal();
    expect((await t.call('POST', `/api/actions/${approved}/approve`, { userId: 'max' })).body.desfecho).toBe(
      'aprovada',
    );
    expect((await t.call('POST', `/api/actions/${approved}/approve`, { userId: 'olivia' })).body.desfecho).toBe(
      'ja_aprovada',
    );
    expect((await t.call('POST', `/api/actions/${approved}/approve-always`, { userId: 'olivia' })).body.desfecho).toBe(
      'ja_aprovada',
    );
    const lateDeny = await t.call('POST', `/api/actions/${approved}/deny`, { userId: 'olivia', reason: 'too late' });
    expect(lateDeny.status).toBe(409);

    const denied = await pendingTerminal('make deploy-ish');
    await t.call('POST', `/api/actions/${denied}/deny`, { userId: 'max', reason: 'no' });
    for (const path of ['approve', 'approve-always']) {
      const r = await t.call('POST', `/api/actions/${denied}/${path}`, { userId: 'olivia' });
      expect(r.status, path).toBe(409);
      expect(r.body.error).toBe('acao_ja_recusada');
    }
    expect(await statusOf(denied)).toBe('denied');

    const events = await eventsOf(t, a.id);
    expect(events.filter((e) => e.type === 'proposed_action.approved' && e.actionId === approved)).toHaveLength(1);
    expect(events.filter((e) => e.actionId === denied && e.type === 'proposed_action.approved')).toHaveLength(0);
    // Exactly one hand-off to execution for the approved action, none for the denied one.
    expect((await t.app.store.read.handoffs.getByAction(approved))?.actionId).toBe(approved);
    expect(await t.app.store.read.handoffs.getByAction(denied)).toBeNull();
  });

  it('concurrent approvals of one action: exactly one aprovada', async () => {
    const actionId = await pendingTerminal();
    const results = await Promise.all(
      ['olivia', 'max', 'olivia', 'max'].map((userId) =>
        t.call('POST', `/api/actions/${actionId}/approve`, { userId }),
      ),
    );
    expect(results.filter((r) => r.body.desfecho === 'aprovada')).toHaveLength(1);
    expect(results.every((r) => r.status === 200)).toBe(true);
  });
});
