// runner:<projectId> and agent:<agentId> as a local runner / agent sees them, with the real
// phoenix client: token scope, protocol version, named errors for invalid payloads, execute
// delivery with ack, the result sink, revocation, and agent notifications.
import { afterEach, describe, expect, it } from 'vitest';
import { RUNNER_PROTOCOL_VERSION, type Execute, type Output, type Result } from '../../runner-protocol/index.ts';
import { byRunnerToken, InvalidOutgoingPayloadError, type RunnerInfo, type SinkAnswer } from '../../gateway/index.ts';
import {
  answer,
  cleanupClients,
  CLIENTS,
  delay,
  phoenixClient,
  startGateway,
  waitFor,
  type GatewaySettings,
  type TestGateway,
} from './helpers.ts';

const client = CLIENTS[0];
const execute: Execute = {
  dispatchId: 'd1',
  attempt: 1,
  action: { type: 'terminal', command: 'echo hi', cwd: '/home/u/p' },
};
const result: Result = { dispatchId: 'd1', attempt: 1, status: 'executed', exitCode: 0, stdout: 'hi\n' };

let gw: TestGateway;
afterEach(async () => {
  await cleanupClients();
  await gw.close();
});

async function withRunner(
  settings: GatewaySettings = {},
  join: Record<string, unknown> = { protocolVersion: RUNNER_PROTOCOL_VERSION },
) {
  gw = await startGateway(settings);
  const { token, tokenId } = gw.tokens.issue('p1');
  const socket = phoenixClient(client, gw.url, { params: { token } });
  socket.connect();
  const channel = socket.channel('runner:p1', join);
  return { socket, channel, token, tokenId, joined: answer(channel.join()) };
}

describe('runner:<projectId> join', () => {
  it('a runner joins its own project: ok with the protocol version, connected, event emitted', async () => {
    const { channel, joined } = await withRunner(
      {},
      { protocolVersion: RUNNER_PROTOCOL_VERSION, hostname: 'dev-box', runnerVersion: '0.1.0' },
    );
    const events: RunnerInfo[] = [];
    gw.wired.runners.on('runnerJoined', (info) => events.push(info));
    expect(await joined).toEqual({ status: 'ok', response: { protocolVersion: RUNNER_PROTOCOL_VERSION } });
    expect(gw.wired.runners.isConnected('p1')).toBe(true);
    expect(gw.wired.runners.isConnected('p2')).toBe(false);
    expect(gw.wired.runners.connectedRunners()).toMatchObject([
      { projectId: 'p1', hostname: 'dev-box', runnerVersion: '0.1.0' },
    ]);
    expect(gw.wired.runners.lastSeen('p1')).toBeInstanceOf(Date);
    expect(events).toHaveLength(1);
    expect(channel.state).toBe('joined');
  });

  it("a runner token cannot join another project's topic (forbidden_topic), nor can an agent", async () => {
    const { socket, joined } = await withRunner();
    await joined;
    const other = await answer(socket.channel('runner:p2', { protocolVersion: RUNNER_PROTOCOL_VERSION }).join());
    expect(other).toEqual({
      status: 'error',
      response: { code: 'forbidden_topic', message: 'this token may not join runner:p2' },
    });
    const agent = phoenixClient(client, gw.url, { params: { token: 'agent-a1' } });
    agent.connect();
    expect(
      (await answer(agent.channel('runner:p1', { protocolVersion: RUNNER_PROTOCOL_VERSION }).join())).response.code,
    ).toBe('forbidden_topic');
    expect(gw.wired.runners.connectedRunners()).toHaveLength(1);
  });

  it('a protocol version mismatch is a join error named protocol_version_mismatch', async () => {
    const { joined } = await withRunner({}, { protocolVersion: RUNNER_PROTOCOL_VERSION + 1 });
    const reply = await joined;
    expect(reply.status).toBe('error');
    expect(reply.response.code).toBe('protocol_version_mismatch');
    expect(reply.response.message).toContain(`gateway speaks ${RUNNER_PROTOCOL_VERSION}`);
    expect(gw.wired.runners.isConnected('p1')).toBe(false);
  });

  it('a second runner for a live project is refused (runner_already_connected); executes stay with the first; it gets in once the first leaves', async () => {
    const first = await withRunner({}, { protocolVersion: RUNNER_PROTOCOL_VERSION, hostname: 'dev-box' });
    expect((await first.joined).status).toBe('ok');
    const received: unknown[] = [];
    first.channel.on('execute', (payload: unknown) => received.push(payload));

    // The same token used from elsewhere (e.g. read out of the runner's environment by a command).
    const intruder = phoenixClient(client, gw.url, { params: { token: first.token }, rejoinAfterMs: () => 50 });
    intruder.connect();
    const intruderChannel = intruder.channel('runner:p1', {
      protocolVersion: RUNNER_PROTOCOL_VERSION,
      hostname: 'elsewhere',
    });
    const refused = await answer(intruderChannel.join());
    expect(refused.status).toBe('error');
    expect(refused.response.code).toBe('runner_already_connected');
    expect(refused.response.message).toContain('host dev-box');
    expect(gw.wired.runners.connectedRunners()).toMatchObject([{ hostname: 'dev-box' }]);

    const intruderGot: unknown[] = [];
    intruderChannel.on('execute', (payload: unknown) => intruderGot.push(payload));
    first.channel.on('execute', (payload: { dispatchId: string; attempt: number }) =>
      first.channel.push('ack', { dispatchId: payload.dispatchId, attempt: payload.attempt }),
    );
    expect(await gw.wired.runners.execute('p1', execute)).toEqual({ ok: true });
    expect(received).toHaveLength(1);
    expect(intruderGot).toHaveLength(0);

    // When the genuine runner goes away, the other one's own rejoin gets in.
    await answer(first.channel.leave());
    await waitFor(() => intruderChannel.state === 'joined', 'the second runner to join after the first left');
    expect(gw.wired.runners.connectedRunners()).toMatchObject([{ hostname: 'elsewhere' }]);
  });

  it('an invalid join payload is a join error named invalid_payload', async () => {
    const { joined } = await withRunner({}, { protocolVersion: 'one' });
    expect((await joined).response.code).toBe('invalid_payload');
  });
});

