// RN-495 on every route: container_stop and container_remove are "always proposed by a human,
// never by an agent". The containers page refuses agents; the generic actions route must too,
// whatever the agent's role, autonomy or permissions.json say, and write nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventsOf, seedProject, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let id: string;

beforeEach(async () => {
  t = await startTestApp();
  ({ id } = await seedProject(t));
  await t.call('PUT', `/api/projects/${id}/members/agent-owner`, { role: 'owner', kind: 'agent' });
  await t.app.store.transaction((tx) => tx.containers.setState(id, 'running', 'c1', new Date().toISOString()));
});
afterEach(async () => t.close());

type Setup = (agentId: string, actionType: string) => Promise<unknown>;
const nothing: Setup = async () => undefined;
const autoMode: Setup = (agentId) =>
  t.call('PUT', `/api/projects/${id}/agent-autonomy`, {
    userId: 'olivia',
    agentId,
    actionType: '*',
    mode: 'auto_approve',
  });
const specificAuto: Setup = (agentId, actionType) =>
  t.call('PUT', `/api/projects/${id}/agent-autonomy`, { userId: 'olivia', agentId, actionType, mode: 'auto_approve' });
const allowLabel: Setup = (_agentId, actionType) =>
  t.call('PUT', `/api/projects/${id}/permissions`, {
    userId: 'olivia',
    allow: [actionType === 'container_stop' ? 'ContainerStop()' : 'ContainerRemove()'],
    deny: [],
    ask: [],
  });

const VARIANTS: Array<[string, string, Setup, Record<string, unknown>]> = [
  ['a developer agent', 'agent-dev', nothing, {}],
  ['a maintainer agent', 'agent-lead', nothing, {}],
  ['an owner agent', 'agent-owner', nothing, {}],
  ['a maintainer agent in auto mode', 'agent-lead', autoMode, {}],
  ['an owner agent in auto mode', 'agent-owner', autoMode, {}],
  ['a maintainer agent with the type auto-approved', 'agent-lead', specificAuto, {}],
  ['a maintainer agent with Label() in allow', 'agent-lead', allowLabel, {}],
  ['a maintainer agent naming a container id', 'agent-lead', nothing, { containerId: 'c1' }],
  ['a maintainer agent claiming to be a human in the payload', 'agent-lead', nothing, { proposerKind: 'human' }],
  ['a maintainer agent naming a user in the payload', 'agent-lead', nothing, { userId: 'olivia' }],
  ['a developer agent in auto mode', 'agent-dev', autoMode, {}],
];
const CASES = ['container_stop', 'container_remove'].flatMap((type) =>
  VARIANTS.map(([who, agentId, setup, payload]) => [type, who, agentId, setup, payload] as const),
);

describe('RN-495 agents never propose container_stop or container_remove, on any route', () => {
  it.each(CASES)(
    'RN-495 %s by %s on POST /actions is 403 agent_cannot_propose and writes nothing',
    async (actionType, _who, agentId, setup, payload) => {
      await setup(agentId, actionType);
      const before = (await eventsOf(t, id)).length;
      const r = await t.call('POST', `/api/projects/${id}/actions`, { agentId, actionType, payload });
      expect(r).toMatchObject({ status: 403, body: { error: 'agent_cannot_propose' } });
      expect(r.body.message).toContain('RN-495');
      expect(r.body.message).toContain(`POST /api/containers/${id}/`);
      expect((await eventsOf(t, id)).length).toBe(before);
      expect((await t.call('GET', `/api/projects/${id}/actions?status=pending`)).body.actions).toEqual([]);
    },
  );

  it.each(['container_stop', 'container_remove'])(
    'RN-495 a human member still proposes %s on POST /actions, as the human',
    async (actionType) => {
      const r = await t.call('POST', `/api/projects/${id}/actions`, { agentId: 'max', actionType, payload: {} });
      expect(r.status).toBe(201);
      const created = (await eventsOf(t, id)).filter((e) => e.type === 'proposed_action.created');
      expect(created.map((e) => [e.actorKind, e.actorId])).toEqual([['user', 'max']]);
    },
  );

  it('RN-495 an agent still proposes container_start (only stop and remove are human-only)', async () => {
    const r = await t.call('POST', `/api/projects/${id}/actions`, {
      agentId: 'agent-lead',
      actionType: 'container_start',
      payload: {},
    });
    expect(r.status).toBe(201);
  });
});
