// Live output end to end with real clients: an in-process gateway, a real `brabo runner`, a real
// phoenix client on `agent:<id>` (action.output) and on the console's `project:<id>`, and plain
// fetch reading `GET /api/actions/:id/output` as Server-Sent Events.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PhoenixSocket } from '../gateway/phoenix-clients.ts';
import { joinTopic as joinTopicOf, readSse as readSseOf } from './live-clients.ts';
import {
  createProject,
  serviceTokenOf,
  killAllChildren,
  type Project,
  type Server,
  settled,
  startRunner,
  startServer,
  tempDir,
  waitUntil,
} from '../e2e/support.ts';

let server: Server;
let project: Project;
let root: string;
const sockets: PhoenixSocket[] = [];

const readSse = (actionId: string, headers: Record<string, string> = {}, query = '') =>
  readSseOf(server.base, actionId, headers, query);
const joinTopic = (topic: string, events: string[]) => joinTopicOf(server.base, server.wsUrl, topic, events, sockets);

const propose = (command: string) =>
  server.call('POST', `/api/projects/${project.id}/actions`, {
    agentId: 'agent-dev',
    actionType: 'terminal',
    payload: { command, cwd: root, timeoutMs: 30_000 },
  });

beforeAll(async () => {
  server = await startServer();
  const home = tempDir('live');
  root = join(home, 'machine');
  mkdirSync(root, { recursive: true });
  // Three lines a little apart, so they leave the runner as separate `output` pushes.
  writeFileSync(join(root, 'ticks.sh'), 'for i in 1 2 3; do echo "tick $i"; sleep 0.2; done; echo "warn" >&2\n');
  project = await createProject(server, { executionMode: 'runner', root, name: 'Live' });
  const token = (await server.call('POST', `/api/projects/${project.id}/runner-tokens`)).body.token;
  startRunner({ url: server.wsUrl, token, root, projectId: project.id, journal: join(home, 'journal') });
  await waitUntil(() => server.app.execution?.gateway.runners.isConnected(project.id), 'the runner to join');
});

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await killAllChildren();
  await server?.close();
});

