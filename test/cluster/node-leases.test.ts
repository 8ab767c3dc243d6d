// Nodes with leases on real Postgres: a node's start-up settles only its own in-flight rows and
// those of nodes whose lease ran out; concurrent survivors adopt a dead node's rows exactly once;
// a superseded incarnation is fenced by its epoch.
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentTurns } from '../../src/agents/turns.ts';
import { SettlementWaiters } from '../../src/agents/waiters.ts';
import { PostgresNode } from '../../src/cluster/postgres-node.ts';
import { DEFAULT_EXECUTION_LIMITS } from '../../src/execution/config.ts';
import { Dispatcher } from '../../src/execution/dispatcher.ts';
import { createLogger } from '../../src/logger.ts';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/store.ts';
import { quiet, TestSchemas } from '../store/contract-postgres.ts';

const schemas = new TestSchemas();
const logger = createLogger('silent');
let store: PostgresStore;
let pool: pg.Pool;
let schema: { name: string; url: string };
const nodes: PostgresNode[] = [];

beforeEach(async () => {
  schema = await schemas.create();
  store = await openPostgresStore(schema.url, { maxWriters: 2, maxReaders: 2 });
  pool = quiet(new pg.Pool({ connectionString: schema.url, max: 4 }));
});
afterEach(async () => {
  for (const node of nodes.splice(0)) await node.close();
  await pool.end();
  await store.close();
  await schemas.drop(schema.name);
});
afterAll(() => schemas.dropAll());

async function node(nodeId: string, leaseMs = 60_000): Promise<PostgresNode> {
  const n = new PostgresNode({ pool, nodeId, logger, timings: { heartbeatMs: 60_000, leaseMs } });
  await n.join();
  nodes.push(n);
  return n;
}

