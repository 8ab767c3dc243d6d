import { describe, expect, it } from 'vitest';
import type { Result } from '../../runner-protocol/index.ts';
import { ResultOutbox } from '../../src/runner/result-outbox.ts';
import type { PushChannel } from '../../src/runner/result-outbox.ts';
import type { ReplyStatus } from '../../src/runner/reply.ts';

/** A channel whose replies the test scripts, one per push. */
function scriptedChannel(replies: Array<{ status: ReplyStatus; response?: unknown }>) {
  const pushed: Array<{ event: string; payload: object }> = [];
  const state = { joined: false };
  const channel: PushChannel = {
    canPush: () => state.joined,
    push: async (event, payload) => {
      pushed.push({ event, payload });
      const reply = replies.shift() ?? { status: 'ok' };
      return { status: reply.status, response: reply.response ?? {} };
    },
  };
  return { channel, pushed, state };
}

const result = (dispatchId: string): Result => ({ dispatchId, attempt: 1, status: 'executed', exitCode: 0 });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function outbox(channel: PushChannel) {
  const acked: string[] = [];
  const rejected: string[] = [];
  const box = new ResultOutbox({
    channel,
    pushTimeoutMs: 1000,
    onAcknowledged: (r) => acked.push(r.dispatchId),
    onRejected: (r, reason) => rejected.push(`${r.dispatchId}: ${reason}`),
  });
  return { box, acked, rejected };
}

describe('result outbox: no final result is lost across disconnects', () => {
  it('holds results while not joined and sends them all on flush (the re-join)', async () => {
    const { channel, pushed, state } = scriptedChannel([]);
    const { box, acked } = outbox(channel);
    box.deliver(result('a'));
    box.deliver(result('b'));
    expect(pushed).toHaveLength(0);
    state.joined = true;
    expect(box.flush()).toBe(2);
    await settle();
    expect(pushed.map((p) => [p.event, (p.payload as Result).dispatchId])).toEqual([
      ['result', 'a'],
      ['result', 'b'],
    ]);
    expect(acked).toEqual(['a', 'b']);
    expect(box.size).toBe(0);
  });

  it('keeps a result after a timeout or a "retry later" error, and drops it after a definitive error', async () => {
    const { channel, state } = scriptedChannel([
      { status: 'timeout' },
      { status: 'error', response: { code: 'sink_unavailable', message: 'no dispatcher yet' } },
      { status: 'error', response: { code: 'stale_attempt', message: 'attempt 1 was superseded' } },
    ]);
    const { box, acked, rejected } = outbox(channel);
    state.joined = true;
    box.deliver(result('x'));
    await settle();
    expect(box.size).toBe(1);
    box.flush();
    await settle();
    expect(box.size).toBe(1);
    box.flush();
    await settle();
    expect(box.size).toBe(0);
    expect(acked).toEqual([]);
    expect(rejected).toEqual(['x: stale_attempt: attempt 1 was superseded']);
  });
});