describe('live output', () => {
  it('streams a running command to SSE, agent:<id> (action.output) and project:<id>, in order, ending when it settles', async () => {
    const agent = await joinTopic('agent:agent-dev', ['action.output', 'task.action_settled']);
    const consoleTopic = await joinTopic(`project:${project.id}`, ['action.changed', 'action.output']);
    const posted = await propose('sh ticks.sh');
    expect(posted.body.status).toBe('pending');
    const actionId = posted.body.id as string;
    await waitUntil(
      () =>
        consoleTopic.some(
          (m) =>
            m.event === 'action.changed' &&
            m.payload.entry.action.id === actionId &&
            m.payload.entry.action.status === 'pending',
        ),
      'the pending action on the console topic',
    );

    const sse = readSse(actionId); // opened before the approval: waits, then streams live
    expect((await server.call('POST', `/api/actions/${actionId}/approve`, { userId: 'max' })).body.desfecho).toBe(
      'aprovada',
    );
    // Live: the first tick arrives while the command still runs (before the settlement).
    await waitUntil(
      () => sse.events.some((e) => e.event === 'output' && String(e.data.data).includes('tick 1')),
      'the first tick on SSE',
    );
    const settledYet = (await server.call('GET', `/api/actions/${actionId}`)).body.dispatch?.state;
    expect(['executed', 'failed']).not.toContain(settledYet);

    const events = await sse.done;
    const outputs = events.filter((e) => e.event === 'output');
    const stdout = outputs
      .filter((e) => e.data.stream === 'stdout')
      .map((e) => e.data.data)
      .join('');
    expect(stdout).toBe('tick 1\ntick 2\ntick 3\n');
    expect(
      outputs
        .filter((e) => e.data.stream === 'stderr')
        .map((e) => e.data.data)
        .join(''),
    ).toBe('warn\n');
    expect(outputs.map((e) => e.data.seq)).toEqual(outputs.map((_, i) => i));
    expect(outputs.map((e) => Number(e.id))).toEqual(outputs.map((e) => e.data.seq));
    expect(events.at(-1)).toMatchObject({ event: 'end', data: { status: 'executed', exitCode: 0, truncated: false } });
    expect(events.filter((e) => e.event === 'end')).toHaveLength(1);

    await settled(server, actionId);
    await waitUntil(() => agent.some((m) => m.event === 'task.action_settled'), 'the settlement on the agent topic');
    const agentOut = agent
      .filter((m) => m.event === 'action.output' && m.payload.actionId === actionId)
      .map((m) => m.payload);
    expect(agentOut.map((p) => p.seq)).toEqual(outputs.map((e) => e.data.seq));
    expect(agentOut.map((p) => p.data)).toEqual(outputs.map((e) => e.data.data));
    // The output came before the settlement, on the same topic.
    const firstSettled = agent.findIndex((m) => m.event === 'task.action_settled');
    expect(agent.findIndex((m) => m.event === 'action.output')).toBeLessThan(firstSettled);
    const consoleOut = consoleTopic
      .filter((m) => m.event === 'action.output' && m.payload.actionId === actionId)
      .map((m) => m.payload.data);
    expect(consoleOut).toEqual(outputs.map((e) => e.data.data));
    await waitUntil(
      () =>
        consoleTopic.some(
          (m) =>
            m.event === 'action.changed' &&
            m.payload.entry.action.id === actionId &&
            m.payload.execution?.status === 'executed',
        ),
      'the executed state on the console topic',
    );

    // A late reader gets the same replay and the end at once; Last-Event-ID resumes after a seq.
    const late = await readSse(actionId).done;
    expect(late).toEqual(events);
    const resumed = await readSse(actionId, { 'last-event-id': '1' }).done;
    expect(resumed.filter((e) => e.event === 'output').map((e) => e.data.seq)).toEqual(
      outputs.slice(2).map((e) => e.data.seq),
    );
  });

  it('a denied action ends its stream with the denial, and an unknown action is a 404 before any stream', async () => {
    const posted = await propose('echo never');
    const sse = readSse(posted.body.id);
    await waitUntil(() => server.app.live?.output.has(posted.body.id), 'the SSE watch to register');
    await server.call('POST', `/api/actions/${posted.body.id}/deny`, { userId: 'max', reason: 'not today' });
    const events = await sse.done;
    expect(events).toEqual([
      { id: null, event: 'end', data: { status: 'denied', truncated: false, reason: 'not today' } },
    ]);
    const missing = await fetch(`${server.base}/api/actions/does-not-exist/output`, {
      headers: { authorization: `Bearer ${await serviceTokenOf(server.base)}` },
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: 'action_not_found' });
    const anonymous = await fetch(`${server.base}/api/actions/${posted.body.id}/output`);
    expect(anonymous.status).toBe(401);
  });

  it('after the live buffer is gone, the stream is answered from the recorded outcome', async () => {
    const posted = await propose('echo recorded; echo oops >&2');
    await server.call('POST', `/api/actions/${posted.body.id}/approve`, { userId: 'max' });
    await settled(server, posted.body.id);
    // Push the action out of the bounded retention, as if long ago or on another node.
    const live = server.app.live?.output;
    for (let i = 0; i < 80; i++) live?.settled(`filler-${i}`, 'executed');
    expect(live?.has(posted.body.id)).toBe(false);
    const events = await readSse(posted.body.id).done;
    expect(events).toEqual([
      { id: '0', event: 'output', data: { seq: 0, stream: 'stdout', data: 'recorded\n' } },
      { id: '1', event: 'output', data: { seq: 1, stream: 'stderr', data: 'oops\n' } },
      { id: null, event: 'end', data: { status: 'executed', truncated: false, exitCode: 0 } },
    ]);
  });

  it('a stream ends from the store when this node is never told of the settlement (it was recorded on another node)', async () => {
    const other = await createProject(server, {
      executionMode: 'runner',
      root: tempDir('live-other'),
      name: 'No runner',
    });
    const posted = await server.call('POST', `/api/projects/${other.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: 'echo x', cwd: other.root },
    });
    const live = server.app.live?.output as NonNullable<typeof server.app.live>['output'];
    const settled = live.settled.bind(live);
    live.settled = () => {}; // this node hears nothing: as if another node recorded the outcome
    try {
      const sse = readSse(posted.body.id);
      await waitUntil(() => live.has(posted.body.id), 'the watch');
      await server.call('POST', `/api/actions/${posted.body.id}/approve`, { userId: 'max' }); // no runner: runner_not_connected
      const events = await sse.done;
      expect(events.at(-1)).toMatchObject({ event: 'end', data: { status: 'failed', code: 'runner_not_connected' } });
    } finally {
      live.settled = settled;
    }
  });

  it('a client that goes away mid-stream leaves no listener behind', async () => {
    const posted = await propose('sh ticks.sh');
    const sse = readSse(posted.body.id);
    await waitUntil(() => server.app.live?.output.has(posted.body.id), 'the watch');
    sse.abort();
    await sse.done.catch(() => undefined);
    await waitUntil(() => !server.app.live?.output.has(posted.body.id), 'the watch to go');
    await server.call('POST', `/api/actions/${posted.body.id}/deny`, { userId: 'max', reason: 'cleanup' });
  });
});
