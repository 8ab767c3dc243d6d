// Concurrent clicks: exactly one winner, no duplicate events.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventsOf, proposeTerminal, seedProject, startTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
let project: { id: string; root: string };

beforeEach(async () => {
  t = await startTestApp();
  project = await seedProject(t);
});
afterEach(async () => t.close());

const count = async (type: string) => (await eventsOf(t, project.id)).filter((e) => e.type === type).length;

describe('concurrency', () => {
  it('two approve-always clicks at once: one aprovada, one ja_aprovada; one approval, one grant, one pattern', async () => {
    for (let round = 0; round < 5; round++) {
      const r = await proposeTerminal(t, project.id, project.root, `make target${round}`);
      const results = await Promise.all([
        t.call('POST', `/api/actions/${r.body.id}/approve-always`, { userId: 'max' }),
        t.call('POST', `/api/actions/${r.body.id}/approve-always`, { userId: 'olivia' }),
      ]);
      expect(results.map((x) => x.status)).toEqual([200, 200]);
      expect(results.map((x) => x.body.desfecho).sort()).toEqual(['aprovada', 'ja_aprovada']);
    }
    expect(await count('proposed_action.approved')).toBe(5);
    expect(await count('permission.granted')).toBe(5);
    const allow: string[] = JSON.parse(readFileSync(`${project.root}/permissions.json`, 'utf8')).allow;
    expect(allow).toHaveLength(5);
    expect(new Set(allow).size).toBe(5);
  });

  it('approve racing deny: exactly one wins, the other gets 409, one decision event', async () => {
    for (let round = 0; round < 6; round++) {
      const r = await proposeTerminal(t, project.id, project.root, 'make build');
      const calls = [
        t.call('POST', `/api/actions/${r.body.id}/approve`, { userId: 'max' }),
        t.call('POST', `/api/actions/${r.body.id}/deny`, { userId: 'olivia', reason: 'no' }),
      ];
      const [approve, deny] =
        round % 2 === 0 ? await Promise.all(calls) : (await Promise.all(calls.reverse())).reverse();
      const winners = [approve, deny].filter((x) => x?.status === 200);
      expect(winners).toHaveLength(1);
      const loser = [approve, deny].find((x) => x?.status !== 200);
      expect(loser?.status).toBe(409);
      expect(['acao_ja_recusada', 'acao_ja_aprovada']).toContain(loser?.body.error);
      const final = (await t.call('GET', `/api/actions/${r.body.id}`)).body.status;
      const decisions = (await eventsOf(t, project.id)).filter(
        (e) =>
          e.actionId === r.body.id && (e.type === 'proposed_action.approved' || e.type === 'proposed_action.denied'),
      );
      expect(decisions).toHaveLength(1);
      expect(decisions[0]?.type).toBe(final === 'approved' ? 'proposed_action.approved' : 'proposed_action.denied');
    }
  });

  it('two merges of one PR at once: one proposal, the other 409 merge_ja_proposto', async () => {
    const merge = () =>
      t.call('POST', `/api/projects/${project.id}/actions`, {
        agentId: 'agent-lead',
        actionType: 'git_merge',
        payload: { branch: 'feat', prNumber: 42 },
      });
    const results = await Promise.all([merge(), merge(), merge()]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error === 'merge_ja_proposto')).toBe(true);
    expect(await count('proposed_action.created')).toBe(1);
  });

  it('two approvals of one pending merge at once: one hand-off, one event', async () => {
    const m = await t.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-lead',
      actionType: 'git_merge',
      payload: { branch: 'feat', prNumber: 5 },
    });
    const results = await Promise.all([
      t.call('POST', `/api/actions/${m.body.id}/approve`, { userId: 'max' }),
      t.call('POST', `/api/actions/${m.body.id}/approve`, { userId: 'olivia' }),
    ]);
    expect(results.map((r) => r.body.desfecho).sort()).toEqual(['aprovada', 'ja_aprovada']);
    expect(await count('proposed_action.approved')).toBe(1);
  });
});
