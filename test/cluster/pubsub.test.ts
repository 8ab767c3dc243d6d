// The Postgres-backed PubSub between two nodes (its own pools, one schema). Polling is set to a
// minute, so what arrives came through LISTEN/NOTIFY: small batches in the NOTIFY payload itself,
// larger ones (past the 8000-byte NOTIFY limit) as a nudge to read the log. Counted: every message
// of a burst mixing both arrives exactly once, in the order it was broadcast; the note parser
// never throws and only accepts well-formed notes.
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BroadcastMessage } from '../../gateway/pubsub.ts';
import { parseNote } from '../../src/cluster/notify-note.ts';
import { PostgresPubSub } from '../../src/cluster/postgres-pubsub.ts';
import { createLogger } from '../../src/logger.ts';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/store.ts';
import { waitUntil } from '../e2e/support.ts';
import { TestSchemas } from '../store/contract-postgres.ts';

const schemas = new TestSchemas();
const logger = createLogger('silent');
let store: PostgresStore;
const pools: pg.Pool[] = [];
const nodes: PostgresPubSub[] = [];

async function node(url: string, nodeId: string): Promise<PostgresPubSub> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  const pubsub = new PostgresPubSub({ pool, url, nodeId, logger, pollMs: 60_000 });
  await pubsub.start();
  nodes.push(pubsub);
  return pubsub;
}

let a: PostgresPubSub;
let b: PostgresPubSub;

beforeAll(async () => {
  const schema = await schemas.create();
  store = await openPostgresStore(schema.url, { maxWriters: 1, maxReaders: 1 }); // migrates
  a = await node(schema.url, 'a');
  b = await node(schema.url, 'b');
});

afterAll(async () => {
  for (const pubsub of nodes) await pubsub.close();
  for (const pool of pools) await pool.end();
  await store?.close();
  await schemas.dropAll();
});

describe('Postgres pub/sub between nodes', () => {
  it('a burst mixing small and large messages arrives once each, in broadcast order, without polling', async () => {
    const received: BroadcastMessage[] = [];
    b.subscribe('t', { deliver: (m) => received.push(m) });
    const sent: Array<{ n: number; pad: string }> = [];
    for (let burst = 0; burst < 5; burst++) {
      for (let i = 0; i < 20; i++) {
        const n = sent.length;
        // Every seventh one is past NOTIFY's payload limit: it goes as a nudge and is read from the log.
        const payload = { n, pad: n % 7 === 3 ? 'x'.repeat(9_000) : '' };
        sent.push(payload);
        a.broadcast({ topic: 't', event: 'e', payload });
        // One batch (one INSERT and NOTIFY) each, so the next notes arrive while b reads a large one.
        await a.flushed();
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    await waitUntil(() => received.length >= sent.length, 'every message on node b', 30_000);
    await a.flushed();
    await new Promise((r) => setTimeout(r, 300)); // a duplicate would show up here
    expect(received.map((m) => (m.payload as { n: number }).n)).toEqual(sent.map((p) => p.n));
    expect(received.map((m) => (m.payload as { pad: string }).pad.length)).toEqual(sent.map((p) => p.pad.length));
  }, 60_000);

  it('parses well-formed notes exactly, and anything else as null without throwing', () => {
    const row = fc.tuple(
      fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
      fc.string(),
      fc.string(),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.string(), fc.array(row, { minLength: 1, maxLength: 5 }), (origin, rows) => {
        const parsed = parseNote(JSON.stringify({ o: origin, m: rows }));
        expect(parsed).toEqual(
          rows.map(([id, topic, event, payload]) => ({
            id,
            originNode: origin,
            topic,
            event,
            payload: JSON.parse(JSON.stringify(payload)),
          })),
        );
      }),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ o: 'n', m: v })),
        ),
        (body) => {
          const parsed = parseNote(body);
          if (parsed !== null) for (const m of parsed) expect(Number.isSafeInteger(m.id) && m.id > 0).toBe(true);
        },
      ),
    );
    for (const body of [
      '',
      '{}',
      '[]',
      'null',
      '{"o":1,"m":[[1,"t","e",{}]]}',
      '{"o":"n","m":[]}',
      '{"o":"n","m":[[0,"t","e",1]]}',
      '{"o":"n","m":[[1.5,"t","e",1]]}',
      '{"o":"n","m":[[1,2,"e",1]]}',
      '{"o":"n","m":[[1,"t","e"]]}',
      '{"o":"n"',
    ])
      expect(parseNote(body)).toBeNull();
  });
});