const at = new Date().toISOString();
let seq = 0;
/** An in-flight dispatch owned by `owner` (state sent, attempt 1). */
async function inFlight(owner: string | null, target = 'runner:p1'): Promise<string> {
  const n = ++seq;
  await store.transaction(async (tx) => {
    if (!(await tx.projects.get('p1'))) {
      await tx.projects.insert({
        id: 'p1',
        name: 'P',
        slug: 'p',
        executionMode: 'runner',
        root: '/tmp/p',
        workspaceDirName: 'p',
        ownerId: 'o',
        moduleMap: {},
        executionActivatedAt: null,
        createdAt: at,
      });
    }
    await tx.actions.insert({
      id: `a${n}`,
      projectId: 'p1',
      proposerId: 'agent',
      proposerKind: 'agent',
      actionType: 'terminal',
      payload: { command: 'true' },
      status: 'approved',
      reasonCode: 'base',
      reason: 'r',
      scopeRoot: null,
      decidedAt: at,
      createdAt: at,
      liveMergeKey: null,
    } as never);
    await tx.handoffs.enqueue({ id: `d${n}`, actionId: `a${n}`, projectId: 'p1', credentialRef: null, createdAt: at });
    expect(await tx.dispatches.claim(`d${n}`, 'sent', target, null, at, owner)).toMatchObject({
      ownerNode: owner,
      attempt: 1,
    });
  });
  return `d${n}`;
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

describe('node leases', () => {
  it("a starting node settles its own rows and unowned ones, never a live node's", async () => {
    await node('b');
    const mine = await inFlight('a');
    const unowned = await inFlight(null);
    const live = await inFlight('b');
    const a = await node('a');
    const toSettle = await a.inFlightToSettle();
    expect(ids(toSettle)).toEqual([mine, unowned].sort());
    expect((await store.read.dispatches.get(live))?.ownerNode).toBe('b');
    expect((await store.read.dispatches.get(unowned))?.ownerNode).toBe('a');
  });

  it('rows of a node whose lease expired are adopted by exactly one of several survivors', async () => {
    const dead = await node('dead');
    const rows: string[] = [];
    for (let i = 0; i < 12; i++) rows.push(await inFlight('dead'));
    const [b, c, d] = await Promise.all([node('b'), node('c'), node('d')]);
    // Alive: nobody takes its work.
    expect(ids(await b.inFlightToSettle())).toEqual([]);
    // Its heartbeats stop (a kill -9): the lease runs out.
    await pool.query("UPDATE cluster_nodes SET lease_until = now() - interval '1 second' WHERE node_id = 'dead'");
    const got = await Promise.all([b, c, d].map((n) => n.inFlightToSettle()));
    const all = got.flatMap(ids);
    expect(all.sort()).toEqual([...rows].sort()); // every row once, none twice
    expect(new Set(all).size).toBe(rows.length);
    expect((await pool.query("SELECT 1 FROM cluster_nodes WHERE node_id = 'dead'")).rowCount).toBe(0);
    void dead;
  });

  it('a heartbeat adopts a dead node later on and reports it', async () => {
    const dead = await node('dead2', 200);
    const row = await inFlight('dead2');
    const b = new PostgresNode({ pool, nodeId: 'b2', logger, timings: { heartbeatMs: 50, leaseMs: 5_000 } });
    nodes.push(b);
    const adopted = new Promise<string[]>((resolve) => b.onAdopted((ds) => resolve(ds.map((x) => x.id))));
    await b.join();
    expect(await adopted).toEqual([row]);
    void dead;
  });

  it("the dispatcher's start-up settles its own broker rows and leaves a live node's running", async () => {
    await node('live');
    const theirs = await inFlight('live', 'broker');
    const mine = await inFlight('me', 'broker');
    const me = await node('me');
    const roots = {
      projectWorkspacesRoot: '/tmp/x',
      projectsBase: '/tmp/x',
      gatewayCheckout: '/tmp/x',
      runnerProjectsDir: '/tmp/x',
    };
    const turns = new AgentTurns({ store, logger, waiters: new SettlementWaiters() });
    const dispatcher = new Dispatcher({
      store,
      logger,
      turns,
      roots,
      limits: DEFAULT_EXECUTION_LIMITS,
      broker: null,
      runners: null,
      cluster: me,
    });
    await dispatcher.start();
    await dispatcher.close();
    expect(await store.read.dispatches.get(theirs)).toMatchObject({ state: 'sent', ownerNode: 'live' });
    expect(await store.read.dispatches.get(mine)).toMatchObject({
      state: 'failed',
      outcome: { code: 'outcome_unknown', detail: { cause: 'gateway_restarted_during_broker_exec' } },
    });
  });

  it('a second registration of the same node id fences the first by epoch', async () => {
    const first = await node('same');
    const second = await node('same');
    expect(second.epoch).toBeGreaterThan(first.epoch);
    const { heartbeatNode } = await import('../../src/cluster/sql/heartbeat-node.ts');
    expect(await heartbeatNode(pool, 'same', first.epoch, 1000)).toBe(false);
    expect(await heartbeatNode(pool, 'same', second.epoch, 1000)).toBe(true);
  });

  it('a node reaped while alive (it stalled past its lease) registers again with a new epoch and says so', async () => {
    const n = new PostgresNode({ pool, nodeId: 'stalled', logger, timings: { heartbeatMs: 50, leaseMs: 5_000 } });
    nodes.push(n);
    await n.join();
    const first = n.epoch;
    const lost = new Promise<void>((resolve) => n.onLeaseLost(resolve));
    await pool.query("DELETE FROM cluster_nodes WHERE node_id = 'stalled'"); // what a survivor's reaper does
    await lost;
    expect(n.epoch).toBeGreaterThan(first);
    expect((await n.liveNodes()).map((x) => x.nodeId)).toContain('stalled');
  });

  it('live nodes are listed with their lease; a clean close gives the lease up', async () => {
    const a = await node('la');
    await node('lb');
    expect((await a.liveNodes()).map((n) => n.nodeId)).toEqual(['la', 'lb']);
    await nodes.pop()!.close();
    expect((await a.liveNodes()).map((n) => n.nodeId)).toEqual(['la']);
  });
});
