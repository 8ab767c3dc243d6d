// Live output from the Docker broker (container project, image brabo-test-busybox, never pulled):
// exec output reaches SSE and `agent:<id>` while the command runs, the same bytes as recorded.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PhoenixSocket, Socket18 } from '../gateway/phoenix-clients.ts';
import {
  addInfraAgent,
  createProject,
  serviceTokenOf,
  type DockerServer,
  settled,
  startDockerServer,
  waitUntil,
} from '../e2e/support.ts';

let server: DockerServer;
let socket: PhoenixSocket | null = null;

beforeAll(async () => {
  server = await startDockerServer('console', { cpus: 0.1, memoryMb: 32, pids: 32 });
});

afterAll(async () => {
  socket?.disconnect();
  await server?.close();
});

describe('live output from the broker', () => {
  it('exec output streams to SSE and agent:<id> while the command runs, and equals the recorded outcome', async () => {
    const project = await createProject(server, { executionMode: 'container', moduleMap: { api: {} } });
    await addInfraAgent(server, project.id);
    const started = await server.call('POST', `/api/projects/${project.id}/handoffs/infra/accept`, { userId: 'max' });
    expect((await settled(server, started.body.id, 60_000)).settlement.status).toBe('executed');
    writeFileSync(
      join(project.root, 'ticks.sh'),
      'for i in 1 2 3; do echo "tick $i"; sleep 0.3; done; printf "\\303\\251t\\303\\251\\n" >&2\n',
    );
    // `ask` beats the container floor: the command waits for a click, so the stream can be opened first.
    await server.call('PUT', `/api/projects/${project.id}/permissions`, {
      userId: 'olivia',
      allow: [],
      deny: [],
      ask: ['Terminal(sh ticks.sh)'],
    });

    socket = new Socket18(server.wsUrl, {
      transport: WebSocket,
      params: { token: await serviceTokenOf(server.base) },
      timeout: 5_000,
    });
    socket.connect();
    const channel = socket.channel('agent:agent-dev', {});
    const agentOutput: any[] = [];
    channel.on('action.output', (payload) => agentOutput.push(payload));
    await new Promise<void>((resolve, reject) =>
      channel
        .join()
        .receive('ok', () => resolve())
        .receive('error', (e) => reject(new Error(JSON.stringify(e)))),
    );

    const posted = await server.call('POST', `/api/projects/${project.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: 'sh ticks.sh', cwd: project.root },
    });
    expect(posted.body.status).toBe('pending');
    const response = await fetch(`${server.base}/api/actions/${posted.body.id}/output`, {
      headers: { authorization: `Bearer ${await serviceTokenOf(server.base)}` },
    });
    await server.call('POST', `/api/actions/${posted.body.id}/approve`, { userId: 'max' });
    let text = '';
    let sawTickBeforeEnd = false;
    for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
      text += Buffer.from(part).toString('utf8');
      if (text.includes('tick 1') && !text.includes('event: end')) sawTickBeforeEnd = true;
    }
    expect(sawTickBeforeEnd).toBe(true);
    const outputs = text
      .split('\n\n')
      .filter((b) => b.includes('event: output'))
      .map((b) => JSON.parse(b.slice(b.indexOf('data: ') + 6)));
    const view = await settled(server, posted.body.id, 30_000);
    const recorded = (await server.call('GET', `/api/actions/${posted.body.id}`)).body.dispatch.outcome;
    expect(view.settlement.status).toBe('executed');
    expect(
      outputs
        .filter((o) => o.stream === 'stdout')
        .map((o) => o.data)
        .join(''),
    ).toBe(recorded.stdout);
    expect(
      outputs
        .filter((o) => o.stream === 'stderr')
        .map((o) => o.data)
        .join(''),
    ).toBe('été\n');
    expect(recorded.stdout).toBe('tick 1\ntick 2\ntick 3\n');
    expect(text).toContain('"status":"executed"');
    await waitUntil(() => agentOutput.length === outputs.length, 'the agent topic to get every chunk');
    expect(agentOutput.map((o) => o.data)).toEqual(outputs.map((o) => o.data));
  });
});
