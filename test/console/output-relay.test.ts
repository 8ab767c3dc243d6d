// Live output mirrored to the other nodes of a cluster (issue 14.3), without I/O: two LiveOutput
// hubs joined by PubSubOutputRelay over one pub/sub. The mirror holds exactly the origin's chunks
// (same seqs, same text, same truncation) and ends with it; a lossy link leaves gaps, never a
// reorder, a repeat or more than the cap; watchers on the mirror see replay + live exactly once;
// and a relayed message that does not parse changes nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BroadcastMessage, LocalPubSub, type PubSub, type Subscriber } from '../../gateway/pubsub.ts';
import { LiveOutput, type LiveEvent } from '../../src/live/live-output.ts';
import type { OutputChunk } from '../../src/live/output-buffer.ts';
import { LIVE_OUTPUT_TOPIC, PubSubOutputRelay } from '../../src/live/output-relay.ts';
import { createLogger } from '../../src/logger.ts';

const logger = createLogger('silent');
const target = { actionId: 'a', projectId: 'p', proposerId: 'agent-dev' };

/** A pub/sub that drops the broadcasts `drop` says to (a lost message between nodes). */
class LossyPubSub implements PubSub {
  readonly #inner = new LocalPubSub();
  readonly #drop: (index: number) => boolean;
  #count = 0;
  constructor(drop: (index: number) => boolean) {
    this.#drop = drop;
  }
  subscribe(topic: string, subscriber: Subscriber): void {
    this.#inner.subscribe(topic, subscriber);
  }
  unsubscribe(topic: string, subscriber: Subscriber): void {
    this.#inner.unsubscribe(topic, subscriber);
  }
  broadcast(message: BroadcastMessage): void {
    if (!this.#drop(this.#count++)) this.#inner.broadcast(message);
  }
  localSubscriberCount(topic: string): number {
    return this.#inner.localSubscriberCount(topic);
  }
}

function pair(capBytes: number, pubsub: PubSub = new LocalPubSub()) {
  const published: OutputChunk[] = [];
  const make = (publish: (chunk: OutputChunk) => void) => {
    const relay = new PubSubOutputRelay(pubsub, logger);
    const live = new LiveOutput({
      capBytes,
      logger,
      relay,
      resolveDispatch: async () => null,
      publish: (_target, chunk) => publish(chunk),
    });
    relay.attach(live);
    return live;
  };
  const origin = make((chunk) => published.push(chunk));
  const mirror = make(() => {
    throw new Error('a mirror never publishes: the origin did, cluster-wide');
  });
  return { origin, mirror, published };
}

const kept = (live: LiveOutput) => live.watch('a', -1, () => {});

const chunkArb = fc.record({
  stream: fc.constantFrom('stdout' as const, 'stderr' as const),
  data: fc.string({ unit: 'grapheme', maxLength: 30 }),
});

describe('live output mirrored across nodes', () => {
  it('the mirror holds the origin chunks with their seqs, the same truncation, and ends with the same status', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 80 }),
        fc.array(chunkArb, { maxLength: 25 }),
        fc.constantFrom('executed' as const, 'failed' as const, 'denied' as const),
        (cap, chunks, status) => {
          const { origin, mirror, published } = pair(cap);
          const ends: LiveEvent[] = [];
          mirror.watch('a', -1, (e) => e.kind === 'end' && ends.push(e));
          for (const c of chunks) origin.brokerOutput(target, c.stream, Buffer.from(c.data));
          origin.settled('a', status);
          const o = kept(origin);
          const m = kept(mirror);
          expect(m.replay).toEqual(o.replay);
          expect(m.replay).toEqual(published);
          expect(m.truncated).toBe(o.truncated);
          expect(m.ended).toEqual(o.ended);
          expect(ends).toEqual([{ kind: 'end', end: { status, truncated: o.truncated } }]);
        },
      ),
    );
  });

  it('a lossy link leaves gaps only: increasing seqs, each equal to the origin chunk of that seq, within the cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 80 }),
        fc.array(chunkArb, { maxLength: 25 }),
        fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }),
        (cap, chunks, drops) => {
          const { origin, mirror } = pair(cap, new LossyPubSub((i) => drops[i % drops.length] === true));
          for (const c of chunks) origin.brokerOutput(target, c.stream, Buffer.from(c.data));
          const bySeq = new Map(kept(origin).replay.map((c) => [c.seq, c]));
          const got = kept(mirror).replay;
          for (let i = 1; i < got.length; i++) expect(got[i]!.seq).toBeGreaterThan(got[i - 1]!.seq);
          for (const c of got) expect(c).toEqual(bySeq.get(c.seq));
          for (const stream of ['stdout', 'stderr'] as const) {
            const bytes = Buffer.byteLength(
              got
                .filter((c) => c.stream === stream)
                .map((c) => c.data)
                .join(''),
            );
            expect(bytes).toBeLessThanOrEqual(cap);
          }
        },
      ),
    );
  });

  it('watchers on the mirror, joining at any point, see every chunk exactly once and in order, then the end', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 20 }),
        fc.array(fc.nat(20), { maxLength: 4 }),
        fc.integer({ min: -1, max: 20 }),
        (texts, joinPoints, after) => {
          const { origin, mirror } = pair(10_000);
          const watchers: Array<{ seqs: number[]; ended: number; after: number }> = [];
          const startWatch = () => {
            const w = { seqs: [] as number[], ended: 0, after };
            const watch = mirror.watch('a', after, (e) => (e.kind === 'chunk' ? w.seqs.push(e.chunk.seq) : w.ended++));
            w.seqs.unshift(...watch.replay.map((c) => c.seq));
            if (watch.ended) w.ended++;
            watchers.push(w);
          };
          texts.forEach((text, i) => {
            if (joinPoints.includes(i)) startWatch();
            origin.brokerOutput(target, 'stdout', Buffer.from(text));
          });
          origin.settled('a', 'executed');
          startWatch();
          const all = kept(origin).replay.map((c) => c.seq);
          for (const w of watchers) {
            expect(w.seqs).toEqual(all.filter((seq) => seq > w.after));
            expect(w.ended).toBe(1);
          }
        },
      ),
    );
  });

  it('ignores relayed messages that do not parse (12 variants): the mirror keeps nothing and does not end', () => {
    const pubsub = new LocalPubSub();
    const { mirror } = pair(1024, pubsub);
    const chunk = { seq: 0, stream: 'stdout', data: 'x' };
    const variants: unknown[] = [
      null,
      'chunk',
      42,
      [],
      {},
      { kind: 'chunk' },
      { kind: 'chunk', target, chunk, truncated: 'no' },
      { kind: 'chunk', target: { actionId: 'a' }, chunk, truncated: false },
      { kind: 'chunk', target, chunk: { ...chunk, seq: -1 }, truncated: false },
      { kind: 'chunk', target, chunk: { ...chunk, stream: 'stdin' }, truncated: false },
      { kind: 'end', actionId: 'a', status: 'exploded' },
      { kind: 'end', status: 'executed' },
    ];
    for (const payload of variants) pubsub.broadcast({ topic: LIVE_OUTPUT_TOPIC, event: 'chunk', payload });
    const watch = kept(mirror);
    expect(watch.replay).toEqual([]);
    expect(watch.ended).toBeNull();
  });
});
