// The Postgres event cursor with the appends deferred to the COMMIT's round trip (events.ts). The
// window a reader could skip through is the one between a writer's INSERT and its COMMIT, so most
// writers here hold exactly that window open: inside BEGIN they run the same lock-and-insert
// statement at once (a PostgresEvents outside deferral), wait, then COMMIT. Others go the store's
// way (deferred appends, then `commit`).
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresEvents } from '../../src/store/postgres/events.ts';
import { type Queryable, Sql } from '../../src/store/postgres/sql.ts';
import { openPostgresStore } from '../../src/store/postgres/store.ts';
import { event, project } from './contract.ts';
import { quiet, TestSchemas } from './contract-postgres.ts';

const schemas = new TestSchemas();
afterAll(() => schemas.dropAll());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function setUp() {
  const schema = await schemas.create();
  const store = await openPostgresStore(schema.url, { maxWriters: 2, maxReaders: 2 });
  await store.transaction(async (tx) => {
    await tx.projects.insert(project('p1'));
    await tx.projects.insert(project('p2'));
  });
  const pool = quiet(new pg.Pool({ connectionString: schema.url, max: 12 }));
  /**
   * One writer. `holdMs` null: the store's path (deferred appends, one round trip with the COMMIT).
   * Otherwise each append's lock-and-insert runs at once, then `holdMs` passes before the COMMIT.
   */
  const write = async (
    appends: Array<[string, Record<string, unknown>]>,
    holdMs: number | null,
    inserted?: () => void,
  ) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const events = new PostgresEvents(new Sql(client as Queryable), { deferred: holdMs === null });
      for (const [projectId, payload] of appends) await events.append(event(projectId, payload));
      if (holdMs === null) return await events.commit();
      inserted?.();
      await sleep(holdMs);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };
  return {
    store,
    write,
    async close() {
      await pool.end();
      await store.close();
      await schemas.drop(schema.name);
    },
  };
}

describe('postgres event cursor (appends written in the COMMIT round trip)', () => {
  it('a second writer of the project waits for the first one to commit: its events are never visible before the earlier ones', async () => {
    const t = await setUp();
    try {
      let firstFlushed!: () => void;
      const firstIn = new Promise<void>((resolve) => (firstFlushed = resolve));
      const first = t.write([['p1', { w: 1 }]], 300, firstFlushed);
      await firstIn;
      let secondDone = false;
      const second = t.write([['p1', { w: 2 }]], null).then(() => (secondDone = true));
      // Another project never waits on p1's lock.
      await t.write([['p2', { w: 3 }]], null);
      await sleep(100);
      expect(secondDone).toBe(false);
      expect(await t.store.read.events.listAfter('p1', 0, 10)).toEqual([]);
      expect((await t.store.read.events.listAfter('p2', 0, 10)).map((e) => e.payload)).toEqual([{ w: 3 }]);
      await Promise.all([first, second]);
      const p1 = await t.store.read.events.listAfter('p1', 0, 10);
      expect(p1.map((e) => e.payload)).toEqual([{ w: 1 }, { w: 2 }]);
      expect(p1[1]!.id).toBeGreaterThan(p1[0]!.id);
    } finally {
      await t.close();
    }
  });

  it('one transaction appending to two projects: each project gets its events in append order', async () => {
    const t = await setUp();
    try {
      await t.write(
        [
          ['p2', { n: 0 }],
          ['p1', { n: 1 }],
          ['p2', { n: 2 }],
          ['p1', { n: 3 }],
          ['p1', { n: 4 }],
        ],
        null,
      );
      expect((await t.store.read.events.listAfter('p1', 0, 10)).map((e) => e.payload)).toEqual([
        { n: 1 },
        { n: 3 },
        { n: 4 },
      ]);
      expect((await t.store.read.events.listAfter('p2', 0, 10)).map((e) => e.payload)).toEqual([{ n: 0 }, { n: 2 }]);
    } finally {
      await t.close();
    }
  });

  it('payloads and ids travel as escaped literals: quotes, backslashes, unicode and SQL survive byte for byte', async () => {
    const t = await setUp();
    try {
      const tricky = [
        { s: "it's" },
        { s: "'); DROP TABLE session_events; --" },
        { s: "back\\slash \\' E'x'" },
        { s: 'olá 🌍 \u2028 "quoted" $$dollar$$ $tag$' },
        { nested: { a: [1, null, true, 'x\ny'] }, empty: {} },
      ];
      await t.write(
        tricky.map((payload) => ['p1', payload] as [string, Record<string, unknown>]),
        null,
      );
      expect((await t.store.read.events.listAfter('p1', 0, 10)).map((e) => e.payload)).toEqual(tricky);
    } finally {
      await t.close();
    }
  });

  it('10 concurrent writers, most holding INSERT-to-COMMIT open, a poller following listAfter: every event seen once, in id order, none skipped', async () => {
    const t = await setUp();
    try {
      const writers = 10;
      let writing = true;
      const appends = Promise.all(
        Array.from({ length: writers }, async (_, i) => {
          await sleep((i * 11) % 17);
          const projectId = i % 4 === 0 ? 'p2' : 'p1';
          // Writers on both projects in one transaction too (flushed in a fixed project order).
          const extra: Array<[string, Record<string, unknown>]> = i % 5 === 0 ? [['p2', { writer: i, n: 2 }]] : [];
          await t.write(
            [[projectId, { writer: i, n: 0 }], [projectId, { writer: i, n: 1 }], ...extra],
            i % 3 === 0 ? null : (i * 7) % 40,
          );
        }),
      ).finally(() => (writing = false));
      const seen: number[] = [];
      let cursor = 0;
      const poll = async () => {
        const batch = await t.store.read.events.listAfter('p1', cursor, 3);
        for (const e of batch) seen.push(e.id);
        cursor = batch.at(-1)?.id ?? cursor;
      };
      let polls = 0;
      while (writing) {
        await poll();
        polls++;
      }
      await appends;
      for (let drained = false; !drained;) {
        const before = seen.length;
        await poll();
        drained = seen.length === before;
      }
      const all = (await t.store.read.events.listAfter('p1', 0, 1000)).map((e) => e.id);
      const p1Writers = Array.from({ length: writers }, (_, i) => i).filter((i) => i % 4 !== 0).length;
      expect(all).toHaveLength(p1Writers * 2);
      expect(polls).toBeGreaterThan(writers);
      expect(seen).toEqual(all);
      for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1] as number);
      expect(await t.store.read.events.count('p2', 't')).toBe((writers - p1Writers) * 2 + 2);
    } finally {
      await t.close();
    }
  });
});
