// Adversarial, over real sockets with the real phoenix client against a real gateway (createApp,
// SQLite, dispatcher): a runner token reaches its own project's topic only, cannot settle another
// project's dispatch, receives exactly what was decided, and one flooding socket hurts nobody else.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  allowCommands,
  serviceTokenOf,
  createProject,
  type Project,
  type Server,
  startServer,
  waitUntil,
} from '../e2e/support.ts';
import { type PhoenixChannel, type PhoenixSocket, Socket18 } from '../gateway/phoenix-clients.ts';

let server: Server;
let a: Project;
let b: Project;
let tokenA: string;
let tokenB: string;
const sockets: PhoenixSocket[] = [];

interface Execute {
  dispatchId: string;
  attempt: number;
  action: Record<string, unknown>;
}

function connect(token: string): PhoenixSocket {
  const socket = new Socket18(server.wsUrl, {
    transport: WebSocket,
    params: { token },
    timeout: 5_000,
    reconnectAfterMs: () => 60_000,
  });
  socket.connect();
  sockets.push(socket);
  return socket;
}

function reply(push: ReturnType<PhoenixChannel['join']>): Promise<{ status: string; response: any }> {
  return new Promise((resolve) => {
    push.receive('ok', (response) => resolve({ status: 'ok', response }));
    push.receive('error', (response) => resolve({ status: 'error', response }));
    push.receive('timeout', () => resolve({ status: 'timeout', response: null }));
  });
}

const joinTopic = (socket: PhoenixSocket, topic: string, payload: object = { protocolVersion: 1 }) => {
  const channel = socket.channel(topic, payload);
  return { channel, joined: reply(channel.join()) };
};

/** A runner that acks every execute and records it, answering nothing else. */
async function quietRunner(
  token: string,
  projectId: string,
): Promise<{ channel: PhoenixChannel; executes: Execute[] }> {
  const { channel, joined } = joinTopic(connect(token), `runner:${projectId}`);
  const executes: Execute[] = [];
  channel.on('execute', (message: Execute) => {
    executes.push(message);
    channel.push('ack', { dispatchId: message.dispatchId, attempt: message.attempt });
  });
  expect((await joined).status).toBe('ok');
  return { channel, executes };
}

async function runnerProject(name: string): Promise<Project> {
  const root = join(server.dir, name);
  mkdirSync(root, { recursive: true });
  return createProject(server, { executionMode: 'runner', root, name });
}

beforeAll(async () => {
  server = await startServer({ limits: { runnerGraceMs: 30_000 } });
  a = await runnerProject('alpha');
  b = await runnerProject('beta');
  tokenA = (await server.call('POST', `/api/projects/${a.id}/runner-tokens`)).body.token;
  tokenB = (await server.call('POST', `/api/projects/${b.id}/runner-tokens`)).body.token;
});

// One live runner per project: each test's runners leave before the next test joins its own.
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  await waitUntil(
    () => server.app.execution!.gateway.runners.connectedRunners().length === 0,
    'the runners of the previous test to leave',
  );
});

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.close();
});

describe('topics a runner token may join', () => {
  it("a runner token joins its own runner topic only: not another project's, not agent topics", async () => {
    const socket = connect(tokenA);
    for (const topic of [`runner:${b.id}`, 'runner:', 'runner:*', `agent:agent-dev`, 'agent:*', `agent:${a.id}`]) {
      const { joined } = joinTopic(socket, topic);
      const result = await joined;
      expect(result.status, topic).toBe('error');
      expect(result.response.code, topic).toBe('forbidden_topic');
    }
    const unrouted = await joinTopic(socket, 'admin:everything').joined;
    expect(unrouted.status).toBe('error');
    const own = await joinTopic(socket, `runner:${a.id}`).joined;
    expect(own.status).toBe('ok');
  });

  it('a bad, revoked or missing token is refused at the upgrade (403), never accepted then closed', async () => {
    const grant = (await server.call('POST', `/api/projects/${a.id}/runner-tokens`)).body;
    await server.call('DELETE', `/api/projects/${a.id}/runner-tokens/${grant.tokenId}`);
    for (const query of ['', `&token=${grant.token}`, '&token=wrong', `&token=${ADMIN_TOKEN.slice(0, -1)}`]) {
      const status = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`${server.wsUrl}/websocket?vsn=2.0.0${query}`);
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => {
          ws.close();
          resolve(101);
        });
        ws.on('error', () => undefined);
      });
      expect(status, query).toBe(403);
    }
  });
});

