// The multi-node store: Postgres through `pg`. Two pools: writers run each `transaction` as a
// real BEGIN ... COMMIT on one checked-out client (READ COMMITTED; every contended move is a
// conditional UPDATE, so concurrent writers on any node serialize on the row and exactly one
// wins), readers use a pool whose sessions are read-only and see committed data only. Migrations
// run once at open, under an advisory lock (migrations.ts).
//
// Why not SERIALIZABLE with retries: a unit of work may have effects outside the database (the
// permissions.json write of approve-always), so it must run once; the use cases are written as
// conditional updates instead, which READ COMMITTED makes safe without retries.
//
// Faults (faults.ts): a lost connection, a terminated backend or a failover is met by reconnecting
// with backoff: checking out a session retries, a transaction whose BEGIN fails on a dead session
// starts over on a new one (nothing of it ran), a read retries (reads are idempotent). A unit of
// work whose session dies after BEGIN is not re-run: it fails with store_unavailable. Every pool
// running out of sessions is store_busy. Both are 503 with Retry-After at the HTTP edge. Every
// checked-out session has an 'error' listener, so a backend killed under it never crashes us.
import pg from 'pg';
import type { Logger } from '../../logger.ts';
import { StoreBusyError, StoreClosedError, StoreUnavailableError } from '../errors.ts';
import { numberedPlaceholders, SqlCredentials } from '../credentials.ts';
import { runnerTokensOf } from '../runner-tokens.ts';
import type { Repositories, RunnerTokenRepository, Store } from '../types.ts';
import { PostgresActions } from './actions.ts';
import { PostgresAgentAutonomy } from './autonomy.ts';
import { PostgresDispatches } from './dispatches.ts';
import { guardPoolClients } from './client-guard.ts';
import { connectError, endpointOf, type PostgresEndpoint, PostgresStartError, sqlStateOf } from './errors.ts';
import { backoffMs, isConnectionFault, isPoolTimeout, RECONNECT_ATTEMPTS, sleep } from './faults.ts';
import { PostgresEvents } from './events.ts';
import { PostgresContainers, PostgresHandoffs, PostgresMerges } from './execution.ts';
import { applyPostgresMigrations } from './migrations.ts';
import { PostgresMembers, PostgresProjects } from './projects.ts';
import { PostgresRunnerTokens } from './runner-tokens.ts';
import { type Queryable, Sql } from './sql.ts';
import { PostgresTasks } from './tasks.ts';
import { PostgresTurns } from './turns.ts';
import { LOCK_CLASS } from './locks.ts';

export interface PostgresStoreOptions {
  /** Connections lost while idle are logged here (pg emits them on the pool). */
  logger?: Pick<Logger, 'warn'>;
  /** Pool sizes per node; the default 8 + 8 leaves room for several nodes under max_connections 100. */
  maxWriters?: number;
  maxReaders?: number;
  /** How long opening a connection (or waiting for a free one) may take. */
  connectTimeoutMs?: number;
}

type Warn = Pick<Logger, 'warn'>['warn'];
const silent: Warn = () => {};

function repositories(sql: Sql, events = new PostgresEvents(sql)): Repositories {
  return {
    projects: new PostgresProjects(sql),
    members: new PostgresMembers(sql),
    autonomy: new PostgresAgentAutonomy(sql),
    actions: new PostgresActions(sql),
    events,
    containers: new PostgresContainers(sql),
    handoffs: new PostgresHandoffs(sql),
    dispatches: new PostgresDispatches(sql),
    turns: new PostgresTurns(sql),
    merges: new PostgresMerges(sql),
    tasks: new PostgresTasks(sql),
    runnerTokens: new PostgresRunnerTokens(sql),
    credentials: new SqlCredentials({
      one: (text, ...params) => sql.one(numberedPlaceholders(text), ...params),
      all: (text, ...params) => sql.all(numberedPlaceholders(text), ...params),
      run: (text, ...params) => sql.run(numberedPlaceholders(text), ...params),
      lockAdminCredentials: async () => {
        await sql.run('SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))', LOCK_CLASS.adminCredentials);
      },
    }),
  };
}

