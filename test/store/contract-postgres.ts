// Postgres test scaffolding: every test file gets its own schema prefix on the real server
// (127.0.0.1:5432, database test); every fixture a fresh schema under it, selected on each pooled
// connection through the `options` connection parameter. Schemas are dropped after use.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { POSTGRES_MIGRATIONS } from '../../src/store/postgres/migrations.ts';
import { openPostgresStore, type PostgresStore } from '../../src/store/postgres/store.ts';
import type { RawRow, StoreFixture } from './contract.ts';

export const POSTGRES_TEST_URL = process.env.BRABO_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** DATABASE_URL for one schema: search_path set on every connection. */
export const schemaUrl = (schema: string): string =>
  `${POSTGRES_TEST_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;

/** A test's own pool: an idle session closed by the server (a chaos test nearby) must not be an unhandled 'error'. */
export function quiet(pool: pg.Pool): pg.Pool {
  pool.on('error', () => {});
  return pool;
}

export class TestSchemas {
  readonly prefix = `brabo_test_${randomBytes(5).toString('hex')}`;
  readonly #admin = quiet(new pg.Pool({ connectionString: POSTGRES_TEST_URL, max: 2 }));
  #next = 0;

  async create(): Promise<{ name: string; url: string }> {
    const name = `${this.prefix}_${this.#next++}`;
    await this.#admin.query(`CREATE SCHEMA ${name}`);
    return { name, url: schemaUrl(name) };
  }

  async query(schema: string, text: string): Promise<RawRow[]> {
    const client = await this.#admin.connect();
    try {
      await client.query(`SET search_path = ${schema}`);
      return (await client.query(text)).rows;
    } finally {
      await client.query('RESET search_path').catch(() => {});
      client.release();
    }
  }

  async drop(schema: string): Promise<void> {
    await this.#admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }

  /** afterAll: every schema this file created, even those a failed test left behind. */
  async dropAll(): Promise<void> {
    const { rows } = await this.#admin.query('SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)', [
      `${this.prefix}_`,
    ]);
    for (const row of rows) await this.drop(String(row.nspname));
    await this.#admin.end();
  }
}

export function postgresFixture(schemas: TestSchemas): () => Promise<StoreFixture> {
  return async () => {
    const schema = await schemas.create();
    const opened: PostgresStore[] = [];
    return {
      migrationVersions: POSTGRES_MIGRATIONS.map(({ version }) => version),
      async open() {
        const store = await openPostgresStore(schema.url, { maxWriters: 4, maxReaders: 2 });
        opened.push(store);
        return store;
      },
      sql: (text) => schemas.query(schema.name, text),
      async dispose() {
        for (const store of opened) await store.close();
        await schemas.drop(schema.name);
      },
    };
  };
}
