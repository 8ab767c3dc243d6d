// Frame limits and per-socket isolation on runner:<projectId>, with the real phoenix client:
// a runner's result over the frame limit is answered with the named result_too_large (the socket
// stays up, the sink gets it to record); any other oversized frame still closes with 1009; acks are
// answered while a result's store write is still pending; a runner cannot ack, stream or report
// another project's dispatch (forbidden_dispatch). The result and ack cases run twice: bare, and
// behind the join-authorization guard every real server installs (it must forward the module's
// immediate, acceptsOversized and handleOversized callbacks, not only join).
import { afterEach, describe, expect, it } from 'vitest';
import { RUNNER_PROTOCOL_VERSION, type Execute, type Result } from '../../runner-protocol/index.ts';
import type { JoinAuthorizer, RunnerSink, SinkAnswer } from '../../gateway/index.ts';
import { answer, cleanupClients, CLIENTS, phoenixClient, startGateway, waitFor, type TestGateway } from './helpers.ts';

const client = CLIENTS[0];
let gw: TestGateway;
afterEach(async () => {
  await cleanupClients();
  await gw.close();
});

async function runner(projectId: string) {
  const { token } = gw.tokens.issue(projectId);
  const socket = phoenixClient(client, gw.url, { params: { token } });
  socket.connect();
  const channel = socket.channel(`runner:${projectId}`, { protocolVersion: RUNNER_PROTOCOL_VERSION });
  expect((await answer(channel.join())).status).toBe('ok');
  return { socket, channel };
}

/** A guard like the product's: a runner joins its own project's topic only; every call is counted. */
function authorizationOn(): { authorizeJoin: JoinAuthorizer; checked: string[] } {
  const checked: string[] = [];
  return {
    checked,
    authorizeJoin: (identity, topic) => {
      checked.push(topic);
      return identity.kind === 'runner' && topic === `runner:${identity.projectId}`
        ? null
        : { code: 'topic_not_allowed', message: `${identity.kind} may not join ${topic}` };
    },
  };
}

const AUTHORIZATION = [
  { name: 'without a join guard', guard: () => null },
  { name: 'with join authorization on', guard: authorizationOn },
] as const;

describe.each(AUTHORIZATION)('results over the frame limit, $name', ({ guard }) => {
  it('an oversized result gets result_too_large from the sink; the socket stays up; 1, 2 and 3x the limit', async () => {
    const seen: Array<{ dispatchId: string; bytes: number; stdoutLength: number }> = [];
    const sink: RunnerSink = {
      onResult: async () => ({ ok: true }),
      onOversizedResult: async (_projectId, result, bytes) => {
        seen.push({ dispatchId: result.dispatchId, bytes, stdoutLength: result.stdout?.length ?? 0 });
        return { ok: false, reason: { code: 'result_too_large', message: 'recorded with its output cut' } };
      },
    };
    const authorization = guard();
    gw = await startGateway({
      maxFrameBytes: 64 * 1024,
      sink,
      ...(authorization ? { authorizeJoin: authorization.authorizeJoin } : {}),
    });
    const { socket, channel } = await runner('p1');
    if (authorization) expect(authorization.checked).toEqual(['runner:p1']);
    for (const [i, size] of [70 * 1024, 128 * 1024, 200 * 1024].entries()) {
      const big: Result = {
        dispatchId: `d${i}`,
        attempt: 1,
        status: 'executed',
        exitCode: 0,
        stdout: 'x'.repeat(size),
      };
      expect(await answer(channel.push('result', big))).toEqual({
        status: 'error',
        response: { code: 'result_too_large', message: 'recorded with its output cut' },
      });
    }
    expect(seen.map((s) => s.dispatchId)).toEqual(['d0', 'd1', 'd2']);
    expect(seen.every((s) => s.bytes > 64 * 1024 && s.stdoutLength > 64 * 1024)).toBe(true);
    expect(socket.isConnected()).toBe(true);
    expect(
      (await answer(channel.push('result', { dispatchId: 'small', attempt: 1, status: 'executed', exitCode: 0 })))
        .status,
    ).toBe('ok');
  });

  it('any other oversized frame (output, join, heartbeat) still closes the socket with 1009', async () => {
    gw = await startGateway({
      maxFrameBytes: 64 * 1024,
      sink: { onResult: async () => ({ ok: true }), onOversizedResult: async () => ({ ok: true }) },
    });
    const { socket, channel } = await runner('p1');
    const closed = new Promise<number>((resolve) => socket.onClose((event: { code: number }) => resolve(event.code)));
    channel.push('output', { dispatchId: 'd', attempt: 1, stream: 'stdout', seq: 0, data: 'y'.repeat(100 * 1024) });
    expect(await closed).toBe(1009);
    expect(gw.logs.some((line) => line.code === 'frame_too_large')).toBe(true);
  });
});

