// The Postgres adapter on the real server: the shared store contract, then what only a networked,
// multi-node store must get right (concurrent approvals, concurrent migrations, the event cursor
// under concurrent writers) and its start-up failures.
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.ts';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/store.ts';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { action, describeStoreContract, event, project } from './contract.ts';
import { POSTGRES_TEST_URL, postgresFixture, TestSchemas } from './contract-postgres.ts';

const schemas = new TestSchemas();
afterAll(() => schemas.dropAll());

describeStoreContract('postgres', postgresFixture(schemas));

/** Opens `n` stores (nodes) on one fresh schema at the same time. */
async function nodes(n: number): Promise<{ stores: PostgresStore[]; schema: string; close(): Promise<void> }> {
  const schema = await schemas.create();
  const stores = await Promise.all(
    Array.from({ length: n }, () => openPostgresStore(schema.url, { maxWriters: 6, maxReaders: 2 })),
  );
  return {
    stores,
    schema: schema.name,
    async close() {
      for (const store of stores) await store.close();
      await schemas.drop(schema.name);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('postgres store', () => {
  it('ships the same migration versions and names as the SQLite store', () => {
    expect(POSTGRES_MIGRATIONS.map(({ version, name }) => ({ version, name }))).toEqual(
      MIGRATIONS.map(({ version, name }) => ({ version, name })),
    );
  });

  it('two nodes starting at once: one runs the migrations, the other finds the schema current', async () => {
    const cluster = await nodes(3);
    try {
      const applied = cluster.stores.map((store) => store.appliedMigrations);
      expect(applied.filter((versions) => versions.length > 0)).toEqual([POSTGRES_MIGRATIONS.map((m) => m.version)]);
      expect(applied.filter((versions) => versions.length === 0)).toHaveLength(2);
      const rows = await schemas.query(cluster.schema, 'SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((row) => row.version)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
      // Every node works on the one schema.
      await cluster.stores[0]?.transaction((tx) => tx.projects.insert(project('p1')));
      expect(await cluster.stores[2]?.read.projects.get('p1')).not.toBeNull();
    } finally {
      await cluster.close();
    }
  });

  it('two approvals of one pending action at once, on two nodes: exactly one winner, one event, one hand-off', async () => {
    const cluster = await nodes(2);
    try {
      const [a, b] = cluster.stores as [PostgresStore, PostgresStore];
      await a.transaction((tx) => tx.projects.insert(project('p1')));
      for (let round = 0; round < 8; round++) {
        const id = `race-${round}`;
        await a.transaction((tx) => tx.actions.insert(action(id)));
        // Both transactions read `pending` before either decides: the race the UI double click makes.
        let arrived = 0;
        let release!: () => void;
        const bothRead = new Promise<void>((resolve) => (release = resolve));
        const approveOn = (store: PostgresStore, user: string) =>
          store.transaction(async (tx) => {
            const seen = await tx.actions.get(id);
            if (++arrived === 2) release();
            await bothRead;
            if (seen?.status !== 'pending') return false;
            if (!(await tx.actions.decideIfPending(id, 'approved', user, new Date().toISOString(), null))) return false;
            await tx.events.append({
              ...event('p1', { actionType: 'terminal' }),
              type: 'proposed_action.approved',
              actorKind: 'user',
              actorId: user,
              actionId: id,
            });
            await tx.handoffs.enqueue({
              id: `h-${id}`,
              actionId: id,
              projectId: 'p1',
              credentialRef: 'olivia',
              createdAt: new Date().toISOString(),
            });
            return true;
          });
        const won = await Promise.all([approveOn(a, 'max'), approveOn(b, 'olivia')]);
        expect(won.filter(Boolean)).toHaveLength(1);
        const stored = await b.read.actions.get(id);
        expect(stored?.decidedBy).toBe(won[0] ? 'max' : 'olivia');
        const approvals = await schemas.query(
          cluster.schema,
          `SELECT count(*)::int AS n FROM session_events WHERE action_id = '${id}'`,
        );
        expect(approvals).toEqual([{ n: 1 }]);
        expect((await a.read.handoffs.getByAction(id))?.id).toBe(`h-${id}`);
      }
    } finally {
      await cluster.close();
    }
  });

  it('two proposals of one PR at once on two nodes: the second waits for the first and sees its live merge key (no unique-index error)', async () => {
    const cluster = await nodes(2);
    try {
      const [a, b] = cluster.stores as [PostgresStore, PostgresStore];
      await a.transaction((tx) => tx.projects.insert(project('p1')));
      let firstInserted!: () => void;
      const inserted = new Promise<void>((resolve) => (firstInserted = resolve));
      const propose = (store: PostgresStore, id: string, holdMs: number, waitFirst: boolean) =>
        store.transaction(async (tx) => {
          if (waitFirst) await inserted;
          if (await tx.actions.liveMergeExists('p1:42')) return 'merge_ja_proposto';
          await tx.actions.insert(
            action(id, { actionType: 'git_merge', payload: { prNumber: 42 }, liveMergeKey: 'p1:42' }),
          );
          firstInserted();
          await sleep(holdMs); // still uncommitted while the other node checks
          return 'created';
        });
      const outcomes = await Promise.all([propose(a, 'm1', 60, false), propose(b, 'm2', 0, true)]);
      expect(outcomes).toEqual(['created', 'merge_ja_proposto']);
      expect(await a.read.actions.get('m2')).toBeNull();
    } finally {
      await cluster.close();
    }
  });

  it('event cursor under concurrent appends from two nodes: strictly increasing, and a poller following listAfter never skips one', async () => {
    const cluster = await nodes(2);
    try {
      const [a, b] = cluster.stores as [PostgresStore, PostgresStore];
      await a.transaction(async (tx) => {
        await tx.projects.insert(project('p1'));
        await tx.projects.insert(project('p2'));
      });
      const writers = 24;
      let writing = true;
      // Each writer appends, then holds its transaction open for a while before appending again
      // (postgres-event-cursor.test.ts holds the window between the INSERT and the COMMIT open).
      const appends = Promise.all(
        Array.from({ length: writers }, (_, i) =>
          (i % 2 === 0 ? a : b).transaction(async (tx) => {
            await tx.events.append(event(i % 3 === 0 ? 'p2' : 'p1', { writer: i, n: 0 }));
            await sleep((i * 7) % 25);
            await tx.events.append(event(i % 3 === 0 ? 'p2' : 'p1', { writer: i, n: 1 }));
          }),
        ),
      ).finally(() => (writing = false));
      const seen: number[] = [];
      let cursor = 0;
      const poll = async () => {
        const batch = await b.read.events.listAfter('p1', cursor, 5);
        for (const e of batch) seen.push(e.id);
        cursor = batch.at(-1)?.id ?? cursor;
      };
      while (writing) {
        await poll();
        await sleep(2);
      }
      await appends;
      for (let drained = false; !drained;) {
        const before = seen.length;
        await poll();
        drained = seen.length === before;
      }
      const everyId = [
        ...(await a.read.events.listAfter('p1', 0, 1000)),
        ...(await a.read.events.listAfter('p2', 0, 1000)),
      ].map((e) => e.id);
      expect(new Set(everyId).size).toBe(writers * 2);
      const all = (await a.read.events.listAfter('p1', 0, 1000)).map((e) => e.id);
      expect(all.length).toBeGreaterThan(writers);
      expect(seen).toEqual(all);
      for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1] as number);
    } finally {
      await cluster.close();
    }
  });

  it('the read side is read-only and TRUNCATE of the event log is refused too', async () => {
    const cluster = await nodes(1);
    try {
      const [store] = cluster.stores as [PostgresStore];
      await store.transaction((tx) => tx.projects.insert(project('p1')));
      await expect(store.read.events.append(event('p1', {}))).rejects.toThrow(/read-only/);
      await store.transaction((tx) => tx.events.append(event('p1', {})));
      await expect(schemas.query(cluster.schema, 'TRUNCATE session_events')).rejects.toThrow(/append-only/);
      expect(await store.read.events.count('p1', 't')).toBe(1);
    } finally {
      await cluster.close();
    }
  });

  it('close waits for a transaction in flight, then refuses reads and writes with store_closed', async () => {
    const cluster = await nodes(1);
    try {
      const [store] = cluster.stores as [PostgresStore];
      const inFlight = store.transaction(async (tx) => {
        await sleep(50);
        await tx.projects.insert(project('late'));
        return 'committed';
      });
      await sleep(5);
      await store.close();
      expect(await inFlight).toBe('committed');
      await expect(store.read.projects.get('late')).rejects.toMatchObject({ code: 'store_closed' });
      const again = await openPostgresStore(
        `${POSTGRES_TEST_URL}?options=${encodeURIComponent(`-c search_path=${cluster.schema}`)}`,
      );
      expect(await again.read.projects.get('late')).not.toBeNull();
      await again.close();
    } finally {
      await cluster.close();
    }
  });
});

describe('postgres selection and start-up failures', () => {
  it('DATABASE_URL: postgres:// and postgresql:// select Postgres; another scheme or a non-URL is a ConfigError that does not echo the URL', () => {
    const env = { BRABO_DATA_DIR: '/tmp/brabo-x' };
    expect(loadConfig({}, env).databaseUrl).toBeNull();
    expect(loadConfig({}, { ...env, DATABASE_URL: '' }).databaseUrl).toBeNull();
    expect(loadConfig({}, { ...env, DATABASE_URL: 'postgres://u@h/db' }).databaseUrl).toBe('postgres://u@h/db');
    expect(loadConfig({}, { ...env, DATABASE_URL: 'postgresql://u@h/db' }).databaseUrl).toBe('postgresql://u@h/db');
    expect(() => loadConfig({}, { ...env, DATABASE_URL: 'mysql://root:s3cret@h/db' })).toThrow(ConfigError);
    expect(() => loadConfig({}, { ...env, DATABASE_URL: 'mysql://root:s3cret@h/db' })).toThrow(/only a Postgres URL/);
    expect(() => loadConfig({}, { ...env, DATABASE_URL: 'mysql://root:s3cret@h/db' })).not.toThrow(/s3cret/);
    expect(() => loadConfig({}, { ...env, DATABASE_URL: 'sqlite.db' })).toThrow(/DATABASE_URL is not a URL/);
  });

  it('an unreachable server is a named error naming host, port and errno', async () => {
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    const failure = openPostgresStore('postgres://postgres:s3cret@127.0.0.1:1/test');
    await expect(failure).rejects.toMatchObject({
      name: 'PostgresUnreachableError',
      code: 'postgres_unreachable',
      errno: 'ECONNREFUSED',
      endpoint: { host: '127.0.0.1', port: 1, database: 'test' },
    });
    await expect(failure).rejects.toThrow(
      /Postgres at 127\.0\.0\.1:1 \(database "test"\) is unreachable \(ECONNREFUSED/,
    );
    await expect(failure).rejects.not.toThrow(/s3cret/);
  });

  it('an unknown database or a missing schema is a named start error with the server reason', async () => {
    await expect(openPostgresStore(POSTGRES_TEST_URL.replace(/\/test$/, '/brabo_no_such_db'))).rejects.toMatchObject({
      code: 'postgres_start_failed',
      sqlState: '3D000',
      message: expect.stringMatching(/database "brabo_no_such_db" does not exist/),
    });
    await expect(
      openPostgresStore(
        `${POSTGRES_TEST_URL}?options=${encodeURIComponent(`-c search_path=${schemas.prefix}_missing`)}`,
      ),
    ).rejects.toMatchObject({
      code: 'postgres_start_failed',
      message: expect.stringMatching(/could not be migrated: no schema of the search_path exists/),
    });
  });
});
