// Three gateway nodes on one Postgres, in this process, with a real `brabo runner` child: no
// pinning. An action proposed and approved on one node runs once on the runner connected to
// another; the agent on a third gets task.action_settled; a long-poll on the approving node wakes;
// a second runner is refused cluster-wide; presence covers the cluster.
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  allowCommands,
  countingRoot,
  createProject,
  joinAgentTopic,
  killAllChildren,
  settled,
  startRunner,
  tempDir,
  waitUntil,
} from '../e2e/support.ts';
import { TestSchemas } from '../store/contract-postgres.ts';
import { type Node, startNode } from './support.ts';

const schemas = new TestSchemas();
let nodes: Node[] = [];
let shared = '';

beforeAll(async () => {
  const schema = await schemas.create();
  shared = tempDir('cluster-data');
  // One at a time: the first migrates (the others would wait on its advisory lock anyway).
  for (let i = 0; i < 3; i++) nodes.push(await startNode(schema.url, shared));
});
afterEach(() => killAllChildren());
afterAll(async () => {
  await killAllChildren();
  for (const node of nodes) await node.close();
  nodes = [];
  await schemas.dropAll();
  rmSync(shared, { recursive: true, force: true });
});

describe('three nodes, one Postgres', () => {
  it('approved on A, run once on the runner held by B, settlement delivered to the agent on C', async () => {
    const [a, b, c] = nodes as [Node, Node, Node];
    const dir = tempDir('cluster');
    const machine = countingRoot(dir);
    const project = await createProject(a, { executionMode: 'runner', root: machine.root });
    const token = (await a.call('POST', `/api/projects/${project.id}/runner-tokens`)).body.token as string;
    const runner = startRunner({
      url: b.wsUrl,
      token,
      root: machine.root,
      projectId: project.id,
      journal: `${dir}/journal`,
    });
    // A and C see B's runner through presence.
    await waitUntil(
      () => a.app.execution!.cluster.directory!.remoteHolder(project.id)?.at === 'node',
      'A to see the runner on B',
      60_000,
    );
    await waitUntil(
      () => c.app.execution!.cluster.directory!.remoteHolder(project.id),
      'C to see the runner on B',
      60_000,
    );
    expect(a.app.execution!.cluster.directory!.remoteHolder(project.id)).toEqual({ at: 'node', nodeId: b.nodeId });
    // Presence covers the cluster: /api/cluster, the console's runner view and /metrics on A.
    const view = (await a.call('GET', '/api/cluster')).body;
    expect(view.node.id).toBe(a.nodeId);
    expect(view.nodes.map((n: { nodeId: string }) => n.nodeId).sort()).toEqual(nodes.map((n) => n.nodeId).sort());
    expect(view.runners).toContainEqual(expect.objectContaining({ projectId: project.id, nodeId: b.nodeId }));
    const metrics = await fetch(`${a.base}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/^brabo_cluster_nodes 3$/m);
    expect(metrics).toMatch(/^brabo_runners_connected [1-9]/m);
    expect(metrics).toMatch(/^brabo_node_runners_connected 0$/m);

    const agent = await joinAgentTopic(c.wsUrl, 'agent-dev');
    try {
      const proposed = await a.call('POST', `/api/projects/${project.id}/actions`, {
        agentId: 'agent-dev',
        actionType: 'terminal',
        payload: { command: 'sh count.sh', cwd: machine.root },
      });
      expect(proposed.body.status).toBe('pending');
      const actionId = proposed.body.id as string;
      const approved = await a.call('POST', `/api/actions/${actionId}/approve`, { userId: 'olivia' });
      expect(approved.status).toBe(200);
      const done = await settled(a, actionId);
      expect(done.settlement).toMatchObject({ status: 'executed' });
      expect(machine.runs()).toBe(1);
      const row = await a.app.store.read.dispatches.getByAction(actionId);
      expect(row).toMatchObject({ state: 'executed', attempt: 1, ownerNode: b.nodeId }); // claimed by the node holding the socket
      await waitUntil(
        () => agent.received.find((m) => m.payload?.actionId === actionId),
        'task.action_settled on C',
        30_000,
      );
      expect(agent.received.filter((m) => m.payload?.actionId === actionId)).toHaveLength(1);

      // Auto-approved on C: also runs once on B's runner.
      await allowCommands(a, project.id, ['Terminal(sh count.sh)']);
      const auto = await c.call('POST', `/api/projects/${project.id}/actions`, {
        agentId: 'agent-dev',
        actionType: 'terminal',
        payload: { command: 'sh count.sh', cwd: machine.root },
      });
      expect(auto.body).toMatchObject({ status: 'auto_approved' });
      expect((await settled(c, auto.body.id)).settlement).toMatchObject({ status: 'executed' });
      expect(machine.runs()).toBe(2);
    } finally {
      agent.socket.disconnect();
      await runner.stop();
    }
  }, 180_000);

  it('a second runner for the project is refused with runner_already_connected on another node', async () => {
    const [a, b] = nodes as [Node, Node, Node];
    const dir = tempDir('cluster-dup');
    const machine = countingRoot(dir);
    const project = await createProject(a, { executionMode: 'runner', root: machine.root });
    const token = (await a.call('POST', `/api/projects/${project.id}/runner-tokens`)).body.token as string;
    const first = startRunner({ url: b.wsUrl, token, root: machine.root, projectId: project.id, journal: `${dir}/j1` });
    await waitUntil(() => b.app.execution!.gateway.runners.isConnected(project.id), 'the first runner on B', 60_000);
    const second = startRunner({
      url: a.wsUrl,
      token,
      root: machine.root,
      projectId: project.id,
      journal: `${dir}/j2`,
    });
    await waitUntil(
      () => second.output().includes('runner_already_connected'),
      'the second runner to be refused',
      60_000,
    );
    expect(a.app.execution!.gateway.runners.isConnected(project.id)).toBe(false);
    expect(b.app.execution!.gateway.runners.isConnected(project.id)).toBe(true);
    // The first one leaves: the second gets in on its own retry.
    await first.stop();
    await waitUntil(
      () => a.app.execution!.gateway.runners.isConnected(project.id),
      'the second runner to get in on A',
      60_000,
    );
    await second.stop();
  }, 180_000);
});