describe('results and executes carry exactly what was decided', () => {
  it("runner A cannot settle project B's dispatch; B's own result still settles it", async () => {
    await allowCommands(server, b.id, ['Terminal(echo)']);
    const runnerB = await quietRunner(tokenB, b.id);
    const runnerA = await quietRunner(tokenA, a.id);
    // An auto-approved proposal answers once the command settled (or its wait ran out): not awaited yet.
    const proposing = server.call('POST', `/api/projects/${b.id}/actions`, {
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command: 'echo beta', timeoutMs: 20_000 },
    });
    const execute = await waitUntil(() => runnerB.executes[0], 'the execute for project B');
    const actionId = (await server.app.store.read.dispatches.get(execute.dispatchId))?.actionId as string;

    const forged = await reply(
      runnerA.channel.push('result', {
        dispatchId: execute.dispatchId,
        attempt: execute.attempt,
        status: 'executed',
        exitCode: 0,
        stdout: 'forged by A',
      }),
    );
    expect(forged.status).toBe('error');
    expect(forged.response.code).toBe('forbidden_dispatch');
    const still = await server.call('GET', `/api/actions/${actionId}/settlement`);
    expect(still.body.state).not.toBe('settled');

    const real = await reply(
      runnerB.channel.push('result', {
        dispatchId: execute.dispatchId,
        attempt: execute.attempt,
        status: 'executed',
        exitCode: 0,
        stdout: 'beta\n',
      }),
    );
    expect(real.status).toBe('ok');
    const proposed = await proposing;
    expect(proposed.body).toMatchObject({ id: actionId, status: 'auto_approved' });
    const settled = await server.call('GET', `/api/actions/${actionId}/settlement?wait=5`);
    expect(settled.body.state).toBe('settled');
    expect(JSON.stringify(settled.body.settlement)).toContain('beta');
    expect(JSON.stringify(settled.body.settlement)).not.toContain('forged');
    runnerA.channel.leave();
    runnerB.channel.leave();
  });

  it('the execute holds the decided command and cwd and nothing the policy did not see (env, shell, extra keys)', async () => {
    await allowCommands(server, a.id, ['Terminal(echo)']);
    const runner = await quietRunner(tokenA, a.id);
    const payloadOf = (command: string, extra: object) => ({
      agentId: 'agent-dev',
      actionType: 'terminal',
      payload: { command, timeoutMs: 20_000, ...extra },
    });
    const answer = (e: Execute) =>
      reply(
        runner.channel.push('result', {
          dispatchId: e.dispatchId,
          attempt: e.attempt,
          status: 'executed',
          exitCode: 0,
          stdout: '',
        }),
      );

    const withoutCwd = server.call(
      'POST',
      `/api/projects/${a.id}/actions`,
      payloadOf('echo one', {
        env: { LD_PRELOAD: '/tmp/evil.so', PATH: '/tmp' },
        shell: '/tmp/evil-sh',
        argv: ['curl', 'x'],
        user: 'root',
      }),
    );
    const first = await waitUntil(() => runner.executes[0], 'the first execute');
    // `approval` is the decision itself (auto-approved: the runner sandboxes it), not payload input.
    expect(Object.keys(first.action).sort()).toEqual(['approval', 'command', 'cwd', 'timeoutMs', 'type']);
    // No cwd at decision time: decided against the root, executed at the root.
    expect(first.action).toEqual({
      type: 'terminal',
      command: 'echo one',
      cwd: a.root,
      timeoutMs: 20_000,
      approval: 'auto',
    });
    await answer(first);
    expect((await withoutCwd).body.status).toBe('auto_approved');

    const sub = join(a.root, 'sub');
    const withCwd = server.call('POST', `/api/projects/${a.id}/actions`, payloadOf('echo two', { cwd: sub }));
    const second = await waitUntil(() => runner.executes[1], 'the second execute');
    expect(second.action).toEqual({
      type: 'terminal',
      command: 'echo two',
      cwd: sub,
      timeoutMs: 20_000,
      approval: 'auto',
    });
    await answer(second);
    expect((await withCwd).body.status).toBe('auto_approved');

    // A cwd outside the root is a different decision, never the same auto-approval, and never sent.
    for (const cwd of ['/etc', `${a.root}/../beta`, 'relative/dir']) {
      const outside = await server.call('POST', `/api/projects/${a.id}/actions`, payloadOf('echo three', { cwd }));
      expect(outside.body.status, cwd).not.toBe('auto_approved');
    }
    expect(runner.executes).toHaveLength(2);
    runner.channel.leave();
  });
});

describe('flooding is contained per socket', () => {
  it('joins beyond the per-socket cap are refused; a frame over 1 MiB closes only its own socket', async () => {
    // The upstream service's token may join any agent topic, so only the per-socket cap stops it.
    const flooder = connect(await serviceTokenOf(server.base));
    const results = await Promise.all(
      Array.from({ length: 110 }, (_, i) => joinTopic(flooder, `agent:flood-${i}`).joined),
    );
    expect(results.filter((r) => r.status === 'ok')).toHaveLength(100);
    expect(results.filter((r) => r.status === 'error').map((r) => r.response.reason)).toEqual(
      Array(10).fill('too many channels joined'),
    );

    const bystander = await quietRunner(tokenB, b.id);
    const raw = new WebSocket(`${server.wsUrl}/websocket?vsn=2.0.0&token=${encodeURIComponent(tokenA)}`);
    await new Promise((resolve, reject) => {
      raw.once('open', resolve);
      raw.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => raw.once('close', (code) => resolve(code)));
    raw.send(JSON.stringify([null, '1', 'phoenix', 'heartbeat', { pad: 'x'.repeat(2 * 1024 * 1024) }]));
    expect(await closed).toBe(1009);

    const heartbeat = await reply(bystander.channel.push('ack', { dispatchId: 'none', attempt: 1 }));
    expect(heartbeat.status).toBe('ok');
    bystander.channel.leave();
  });
});
