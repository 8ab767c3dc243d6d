// Live output across nodes (issue 14.3): the runner's socket is on node B, every viewer is on
// node A (SSE `GET /api/actions/:id/output`, `agent:<id>` action.output, the console's
// `project:<id>`). Chunks cross through the cluster's pub/sub (Postgres), and A keeps its own
// bounded mirror, so a viewer on A streams live, in order, and a late reader on A gets the replay.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { joinTopic as joinTopicOf, readSse } from '../console/live-clients.ts';
import type { PhoenixSocket } from '../gateway/phoenix-clients.ts';
import { createProject, killAllChildren, settled, startRunner, tempDir, waitUntil } from '../e2e/support.ts';
import { TestSchemas } from '../store/contract-postgres.ts';
import { type Node, startNode } from './support.ts';

const schemas = new TestSchemas();
let nodes: Node[] = [];
let shared = '';
const sockets: PhoenixSocket[] = [];

const joinTopic = (node: Node, topic: string, events: string[]) =>
  joinTopicOf(node.base, node.wsUrl, topic, events, sockets);

beforeAll(async () => {
  const schema = await schemas.create();
  shared = tempDir('cluster-live');
  for (let i = 0; i < 2; i++) nodes.push(await startNode(schema.url, shared));
});
afterEach(() => killAllChildren());
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await killAllChildren();
  for (const node of nodes) await node.close();
  nodes = [];
  await schemas.dropAll();
  rmSync(shared, { recursive: true, force: true });
});

describe('live output across nodes', () => {
  it('the runner is on B, the viewers on A: SSE, agent:<id> and project:<id> on A stream it live and in order', async () => {
    const [a, b] = nodes as [Node, Node];
    const home = tempDir('cluster-live-run');
    const root = join(home, 'machine');
    mkdirSync(root, { recursive: true });
    // Lines a little apart, so they leave the runner as separate `output` pushes; the last one waits
    // long enough for a loaded machine to relay the first before the command ends.
    writeFileSync(
      join(root, 'ticks.sh'),
      'for i in 1 2 3; do echo "tick $i"; sleep 0.3; done; echo "warn" >&2; sleep 2\n',
    );
    const project = await createProject(a, { executionMode: 'runner', root, name: 'Live cluster' });
    const token = (await a.call('POST', `/api/projects/${project.id}/runner-tokens`)).body.token as string;
    startRunner({ url: b.wsUrl, token, root, projectId: project.id, journal: join(home, 'journal') });
    await waitUntil(() => b.app.execution!.gateway.runners.isConnected(project.id), 'the runner on B', 60_000);
    await waitUntil(
      () => a.app.execution!.cluster.directory!.runners().some((r) => r.projectId === project.id),
      'A to see the runner on B',
      60_000,
    );

    const agent = await joinTopic(a, 'agent:agent-dev', ['action.output', 'task.action_settled']);
    const consoleTopic = await joinTopic(a, `project:${project.id}`, ['action.output']);
    const posted = await a.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: 'sh ticks.sh', cwd: root, timeoutMs: 60_000 },
    });
    expect(posted.body.status).toBe('pending');
    const actionId = posted.body.id as string;
    const sse = readSse(a.base, actionId);
    await waitUntil(() => a.app.live?.output.has(actionId), 'the SSE watch on A');
    expect((await a.call('POST', `/api/actions/${actionId}/approve`, { userId: 'olivia' })).status).toBe(200);

    // Live on A while the command still runs on B's runner.
    await waitUntil(
      () => sse.events.some((e) => e.event === 'output' && String(e.data.data).includes('tick 1')),
      'the first tick on the SSE stream of A',
      60_000,
    );
    const state = (await a.call('GET', `/api/actions/${actionId}`)).body.dispatch?.state;
    expect(['executed', 'failed']).not.toContain(state);

    const events = await sse.done;
    const outputs = events.filter((e) => e.event === 'output');
    const text = (stream: string) =>
      outputs
        .filter((e) => e.data.stream === stream)
        .map((e) => e.data.data)
        .join('');
    expect(text('stdout')).toBe('tick 1\ntick 2\ntick 3\n');
    expect(text('stderr')).toBe('warn\n');
    expect(outputs.length).toBeGreaterThanOrEqual(4); // separate pushes, not the recorded outcome at the end
    expect(outputs.map((e) => e.data.seq)).toEqual(outputs.map((_, i) => i));
    expect(events.at(-1)).toMatchObject({ event: 'end', data: { status: 'executed', exitCode: 0, truncated: false } });
    expect(events.filter((e) => e.event === 'end')).toHaveLength(1);

    await settled(a, actionId);
    await waitUntil(() => agent.some((m) => m.event === 'task.action_settled'), 'the settlement on the agent topic');
    const agentOut = agent.filter((m) => m.event === 'action.output' && m.payload.actionId === actionId);
    expect(agentOut.map((m) => m.payload.seq)).toEqual(outputs.map((e) => e.data.seq));
    expect(agentOut.map((m) => m.payload.data)).toEqual(outputs.map((e) => e.data.data));
    await waitUntil(
      () => consoleTopic.filter((m) => m.payload.actionId === actionId).length === outputs.length,
      'every chunk on the console topic of A',
    );
    expect(consoleTopic.filter((m) => m.payload.actionId === actionId).map((m) => m.payload.data)).toEqual(
      outputs.map((e) => e.data.data),
    );

    // A late reader on A gets the same chunks (A's mirror), not the recorded outcome in one piece.
    const late = await readSse(a.base, actionId).done;
    expect(late).toEqual(events);
    // And B, the origin, replays the very same seqs.
    const origin = await readSse(b.base, actionId).done;
    expect(origin.filter((e) => e.event === 'output')).toEqual(outputs);
  }, 240_000);
});
