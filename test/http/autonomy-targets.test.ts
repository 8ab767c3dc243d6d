// Agent autonomy is for agent members (issue 15.7): a rule for a non-member or for a human is
// refused by name and writes nothing (no row, no autonomy.changed event).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventsOf, seedProject, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let id: string;

beforeEach(async () => {
  t = await startTestApp();
  ({ id } = await seedProject(t));
});
afterEach(async () => t.close());

const put = (agentId: string, actionType = '*', mode = 'auto_approve') =>
  t.call('PUT', `/api/projects/${id}/agent-autonomy`, { userId: 'max', agentId, actionType, mode });

describe('agent autonomy targets agent members only', () => {
  it.each([
    ['a stranger', 'stranger', 'autonomy_agent_not_member'],
    ['an agent of no project', 'agent-ghost', 'autonomy_agent_not_member'],
    ['the owner (human)', 'olivia', 'autonomy_agent_is_human'],
    ['a maintainer (human)', 'max', 'autonomy_agent_is_human'],
    ['a developer (human)', 'dev', 'autonomy_agent_is_human'],
  ])('agent_autonomy: %s gets 400 %s and nothing is written', async (_who, agentId, code) => {
    const before = (await eventsOf(t, id)).length;
    for (const [actionType, mode] of [
      ['*', 'auto_approve'],
      ['terminal', 'auto_approve'],
      ['container_stop', 'deny'],
      ['git_commit', 'manual'],
    ] as const) {
      const r = await put(agentId, actionType, mode);
      expect(r).toMatchObject({ status: 400, body: { error: code } });
      expect(r.body.message).toContain('Nothing was written');
    }
    expect((await t.call('GET', `/api/projects/${id}/agent-autonomy`)).body.rules).toEqual([]);
    expect((await eventsOf(t, id)).length).toBe(before);
  });

  it('agent_autonomy: an agent member still gets its rule', async () => {
    const r = await put('agent-dev');
    expect(r.status).toBe(200);
    expect((await t.call('GET', `/api/projects/${id}/agent-autonomy`)).body.rules).toEqual([
      expect.objectContaining({ agentId: 'agent-dev', actionType: '*', mode: 'auto_approve' }),
    ]);
  });
});