describe('execute delivery', () => {
  it('execute reaches the runner, and its ack resolves the delivery', async () => {
    const { channel, joined } = await withRunner();
    await joined;
    channel.on('execute', (payload: Execute) => {
      void channel.push('ack', { dispatchId: payload.dispatchId, attempt: payload.attempt });
    });
    expect(await gw.wired.runners.execute('p1', execute)).toEqual({ ok: true });
  });

  it('no runner connected -> runner_not_connected; no ack -> delivery_timeout', async () => {
    const { channel, joined } = await withRunner({ deliveryTimeoutMs: 300 });
    expect(await gw.wired.runners.execute('p2', execute)).toMatchObject({ ok: false, code: 'runner_not_connected' });
    await joined;
    const seen: Execute[] = [];
    channel.on('execute', (payload: Execute) => seen.push(payload));
    expect(await gw.wired.runners.execute('p1', execute)).toMatchObject({ ok: false, code: 'delivery_timeout' });
    expect(seen).toEqual([execute]);
  });

  it('a runner that disconnects before acking -> runner_not_connected', async () => {
    const { socket, channel, joined } = await withRunner({ deliveryTimeoutMs: 5_000 });
    await joined;
    channel.on('execute', () => socket.disconnect());
    expect(await gw.wired.runners.execute('p1', execute)).toMatchObject({ ok: false, code: 'runner_not_connected' });
  });

  it('an execute that does not match the protocol is refused before it is sent (a caller bug)', async () => {
    const { joined } = await withRunner();
    await joined;
    expect(() => gw.wired.runners.execute('p1', { ...execute, attempt: 0 })).toThrow(InvalidOutgoingPayloadError);
  });
});

