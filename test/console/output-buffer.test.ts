// The live output buffer and hub, without I/O: the per-stream cap (the outcome cap) holds for any
// input, kept output is always a prefix of what arrived, replay + live never repeats or skips a
// chunk, and a runner cannot write into another project's or a stale attempt's stream.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiveOutput, type LiveEvent } from '../../src/live/live-output.ts';
import { OutputBuffer } from '../../src/live/output-buffer.ts';
import { createLogger } from '../../src/logger.ts';

const logger = createLogger('silent');
const chunkArb = fc.record({
  stream: fc.constantFrom('stdout' as const, 'stderr' as const),
  data: fc.string({ unit: 'grapheme', maxLength: 40 }),
});

describe('OutputBuffer', () => {
  it('keeps at most the cap per stream, a prefix of each stream, and flags truncation exactly when bytes were dropped', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 64 }), fc.array(chunkArb, { maxLength: 30 }), (cap, chunks) => {
        const buffer = new OutputBuffer(cap);
        for (const c of chunks) buffer.append(c.stream, c.data);
        const kept = buffer.since(-1);
        expect(kept.map((c) => c.seq)).toEqual(kept.map((_, i) => i));
        for (const stream of ['stdout', 'stderr'] as const) {
          const sent = chunks
            .filter((c) => c.stream === stream)
            .map((c) => c.data)
            .join('');
          const got = kept
            .filter((c) => c.stream === stream)
            .map((c) => c.data)
            .join('');
          expect(Buffer.byteLength(got, 'utf8')).toBeLessThanOrEqual(cap);
          expect(sent.startsWith(got)).toBe(true);
          if (Buffer.byteLength(sent, 'utf8') > cap) expect(buffer.truncated).toBe(true);
        }
        const total = chunks.reduce((n, c) => n + Buffer.byteLength(c.data, 'utf8'), 0);
        expect(buffer.keptBytes + buffer.droppedBytes).toBe(total);
        expect(buffer.truncated).toBe(buffer.droppedBytes > 0);
      }),
    );
  });

  it('never splits a UTF-8 character at the cap', () => {
    const buffer = new OutputBuffer(5);
    buffer.append('stdout', 'ab€€'); // 2 + 3 + 3 bytes: only "ab€" fits
    expect(
      buffer
        .since(-1)
        .map((c) => c.data)
        .join(''),
    ).toBe('ab€');
    expect(buffer.truncated).toBe(true);
  });

  it('refuses a cap that is not a whole number of bytes', () => {
    expect(() => new OutputBuffer(-1)).toThrow(RangeError);
    expect(() => new OutputBuffer(1.5)).toThrow(RangeError);
  });
});

function hub(
  dispatches: Record<string, { actionId: string; projectId: string; attempt: number }>,
  options: { retainSettled?: number; capBytes?: number } = {},
) {
  const published: Array<{ actionId: string; data: string }> = [];
  let lookups = 0;
  const live = new LiveOutput({
    capBytes: options.capBytes ?? 1024,
    logger,
    ...(options.retainSettled !== undefined ? { retainSettled: options.retainSettled } : {}),
    async resolveDispatch(id) {
      lookups++;
      const d = dispatches[id];
      return d
        ? { target: { actionId: d.actionId, projectId: d.projectId, proposerId: 'agent-dev' }, attempt: d.attempt }
        : null;
    },
    publish: (target, chunk) => published.push({ actionId: target.actionId, data: chunk.data }),
  });
  return { live, published, lookups: () => lookups };
}

const out = (dispatchId: string, seq: number, data: string, attempt = 1) => ({
  dispatchId,
  attempt,
  stream: 'stdout' as const,
  seq,
  data,
});