describe.each(AUTHORIZATION)('acks, $name', ({ guard }) => {
  it("an ack is answered while an earlier result's store write is still pending", async () => {
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const authorization = guard();
    gw = await startGateway({
      sink: {
        onResult: async () => {
          await blocked;
          return { ok: true };
        },
      },
      ...(authorization ? { authorizeJoin: authorization.authorizeJoin } : {}),
    });
    const { channel } = await runner('p1');
    if (authorization) expect(authorization.checked).toEqual(['runner:p1']);
    const execute: Execute = { dispatchId: 'd2', attempt: 1, action: { type: 'terminal', command: 'true', cwd: '/x' } };
    const delivered = gw.wired.runners.execute('p1', execute);
    const resultReply = answer(
      channel.push('result', { dispatchId: 'd1', attempt: 1, status: 'executed', exitCode: 0 }),
    ).then((r) => (order.push('result'), r));
    const ackReply = answer(channel.push('ack', { dispatchId: 'd2', attempt: 1 })).then((r) => (order.push('ack'), r));
    expect(await ackReply).toMatchObject({ status: 'ok' });
    expect(await delivered).toEqual({ ok: true });
    expect(order).toEqual(['ack']);
    release();
    expect((await resultReply).status).toBe('ok');
    expect(order).toEqual(['ack', 'result']);
  });
});

describe('isolation', () => {
  it("a runner cannot ack, stream or report another project's pending dispatch: forbidden_dispatch, and the delivery stays pending", async () => {
    const results: string[] = [];
    gw = await startGateway({
      deliveryTimeoutMs: 3_000,
      sink: {
        onResult: async (projectId: string, r: Result): Promise<SinkAnswer> => (
          results.push(`${projectId}:${r.dispatchId}`),
          { ok: true }
        ),
      },
    });
    const a = await runner('pa');
    const b = await runner('pb');
    const execute: Execute = { dispatchId: 'da', attempt: 1, action: { type: 'terminal', command: 'true', cwd: '/x' } };
    let settled: unknown = null;
    const delivered = gw.wired.runners.execute('pa', execute).then((outcome) => (settled = outcome));
    for (const [event, payload] of [
      ['ack', { dispatchId: 'da', attempt: 1 }],
      ['output', { dispatchId: 'da', attempt: 1, stream: 'stdout', seq: 0, data: 'forged' }],
      ['result', { dispatchId: 'da', attempt: 1, status: 'executed', exitCode: 0 }],
    ] as const) {
      const reply = await answer(b.channel.push(event, payload));
      expect(reply).toMatchObject({ status: 'error', response: { code: 'forbidden_dispatch' } });
    }
    expect(settled).toBeNull();
    expect(results).toEqual([]);
    expect((await answer(a.channel.push('ack', { dispatchId: 'da', attempt: 1 }))).status).toBe('ok');
    await waitFor(() => settled !== null, 'the real ack to settle the delivery');
    expect(await delivered).toEqual({ ok: true });
  });

  it('per-socket state is bounded: a runner that floods output faster than it is handled is cut off (1008), not buffered forever', async () => {
    gw = await startGateway({
      maxPendingMessages: 300,
      sink: {
        onResult: async () => ({ ok: true }),
        onOutput: () => new Promise<void>(() => {}), // the store never answers
      },
    });
    const { socket, channel } = await runner('p1');
    for (let i = 0; i < 350; i++)
      channel.push('output', { dispatchId: `unknown-${i}`, attempt: 1, stream: 'stdout', seq: i, data: 'x' });
    await waitFor(
      () => gw.logs.some((line) => line.code === 'channel_overloaded' && (line as { limit?: number }).limit === 300),
      'the overload to be logged',
    );
    await waitFor(
      () => gw.logs.some((line) => line.code === 'runner_left') && !gw.wired.runners.isConnected('p1'),
      'the runner to be cut off',
    );
    await waitFor(() => !socket.isConnected(), 'the client to see its socket closed');
  });
});
