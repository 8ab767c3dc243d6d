// The execution suites run on both stores: SQLite (single node) and Postgres (multi-node), each
// test on a fresh store (a temp dir, or a fresh schema on 127.0.0.1:5432/test).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore } from '../../src/store/postgres/store.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import type { Store } from '../../src/store/types.ts';
import { TestSchemas } from '../store/contract-postgres.ts';

export interface StoreKind {
  name: 'sqlite' | 'postgres';
  open(): Promise<{ store: Store; dispose(): Promise<void> }>;
  /** afterAll: drops what the kind created. */
  end(): Promise<void>;
}

export function storeKinds(): StoreKind[] {
  const schemas = new TestSchemas();
  return [
    {
      name: 'sqlite',
      async open() {
        const dir = mkdtempSync(join(tmpdir(), 'brabo-exec-store-'));
        const store = openSqliteStore(join(dir, 'data'));
        return {
          store,
          async dispose() {
            await store.close();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
      end: async () => {},
    },
    {
      name: 'postgres',
      async open() {
        const schema = await schemas.create();
        const store = await openPostgresStore(schema.url, { maxWriters: 4, maxReaders: 4 });
        return {
          store,
          async dispose() {
            await store.close();
            await schemas.drop(schema.name);
          },
        };
      },
      end: () => schemas.dropAll(),
    },
  ];
}
