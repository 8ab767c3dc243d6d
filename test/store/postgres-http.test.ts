// The HTTP approval flow once on Postgres: createApp selects the Postgres store from
// `databaseUrl` (DATABASE_URL), and two gateway nodes share one schema.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/store/postgres/store.ts';
import { eventsOf, proposeTerminal, seedProject, startTestApp, type TestApp } from '../http/helpers.ts';
import { TestSchemas } from './contract-postgres.ts';

const schemas = new TestSchemas();
afterAll(() => schemas.dropAll());

let nodeA: TestApp;
let nodeB: TestApp;
let schema: { name: string; url: string };

beforeEach(async () => {
  schema = await schemas.create();
  [nodeA, nodeB] = await Promise.all([
    startTestApp({ databaseUrl: schema.url }),
    startTestApp({ databaseUrl: schema.url }),
  ]);
});
afterEach(async () => {
  await Promise.all([nodeA.close(), nodeB.close()]);
  await schemas.drop(schema.name);
});

describe('HTTP approval flow on Postgres, two nodes', () => {
  it('a proposal on one node is approved on the other; the event log and the hand-off are shared', async () => {
    expect(nodeA.app.store).toBeInstanceOf(PostgresStore);
    const project = await seedProject(nodeA);
    const proposed = await proposeTerminal(nodeA, project.id, project.root, 'make build');
    expect(proposed.body).toMatchObject({ status: 'pending', reasonCode: 'default_require_approval' });
    expect(
      (await nodeB.call('GET', `/api/projects/${project.id}/actions?status=pending`)).body.actions.map(
        (a: { id: string }) => a.id,
      ),
    ).toEqual([proposed.body.id]);

    const approved = await nodeB.call('POST', `/api/actions/${proposed.body.id}/approve`, { userId: 'max' });
    expect(approved.status).toBe(200);
    expect(approved.body.desfecho).toBe('aprovada');
    const seen = await nodeA.call('GET', `/api/actions/${proposed.body.id}`);
    expect(seen.body).toMatchObject({ status: 'approved', decidedBy: 'max', execution: { status: 'queued' } });
    const events = await eventsOf(nodeA, project.id);
    expect(events.filter((e) => e.actionId === proposed.body.id).map((e) => [e.type, e.actorId])).toEqual([
      ['proposed_action.created', 'agent-dev'],
      ['proposed_action.approved', 'max'],
    ]);
  });

  it('approve clicked on both nodes at once: one aprovada, one ja_aprovada, one approval event', async () => {
    const project = await seedProject(nodeA);
    for (let round = 0; round < 4; round++) {
      const proposed = await proposeTerminal(nodeA, project.id, project.root, `make target${round}`);
      const results = await Promise.all([
        nodeA.call('POST', `/api/actions/${proposed.body.id}/approve`, { userId: 'max' }),
        nodeB.call('POST', `/api/actions/${proposed.body.id}/approve`, { userId: 'olivia' }),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200]);
      expect(results.map((r) => r.body.desfecho).sort()).toEqual(['aprovada', 'ja_aprovada']);
      const approvals = (await eventsOf(nodeB, project.id)).filter(
        (e) => e.actionId === proposed.body.id && e.type === 'proposed_action.approved',
      );
      expect(approvals).toHaveLength(1);
    }
  });
});