export class PostgresStore implements Store {
  readonly read: Repositories;
  readonly runnerTokens: RunnerTokenRepository;
  readonly endpoint: PostgresEndpoint;
  /** Migration versions this instance applied when it opened (empty when the schema was current). */
  readonly appliedMigrations: readonly number[];
  readonly #writes: pg.Pool;
  readonly #reads: pg.Pool;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #warn: Warn;
  readonly #waitMs: number;
  #closed = false;

  constructor(
    writes: pg.Pool,
    reads: pg.Pool,
    endpoint: PostgresEndpoint,
    appliedMigrations: readonly number[],
    options: { warn?: Warn; connectTimeoutMs?: number } = {},
  ) {
    this.#writes = writes;
    this.#reads = reads;
    this.endpoint = endpoint;
    this.appliedMigrations = appliedMigrations;
    this.#warn = options.warn ?? silent;
    this.#waitMs = options.connectTimeoutMs ?? 5_000;
    this.read = repositories(
      new Sql({ query: (text, values) => this.#read(text, values) }, () => this.#refuseIfClosed()),
    );
    this.runnerTokens = runnerTokensOf(this);
  }

  /** A read on the read pool; retried with backoff when the session died under it (reads are idempotent). */
  async #read(text: string, values?: unknown[]): Promise<{ rows: pg.QueryResultRow[]; rowCount: number | null }> {
    return this.#reconnecting(
      () => this.#reads.query(text, values),
      'a read lost its Postgres session; retrying on a new one',
    );
  }

