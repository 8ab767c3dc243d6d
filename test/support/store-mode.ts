// Which store the http, execution and e2e suites run on: SQLite by default, Postgres when
// BRABO_TEST_STORE=postgres (vitest.config.ts runs those suites once more as the `postgres`
// project). On Postgres every app or server gets a fresh schema on 127.0.0.1:5432/test, dropped
// when the test file ends.
import pg from 'pg';
import { afterAll } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/store.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import type { Store } from '../../src/store/types.ts';
import { TestSchemas } from '../store/contract-postgres.ts';

export const TEST_STORE: 'sqlite' | 'postgres' = process.env.BRABO_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

let schemas: TestSchemas | null = null;
if (TEST_STORE === 'postgres') {
  // Registered at import, so in the root suite of each test file that uses these helpers.
  afterAll(async () => {
    await schemas?.dropAll();
    schemas = null;
  });
}

/** A fresh schema's DATABASE_URL on Postgres; null on SQLite (the data dir holds the store). */
export async function testDatabaseUrl(): Promise<string | null> {
  if (TEST_STORE === 'sqlite') return null;
  schemas ??= new TestSchemas();
  return (await schemas.create()).url;
}

/** Runs one raw statement (`?` placeholders) against a test app's store: the SQLite file, or the Postgres schema. */
export async function rawSql(
  target: { dataDir: string; databaseUrl?: string | null },
  text: string,
  values: Array<string | number | null>,
): Promise<void> {
  if (target.databaseUrl) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    client.on('error', () => {}); // the statement's own promise reports failures
    await client.connect();
    try {
      let n = 0;
      await client.query(
        text.replace(/\?/g, () => `$${++n}`),
        values,
      );
    } finally {
      await client.end();
    }
    return;
  }
  const { DatabaseSync } = await import('node:sqlite');
  const { join } = await import('node:path');
  const db = new DatabaseSync(join(target.dataDir, 'brabo.sqlite'));
  try {
    db.prepare(text).run(...values);
  } finally {
    db.close();
  }
}

/** The store a test opens itself: SQLite in `dataDir`, or a fresh Postgres schema. */
export async function openTestStore(dataDir: string): Promise<Store> {
  const url = await testDatabaseUrl();
  return url ? openPostgresStore(url, { maxWriters: 4, maxReaders: 4 }) : openSqliteStore(dataDir);
}