describe('LiveOutput', () => {
  it('streams a runner push only into its own project and current attempt, once per seq', async () => {
    const { live, published } = hub({ d1: { actionId: 'a1', projectId: 'p1', attempt: 2 } });
    await live.runnerOutput('p2', out('d1', 0, 'other project', 2));
    await live.runnerOutput('p1', out('d1', 0, 'stale attempt', 1));
    await live.runnerOutput('p1', out('d1', 0, 'one', 2));
    await live.runnerOutput('p1', out('d1', 0, 'one again', 2));
    await live.runnerOutput('p1', out('d1', 1, 'two', 2));
    await live.runnerOutput('p1', out('unknown', 0, 'junk', 1));
    expect(published).toEqual([
      { actionId: 'a1', data: 'one' },
      { actionId: 'a1', data: 'two' },
    ]);
  });

  it('does not remember unknown dispatch ids (a runner pushing junk cannot grow the gateway)', async () => {
    const { live, lookups } = hub({});
    for (let i = 0; i < 50; i++) await live.runnerOutput('p1', out(`junk-${i}`, 0, 'x'));
    await live.runnerOutput('p1', out('junk-0', 1, 'x'));
    expect(lookups()).toBe(51);
    expect(live.size).toBe(0);
  });

  it('replay then live then end: every chunk exactly once, in order, for watchers arriving at any point', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 8 }), { maxLength: 20 }),
        fc.array(fc.nat(20), { maxLength: 4 }),
        (texts, joinPoints) => {
          const { live } = hub({});
          const target = { actionId: 'a', projectId: 'p', proposerId: 'agent-dev' };
          const watchers: Array<{ events: string[]; ended: boolean; after: number }> = [];
          const startWatch = () => {
            const w = { events: [] as string[], ended: false, after: -1 };
            const watch = live.watch('a', -1, (e: LiveEvent) =>
              e.kind === 'chunk' ? w.events.push(e.chunk.data) : (w.ended = true),
            );
            w.events.push(...watch.replay.map((c) => c.data));
            if (watch.ended) w.ended = true;
            watchers.push(w);
          };
          texts.forEach((text, i) => {
            if (joinPoints.includes(i)) startWatch();
            live.brokerOutput(target, 'stdout', Buffer.from(text));
          });
          live.settled('a', 'executed');
          startWatch(); // after the end: replay and ended at once
          const expected = texts.filter((t) => t.length > 0);
          for (const w of watchers) {
            expect(w.events).toEqual(expected);
            expect(w.ended).toBe(true);
          }
        },
      ),
    );
  });

  it('decodes broker bytes per stream: a UTF-8 character split across frames arrives whole', () => {
    const { live, published } = hub({});
    const bytes = Buffer.from('é€😀', 'utf8');
    const target = { actionId: 'a', projectId: 'p', proposerId: 'agent-dev' };
    for (const byte of bytes) live.brokerOutput(target, 'stdout', Buffer.from([byte]));
    live.settled('a', 'executed');
    expect(published.map((p) => p.data).join('')).toBe('é€😀');
    expect(published.some((p) => p.data.includes('\uFFFD'))).toBe(false);
  });

  it('keeps settled buffers for a bounded number of actions only', () => {
    const { live } = hub({}, { retainSettled: 3 });
    for (let i = 0; i < 20; i++) {
      live.brokerOutput({ actionId: `a${i}`, projectId: 'p', proposerId: 'x' }, 'stdout', Buffer.from('out'));
      live.settled(`a${i}`, 'executed');
    }
    expect(live.size).toBe(3);
    expect(live.has('a19')).toBe(true);
    expect(live.has('a0')).toBe(false);
  });

  it('bounds unsettled buffers too (a settlement recorded on another node never arrives): the least recently active unwatched one goes', () => {
    const live = new LiveOutput({
      capBytes: 100,
      logger,
      maxOpen: 5,
      resolveDispatch: async () => null,
      publish: () => {},
    });
    const seen: string[] = [];
    live.watch('watched', -1, (e) => e.kind === 'chunk' && seen.push(e.chunk.data));
    for (let i = 0; i < 50; i++)
      live.brokerOutput({ actionId: `open-${i}`, projectId: 'p', proposerId: 'x' }, 'stdout', Buffer.from('x'));
    expect(live.size).toBe(5);
    expect(live.has('watched')).toBe(true); // someone is watching it: kept
    expect(live.has('open-49')).toBe(true);
    expect(live.has('open-0')).toBe(false);
    live.brokerOutput({ actionId: 'watched', projectId: 'p', proposerId: 'x' }, 'stdout', Buffer.from('still live'));
    expect(seen).toEqual(['still live']);
  });

  it('a watch on an action that never ran leaves nothing behind when it closes', () => {
    const { live } = hub({});
    const watch = live.watch('never', -1, () => {});
    watch.close();
    expect(live.size).toBe(0);
  });

  it('a listener or publisher that throws does not stop the others', () => {
    const live = new LiveOutput({
      capBytes: 100,
      logger,
      resolveDispatch: async () => null,
      publish: () => {
        throw new Error('publisher down');
      },
    });
    const seen: string[] = [];
    live.watch('a', -1, () => {
      throw new Error('bad listener');
    });
    live.watch('a', -1, (e) => e.kind === 'chunk' && seen.push(e.chunk.data));
    live.brokerOutput({ actionId: 'a', projectId: 'p', proposerId: 'x' }, 'stderr', Buffer.from('still here'));
    expect(seen).toEqual(['still here']);
  });
});
