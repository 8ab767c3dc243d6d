// The SQLite adapter: the shared store contract, plus what only the embedded store does (WAL,
// one writer whose units of work run one at a time, group commit).
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommitWriter } from '../../src/store/sqlite/group-commit.ts';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { openSqliteStore, SQLITE_FILE_NAME, type SqliteStore } from '../../src/store/sqlite/store.ts';
import type { Repositories, Store } from '../../src/store/types.ts';
import { action, describeStoreContract, project, type RawRow, type StoreFixture } from './contract.ts';

async function sqliteFixture(): Promise<StoreFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'brabo-store-'));
  const opened: Store[] = [];
  return {
    migrationVersions: MIGRATIONS.map(({ version }) => version),
    async open() {
      const store = openSqliteStore(dir);
      opened.push(store);
      return store;
    },
    async sql(text) {
      const raw = new DatabaseSync(join(dir, SQLITE_FILE_NAME));
      try {
        return raw.prepare(text).all() as RawRow[];
      } finally {
        raw.close();
      }
    },
    async dispose() {
      for (const store of opened) await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describeStoreContract('sqlite', sqliteFixture);

describe('sqlite store', () => {
  let dir: string;
  let store: SqliteStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'brabo-store-'));
    store = openSqliteStore(dir);
    await store.transaction((tx) => tx.projects.insert(project('p1')));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the file in WAL mode (synchronous FULL is set per connection)', async () => {
    const raw = new DatabaseSync(join(dir, SQLITE_FILE_NAME), { readOnly: true });
    expect(raw.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    raw.close();
  });

  it('serializes transactions that await in the middle (no interleaving on the one writer)', async () => {
    const order: string[] = [];
    const slow = store.transaction(async (tx) => {
      order.push('slow:start');
      await new Promise((r) => setTimeout(r, 30));
      await tx.actions.insert(action('s1'));
      order.push('slow:end');
    });
    const fast = store.transaction(async (tx) => {
      order.push('fast:start');
      await tx.actions.insert(action('f1'));
      order.push('fast:end');
    });
    await Promise.all([slow, fast]);
    expect(order).toEqual(['slow:start', 'slow:end', 'fast:start', 'fast:end']);
  });

  it('group commit: units submitted together commit together, a failing unit rolls back alone', async () => {
    const results = await Promise.allSettled([
      store.transaction((tx) => tx.actions.insert(action('g1'))),
      store.transaction(async (tx) => {
        await tx.actions.insert(action('g2'));
        throw new Error('unit failed');
      }),
      store.transaction(async (tx) => {
        // Serial semantics inside a batch: the earlier unit's write is visible.
        expect(await tx.actions.get('g1')).not.toBeNull();
        await tx.actions.insert(action('g3'));
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await store.read.actions.get('g1')).not.toBeNull();
    expect(await store.read.actions.get('g2')).toBeNull();
    expect(await store.read.actions.get('g3')).not.toBeNull();
  });

  it('reads never see a transaction that has not committed, and see it as soon as it has (writer cache or reader)', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const written = new Promise<void>((r) => (inserted = r));
    const commit = store.transaction(async (tx) => {
      await tx.actions.insert(action('u1'));
      inserted();
      await held; // the transaction stays open (uncommitted) while the reads below run
    });
    await written;
    expect(await store.read.actions.get('u1')).toBeNull();
    expect(await store.read.actions.list('p1', { limit: 10 })).toEqual([]);
    release();
    await commit;
    expect(await store.read.actions.get('u1')).not.toBeNull();
    expect((await store.read.actions.list('p1', { limit: 10 })).map((a) => a.id)).toEqual(['u1']);
  });

  it('the read side refuses writes (store.read is read-only even when it reads from the writer)', async () => {
    await expect(store.read.actions.insert(action('r1'))).rejects.toThrow(/readonly|read-only/i);
    expect(await store.read.actions.get('r1')).toBeNull();
  });

  it('WAL checkpoints run on a worker thread: committed pages reach the database file, close() removes the WAL', async () => {
    const dbFile = join(dir, SQLITE_FILE_NAME);
    const before = statSync(dbFile).size;
    // Far below the writer's own automatic-checkpoint threshold: only the worker copies pages back.
    for (let i = 0; i < 300; i++)
      await store.transaction((tx) => tx.actions.insert(action(`w${i}`, { reason: 'x'.repeat(500) })));
    const deadline = Date.now() + 10_000;
    while (statSync(dbFile).size <= before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(statSync(dbFile).size).toBeGreaterThan(before);
    await store.close();
    expect(existsSync(`${dbFile}-wal`)).toBe(false); // the last connection (the worker's too) is closed
  });
});

describe('group commit window', () => {
  it('units submitted by separate callbacks of one event-loop turn (requests read together) share one COMMIT', async () => {
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE t (n INTEGER)');
    const run = db.exec.bind(db);
    let commits = 0;
    db.exec = (sql: string) => {
      if (sql === 'COMMIT') commits++;
      run(sql);
    };
    const writer = new GroupCommitWriter(db, {} as Repositories);
    const insert = (n: number) => () => writer.submit(async () => db.prepare('INSERT INTO t (n) VALUES (?)').run(n));
    // Three "I/O callbacks" of the same turn, each submitting its unit.
    const submitted = await new Promise<Promise<unknown>[]>((resolve) => {
      const units: Promise<unknown>[] = [];
      setImmediate(() => units.push(insert(1)()));
      setImmediate(() => units.push(insert(2)()));
      setImmediate(() => {
        units.push(insert(3)());
        resolve(units);
      });
    });
    await Promise.all(submitted);
    expect(commits).toBe(1);
    expect(db.prepare('SELECT count(*) AS c FROM t').get()).toEqual({ c: 3 });
    // A later, lone unit commits on its own without waiting for a timer.
    await insert(4)();
    expect(commits).toBe(2);
    db.close();
  });
});
