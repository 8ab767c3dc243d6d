// Store faults on the real Postgres: a backend terminated under a checked-out write session
// (pg_terminate_backend, as in a failover or an idle-session kill) fails that unit with a named
// store_unavailable and never crashes the process (no unhandled 'error'); the next units reconnect;
// terminated idle sessions are replaced with backoff; an exhausted pool is a named store_busy, and
// over HTTP both are 503 with Retry-After, never 500.
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorHandler } from '../../src/http/errors.ts';
import { StoreBusyError, StoreUnavailableError } from '../../src/store/errors.ts';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/store.ts';
import { POSTGRES_TEST_URL, quiet, TestSchemas } from './contract-postgres.ts';

const schemas = new TestSchemas();
const admin = quiet(new pg.Pool({ connectionString: POSTGRES_TEST_URL, max: 2 }));
afterAll(async () => {
  await schemas.dropAll();
  await admin.end();
});

let schema: { name: string; url: string };
let store: PostgresStore;
const unhandled: unknown[] = [];
const onUnhandled = (error: unknown): void => {
  unhandled.push(error);
};

beforeEach(async () => {
  schema = await schemas.create();
  process.on('uncaughtException', onUnhandled);
  process.on('unhandledRejection', onUnhandled);
});
afterEach(async () => {
  process.off('uncaughtException', onUnhandled);
  process.off('unhandledRejection', onUnhandled);
  await store?.close();
  await schemas.drop(schema.name);
  unhandled.length = 0;
});

/** This test's own sessions only (parallel files share the server): a unique application_name. */
const appName = `brabo_faults_${process.pid}`;
const url = (): string => `${schema.url}&application_name=${appName}`;

/** Terminates this store's sessions in `state` (all when null); returns how many. */
async function terminate(state: string | null): Promise<number> {
  const { rows } = await admin.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND ($2::text IS NULL OR state = $2)',
    [appName, state],
  );
  return rows.length;
}

const insertProject = (id: string) => (tx: Parameters<Parameters<PostgresStore['transaction']>[0]>[0]) =>
  tx.projects.insert({
    id,
    name: id,
    slug: id,
    executionMode: 'runner',
    root: `/tmp/${id}`,
    workspaceDirName: id,
    ownerId: 'o',
    moduleMap: {},
    executionActivatedAt: null,
    workspaceVerifiedAt: null,
    createdAt: new Date().toISOString(),
  } as never);

describe('Postgres store faults', () => {
  it('a backend terminated inside a transaction: that unit fails store_unavailable, nothing crashes, the next units reconnect', async () => {
    store = await openPostgresStore(url(), { maxWriters: 2, maxReaders: 2 });
    const dying = store.transaction(async (tx) => {
      await insertProject('p-doomed')(tx);
      expect(await terminate('idle in transaction')).toBe(1);
      await insertProject('p-doomed-2')(tx);
    });
    await expect(dying).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(dying).rejects.toMatchObject({ code: 'store_unavailable' });
    // The unit rolled back with its session; the store goes on.
    await store.transaction(insertProject('p-after'));
    expect(await store.read.projects.get('p-after')).toMatchObject({ id: 'p-after' });
    expect(await store.read.projects.get('p-doomed')).toBeNull();
    await new Promise((r) => setTimeout(r, 50));
    expect(unhandled).toEqual([]);
  });

  it('every idle session terminated (failover): reads and transactions reconnect with backoff, 20 rounds', async () => {
    store = await openPostgresStore(url(), { maxWriters: 3, maxReaders: 3 });
    let killed = 0;
    for (let round = 0; round < 20; round++) {
      await Promise.all([
        store.transaction(insertProject(`p${round}`)),
        store.read.projects.get('x'),
        store.read.projects.get('y'),
      ]);
      killed += await terminate(null);
    }
    expect(killed).toBeGreaterThanOrEqual(20);
    expect(await store.read.projects.get('p19')).toMatchObject({ id: 'p19' });
    await new Promise((r) => setTimeout(r, 50));
    expect(unhandled).toEqual([]);
  });

  it('an exhausted pool is store_busy; over HTTP it is 503 with Retry-After', async () => {
    store = await openPostgresStore(url(), { maxWriters: 1, maxReaders: 1, connectTimeoutMs: 200 });
    let release!: () => void;
    const holding = store.transaction(() => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((r) => setTimeout(r, 50));
    const busy = await store.transaction(insertProject('p-busy')).catch((error: unknown) => error);
    expect(busy).toBeInstanceOf(StoreBusyError);
    expect(busy).toMatchObject({ code: 'store_busy' });
    release();
    await holding;
    await store.transaction(insertProject('p-free'));

    const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
    const reply = {
      code(status: number) {
        sent.status = status;
        return reply;
      },
      header(name: string, value: string) {
        sent.headers[name] = value;
        return reply;
      },
      send(body: unknown) {
        sent.body = body;
        return reply;
      },
    };
    const request = { log: { warn() {}, error() {} } };
    errorHandler(busy as never, request as never, reply as never);
    expect(sent).toMatchObject({ status: 503, headers: { 'retry-after': '1' }, body: { error: 'store_busy' } });
  });
});
