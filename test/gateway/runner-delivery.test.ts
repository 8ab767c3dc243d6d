// Runner delivery through the PubSub interface, as two gateway nodes see it: a sender (the node
// that claimed the dispatch) and the node holding the runner's socket, joined by one pub/sub.
// Counted outcomes: every delivery resolves exactly once, with the ack, the disconnect or the
// timeout that happened; a runner of another project cannot acknowledge it; messages on the
// delivery and reply topics that do not parse push nothing and settle nothing.
import fc from 'fast-check';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocalPubSub } from '../../gateway/pubsub.ts';
import { DELIVERY_TOPIC_PREFIX, type DeliveryOutcome, RunnerDelivery } from '../../gateway/runner-delivery.ts';
import type { Execute } from '../../runner-protocol/index.ts';

const logger = pino({ level: 'silent' });
const execute = (dispatchId: string, attempt = 1): Execute => ({
  dispatchId,
  attempt,
  action: { type: 'terminal', command: 'true', cwd: '/x' },
});

function twoNodes(timeoutMs = 60_000) {
  const pubsub = new LocalPubSub();
  const sender = new RunnerDelivery({ pubsub, logger, timeoutMs });
  const holder = new RunnerDelivery({ pubsub, logger, timeoutMs });
  return { pubsub, sender, holder };
}

afterEach(() => vi.useRealTimers());

describe('runner delivery across nodes (pub/sub)', () => {
  it('an execute sent on one node is pushed by the node holding the socket, and its ack resolves the sender', async () => {
    const { sender, holder } = twoNodes();
    const pushed: Execute[] = [];
    holder.attach('p1', 'socket-1', (e) => pushed.push(e));
    const delivered = sender.send('p1', execute('d1'));
    expect(pushed).toEqual([execute('d1')]);
    expect(holder.acknowledge('d1#1', 'p1')).toBe(true);
    expect(await delivered).toEqual({ ok: true });
  });

  it('counted: each delivery resolves exactly once with what happened to it (ack, disconnect, forged ack then ack)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('ack' as const, 'disconnect' as const, 'forged-then-ack' as const), {
          minLength: 1,
          maxLength: 20,
        }),
        async (fates) => {
          const { sender, holder } = twoNodes();
          const detaches = new Map<number, (reason: string) => void>();
          const outcomes = new Map<number, DeliveryOutcome[]>();
          const runs = fates.map((fate, i) => {
            const project = `p${i}`;
            detaches.set(
              i,
              holder.attach(project, `socket-${i}`, () => {}),
            );
            holder.attach(`other${i}`, `other-socket-${i}`, () => {});
            const promise = sender.send(project, execute(`d${i}`)).then((o) => {
              outcomes.set(i, [...(outcomes.get(i) ?? []), o]);
            });
            return { fate, project, promise, key: `d${i}#1` };
          });
          for (const [i, run] of runs.entries()) {
            if (run.fate === 'disconnect') detaches.get(i)!('socket closed');
            else {
              if (run.fate === 'forged-then-ack') expect(holder.acknowledge(run.key, `other${i}`)).toBe(false);
              expect(holder.acknowledge(run.key, run.project)).toBe(true);
              detaches.get(i)!('later'); // acknowledged already: changes nothing
            }
          }
          await Promise.all(runs.map((r) => r.promise));
          for (const [i, run] of runs.entries()) {
            const got = outcomes.get(i) ?? [];
            expect(got).toHaveLength(1);
            if (run.fate === 'disconnect') expect(got[0]).toMatchObject({ ok: false, code: 'runner_not_connected' });
            else expect(got[0]).toEqual({ ok: true });
          }
        },
      ),
      { numRuns: 50 },
    );
  });

  it('no ack within the timeout: delivery_timeout on the sender, and the late ack changes nothing', async () => {
    vi.useFakeTimers();
    const { sender, holder } = twoNodes(1_000);
    holder.attach('p1', 'socket-1', () => {});
    const outcomes: DeliveryOutcome[] = [];
    const delivered = sender.send('p1', execute('d1')).then((o) => outcomes.push(o));
    await vi.advanceTimersByTimeAsync(1_001);
    await delivered;
    expect(outcomes).toEqual([expect.objectContaining({ ok: false, code: 'delivery_timeout' })]);
    expect(holder.acknowledge('d1#1', 'p1')).toBe(true);
    expect(outcomes).toHaveLength(1);
  });

  it('nobody holds the project: the execute reaches no socket and the sender times out', async () => {
    vi.useFakeTimers();
    const { sender, holder } = twoNodes(1_000);
    const pushed: Execute[] = [];
    holder.attach('p2', 'socket-2', (e) => pushed.push(e));
    const delivered = sender.send('p1', execute('d1'));
    await vi.advanceTimersByTimeAsync(1_001);
    expect(await delivered).toMatchObject({ ok: false, code: 'delivery_timeout' });
    expect(pushed).toEqual([]);
  });

  it('messages that do not parse on the delivery and reply topics push nothing and settle nothing (15 forged messages)', async () => {
    vi.useFakeTimers();
    const { pubsub, sender, holder } = twoNodes(1_000);
    const pushed: unknown[] = [];
    holder.attach('p1', 'socket-1', (e) => pushed.push(e));
    const forged: unknown[] = [
      null,
      'execute',
      { execute: execute('d9') }, // no replyTo
      { execute: execute('d9'), replyTo: 'agent:victim' }, // replies only to gateway inboxes
      { execute: { ...execute('d9'), attempt: 0 }, replyTo: 'runner_replies:x' },
      { execute: { dispatchId: 'd9', attempt: 1, action: { type: 'rm -rf /' } }, replyTo: 'runner_replies:x' },
      { execute: { ...execute('d9'), dispatchId: '' }, replyTo: 'runner_replies:x' },
      [],
    ];
    for (const payload of forged) pubsub.broadcast({ topic: `${DELIVERY_TOPIC_PREFIX}p1`, event: 'execute', payload });
    pubsub.broadcast({
      topic: `${DELIVERY_TOPIC_PREFIX}p1`,
      event: 'other',
      payload: { execute: execute('d9'), replyTo: 'runner_replies:x' },
    });
    expect(pushed).toEqual([]);
    // Replies: the sender's inbox is private, but even a forged reply on every inbox-like topic is ignored unless well-formed.
    const outcomes: DeliveryOutcome[] = [];
    const delivered = sender.send('p1', execute('d1')).then((o) => outcomes.push(o));
    for (const payload of [null, { key: 'd1#1' }, { key: 'd1#1', outcome: { ok: 'yes' } }])
      for (const topic of ['runner_replies:guess', 'runner_replies:'])
        pubsub.broadcast({ topic, event: 'delivered', payload });
    expect(outcomes).toEqual([]);
    expect(holder.acknowledge('d1#1', 'p1')).toBe(true);
    await delivered;
    expect(outcomes).toEqual([{ ok: true }]);
  });
});