  /** A write session, reconnecting with backoff while the server is away; pool exhaustion is store_busy. */
  async #checkOut(): Promise<pg.PoolClient> {
    return this.#reconnecting(() => this.#writes.connect(), 'could not open a Postgres session; retrying with backoff');
  }

  /**
   * `open` again with backoff while the Postgres session is away (RECONNECT_ATTEMPTS, then
   * store_unavailable); a pool with no free session is store_busy at once; any other error as is.
   */
  async #reconnecting<T>(open: () => Promise<T>, retrying: string): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await open();
      } catch (error) {
        if (isPoolTimeout(error)) throw new StoreBusyError(this.#waitMs, { cause: error });
        if (!isConnectionFault(error)) throw error;
        if (attempt + 1 >= RECONNECT_ATTEMPTS || this.#closed)
          throw new StoreUnavailableError(describe(error), { cause: error });
        this.#warn({ code: 'postgres_reconnecting', attempt: attempt + 1, err: error }, retrying);
        await sleep(backoffMs(attempt));
      }
    }
  }

  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new StoreClosedError());
    const run = this.#run(work);
    const settled = run.then(
      () => {},
      () => {},
    );
    this.#inFlight.add(settled);
    void settled.then(() => this.#inFlight.delete(settled));
    return run;
  }

  async #run<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const client = await this.#checkOut();
      // A backend terminated while this session is checked out emits 'error' on the client: without
      // a listener that is an unhandled 'error' and the process dies. The failing query rejects too.
      let broken = false;
      const onError = (err: Error): void => {
        broken = true;
        this.#warn(
          { code: 'postgres_connection_lost', err },
          'a checked-out Postgres session was closed by the server or the network',
        );
      };
      client.on('error', onError);
      let began = false;
      let reusable = false;
      try {
        await client.query('BEGIN');
        began = true;
        const sql = new Sql(client as Queryable);
        const events = new PostgresEvents(sql, { deferred: true });
        const value = await work(repositories(sql, events));
        // The appends go last, with the COMMIT in the same round trip: the project's cursor lock is
        // held for the server's own work only (events.ts).
        await events.commit();
        reusable = true;
        return value;
      } catch (error) {
        // Queued behind any statement still in flight on this client; a failed ROLLBACK means the
        // session is unusable, and it is destroyed instead of going back to the pool.
        reusable =
          !broken &&
          (await client.query('ROLLBACK').then(
            () => true,
            () => false,
          ));
        if (!isConnectionFault(error) && !broken) throw error;
        // Nothing of the unit ran when BEGIN itself failed on a dead session: start over on a new one.
        if (!began && attempt + 1 < RECONNECT_ATTEMPTS && !this.#closed) {
          this.#warn(
            { code: 'postgres_reconnecting', attempt: attempt + 1, err: error },
            'a Postgres session died before its transaction began; retrying on a new one',
          );
          await sleep(backoffMs(attempt));
          continue;
        }
        throw new StoreUnavailableError(describe(error), { cause: error });
      } finally {
        client.removeListener('error', onError);
        client.release(reusable ? undefined : true);
      }
    }
  }

  #refuseIfClosed(): void {
    if (this.#closed) throw new StoreClosedError();
  }

  /** Waits for transactions already started, then closes both pools. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all(this.#inFlight);
    await Promise.all([this.#writes.end(), this.#reads.end()]);
  }
}

/**
 * Connects to `url` (postgres:// or postgresql://; a schema can be chosen with
 * `?options=-c%20search_path%3Dname`), applies pending migrations and returns the store.
 * Unreachable server -> PostgresUnreachableError; refused login, unknown database or a failed
 * migration -> PostgresStartError. Both name host, port and database.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const endpoint = endpointOf(url);
  const base: pg.PoolConfig = {
    connectionString: url,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'brabo-gateway',
  };
  const writes = new pg.Pool({ ...base, max: options.maxWriters ?? 8 });
  const reads = new pg.Pool({
    ...base,
    max: options.maxReaders ?? 8,
    onConnect: async (client) => {
      await client.query('SET default_transaction_read_only = on');
    },
  });
  for (const pool of [writes, reads]) {
    pool.on('error', (err) =>
      options.logger?.warn(
        { code: 'postgres_connection_lost', host: endpoint.host, port: endpoint.port, err },
        'an idle Postgres connection was closed by the server or the network; the pool opens a new one on demand',
      ),
    );
    // Sessions in hand-over between a release and the next holder (client-guard.ts): their query
    // rejects with the cause, so this one only records it.
    guardPoolClients(pool, (err) =>
      options.logger?.warn(
        { code: 'postgres_connection_lost', host: endpoint.host, port: endpoint.port, err },
        'a Postgres session was closed by the server or the network',
      ),
    );
  }
  const shutDown = () => Promise.all([writes.end(), reads.end()]).catch(() => {});
  let client: pg.PoolClient;
  try {
    client = await writes.connect();
  } catch (error) {
    await shutDown();
    throw connectError(endpoint, error);
  }
  // Checked out, the session has no pool listener: a backend terminated during the migrations
  // would otherwise be an unhandled 'error' (the failing query rejects and names it).
  const ignoreLost = (): void => {};
  client.on('error', ignoreLost);
  let applied: number[];
  try {
    applied = await applyPostgresMigrations(client as Queryable);
  } catch (error) {
    client.removeListener('error', ignoreLost);
    client.release(true);
    await shutDown();
    throw new PostgresStartError(endpoint, 'migrate', (error as Error).message, sqlStateOf(error), { cause: error });
  }
  client.removeListener('error', ignoreLost);
  client.release();
  const warn: Warn | undefined = options.logger ? options.logger.warn.bind(options.logger) : undefined;
  return new PostgresStore(writes, reads, endpoint, applied, {
    ...(warn ? { warn } : {}),
    connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
  });
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = String((error as { message?: unknown } | null)?.message ?? error).slice(0, 200);
  return typeof code === 'string' ? `${code}: ${message}` : message;
}