describe('result and output from the runner', () => {
  it('a result goes to the sink; its answer becomes the reply (ok, or the refusal for a stale attempt)', async () => {
    const received: Array<[string, Result]> = [];
    const sink = {
      async onResult(projectId: string, incoming: Result): Promise<SinkAnswer> {
        received.push([projectId, incoming]);
        return incoming.attempt === 1
          ? { ok: true }
          : { ok: false, reason: { code: 'stale_attempt', message: 'attempt 2 is not current' } };
      },
    };
    const { channel, joined } = await withRunner({ sink });
    await joined;
    expect(await answer(channel.push('result', result))).toEqual({ status: 'ok', response: {} });
    expect(await answer(channel.push('result', { ...result, attempt: 2 }))).toEqual({
      status: 'error',
      response: { code: 'stale_attempt', message: 'attempt 2 is not current' },
    });
    expect(received).toEqual([
      ['p1', result],
      ['p1', { ...result, attempt: 2 }],
    ]);
  });

  it('invalid result/output/ack payloads and unknown events get named errors; the channel survives', async () => {
    const { channel, joined } = await withRunner({ sink: { onResult: async () => ({ ok: true }) } });
    await joined;
    for (const [event, payload] of [
      ['result', { dispatchId: 'd1', attempt: 1, status: 'exploded' }],
      ['result', 'not an object'],
      ['output', { dispatchId: 'd1', attempt: 1, stream: 'stdin', seq: 0, data: '' }],
      ['ack', { dispatchId: '' }],
    ] as const) {
      const reply = await answer(channel.push(event, payload));
      expect(reply.status).toBe('error');
      expect(reply.response.code).toBe('invalid_payload');
    }
    expect((await answer(channel.push('rm_rf', {}))).response.code).toBe('unknown_event');
    expect(channel.state).toBe('joined');
    expect(await answer(channel.push('result', result))).toEqual({ status: 'ok', response: {} });
  });

  it('a sink that throws gives sink_failed; no sink gives sink_unavailable; output reaches onOutput', async () => {
    const outputs: Output[] = [];
    let fail = true;
    const sink = {
      async onResult(): Promise<SinkAnswer> {
        if (fail) throw new Error('database down');
        return { ok: true };
      },
      onOutput: (_projectId: string, output: Output) => void outputs.push(output),
    };
    const { channel, joined } = await withRunner({ sink });
    await joined;
    expect((await answer(channel.push('result', result))).response.code).toBe('sink_failed');
    fail = false;
    expect((await answer(channel.push('result', result))).status).toBe('ok');
    const chunk: Output = { dispatchId: 'd1', attempt: 1, stream: 'stdout', seq: 0, data: 'hi' };
    expect((await answer(channel.push('output', chunk))).status).toBe('ok');
    expect(outputs).toEqual([chunk]);
    expect(gw.logs.some((line) => line.code === 'sink_failed')).toBe(true);
  });

  it('without a sink, results are refused with sink_unavailable (the runner retries later)', async () => {
    const { channel, joined } = await withRunner();
    await joined;
    expect((await answer(channel.push('result', result))).response.code).toBe('sink_unavailable');
  });
});

describe('revocation', () => {
  it('revoking a token closes the live socket; reconnects are refused with 403 and the runner stays offline', async () => {
    const { socket, tokenId, joined } = await withRunner();
    await joined;
    const left = new Promise((resolve) => gw.wired.runners.on('runnerLeft', resolve));
    const errors: string[] = [];
    socket.onError((event: { message?: string }) => errors.push(String(event?.message)));
    expect(gw.tokens.revoke(tokenId)).toBe(true);
    expect(gw.wired.gateway.disconnect(byRunnerToken(tokenId), { reason: 'token revoked' })).toBe(1);
    await left;
    const seen = gw.wired.runners.lastSeen('p1');
    await delay(20);
    expect(gw.wired.runners.lastSeen('p1')).toEqual(seen); // frozen at the disconnect
    await waitFor(() => errors.some((message) => message.includes('403')), 'a refused reconnect');
    expect(gw.wired.runners.isConnected('p1')).toBe(false);
    expect(gw.wired.gateway.socketCount).toBe(0);
  });
});

describe('agent:<agentId>', () => {
  it('an agent receives task.action_settled on its own topic; an admin relay on agent:* gets {agentId, payload}', async () => {
    gw = await startGateway();
    const agent = phoenixClient(client, gw.url, { params: { token: 'agent-a1' } });
    agent.connect();
    const channel = agent.channel('agent:a1');
    expect((await answer(channel.join())).status).toBe('ok');
    const relay = phoenixClient(client, gw.url);
    relay.connect();
    const all = relay.channel('agent:*');
    expect((await answer(all.join())).status).toBe('ok');
    const settled = { actionId: 'x1', status: 'executed', result: { exitCode: 0, stdout: 'ok' } };
    const got = new Promise((resolve) => channel.on('task.action_settled', resolve));
    const relayed = new Promise((resolve) => all.on('task.action_settled', resolve));
    expect(gw.wired.agents.notifyAgent('a1', 'task.action_settled', settled, 'p1')).toBe(2);
    expect(await got).toEqual(settled);
    expect(await relayed).toEqual({ agentId: 'a1', payload: settled });
  });

  it("an agent cannot listen to another agent's topic or to agent:*; a malformed settled payload throws", async () => {
    gw = await startGateway();
    const agent = phoenixClient(client, gw.url, { params: { token: 'agent-a1' } });
    agent.connect();
    expect((await answer(agent.channel('agent:a2').join())).response.code).toBe('forbidden_topic');
    expect((await answer(agent.channel('agent:*').join())).response.code).toBe('forbidden_topic');
    expect(() =>
      gw.wired.agents.notifyAgent('a1', 'task.action_settled', { actionId: 'x', status: 'maybe' }, 'p1'),
    ).toThrow(InvalidOutgoingPayloadError);
    await delay(10);
  });
});
