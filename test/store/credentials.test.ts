// The credential repository on both stores: stored by SHA-256 only, looked up by hash (revoked and
// expired rows are found, so the caller can say which), listed with filters (runner tokens
// included, as kind runner), revoked once, last use recorded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashSecret, newSecret } from '../../src/auth/principal.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { openPostgresStore } from '../../src/store/postgres/store.ts';
import type { CredentialRecord, Store } from '../../src/store/types.ts';
import { TestSchemas } from './contract-postgres.ts';
import { project } from './contract.ts';

const schemas = new TestSchemas();
afterAll(async () => schemas.dropAll());

const stores: Array<
  [string, () => Promise<{ store: Store; raw: (sql: string) => Promise<unknown[]>; close: () => Promise<void> }>]
> = [
  [
    'sqlite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'brabo-creds-store-'));
      const store = openSqliteStore(dir);
      const { DatabaseSync } = await import('node:sqlite');
      return {
        store,
        raw: async (sql) => {
          const db = new DatabaseSync(join(dir, 'brabo.sqlite'));
          try {
            return db.prepare(sql).all();
          } finally {
            db.close();
          }
        },
        close: async () => {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    'postgres',
    async () => {
      const schema = await schemas.create();
      const store = await openPostgresStore(schema.url, { maxWriters: 2, maxReaders: 2 });
      return { store, raw: (sql) => schemas.query(schema.name, sql), close: () => store.close() };
    },
  ],
];

const record = (over: Partial<CredentialRecord>): CredentialRecord => ({
  id: `c-${Math.random().toString(16).slice(2)}`,
  kind: 'agent',
  projectId: 'p1',
  subject: 'agent-dev',
  label: null,
  createdBy: 'admin:admin',
  createdAt: new Date().toISOString(),
  expiresAt: null,
  lastUsedAt: null,
  revokedAt: null,
  ...over,
});

describe.each(stores)('credentials on %s', (_name, open) => {
  it('stores the hash only, finds by hash, lists with filters, revokes once, records the last use', async () => {
    const { store, raw, close } = await open();
    try {
      await store.transaction((tx) => tx.projects.insert(project('p1')));
      const secret = newSecret('agent');
      const agent = record({ label: 'ci' });
      const human = record({ kind: 'human', projectId: null, subject: 'olivia' });
      await store.transaction(async (tx) => {
        await tx.credentials.insert({ ...agent, tokenHash: hashSecret(secret) });
        await tx.credentials.insert({ ...human, tokenHash: hashSecret(newSecret('human')) });
      });
      const runner = await store.runnerTokens.create('p1');
      expect(JSON.stringify(await raw('SELECT * FROM credentials'))).not.toContain(secret);
      expect(await store.read.credentials.findByHash(hashSecret(secret))).toEqual(agent);
      expect(await store.read.credentials.findByHash(hashSecret(`${secret}x`))).toBeNull();
      expect(await store.read.credentials.findByHash(hashSecret(runner.token))).toMatchObject({
        id: runner.tokenId,
        kind: 'runner',
        projectId: 'p1',
        subject: null,
      });

      expect((await store.read.credentials.list({ limit: 10 })).map((c) => c.id).sort()).toEqual(
        [agent.id, human.id, runner.tokenId].sort(),
      );
      expect((await store.read.credentials.list({ limit: 10, kind: 'runner' })).map((c) => c.id)).toEqual([
        runner.tokenId,
      ]);
      expect((await store.read.credentials.list({ limit: 10, projectId: 'p1' })).map((c) => c.id).sort()).toEqual(
        [agent.id, runner.tokenId].sort(),
      );
      expect((await store.read.credentials.list({ limit: 10, subject: 'olivia' })).map((c) => c.id)).toEqual([
        human.id,
      ]);

      const at = new Date().toISOString();
      await store.transaction((tx) => tx.credentials.touch(agent.id, at));
      expect((await store.read.credentials.get(agent.id))?.lastUsedAt).toBe(at);
      expect(await store.transaction((tx) => tx.credentials.revoke(agent.id, at))).toBe(true);
      expect(await store.transaction((tx) => tx.credentials.revoke(agent.id, at))).toBe(false);
      expect(await store.transaction((tx) => tx.credentials.revoke(runner.tokenId, at))).toBe(true);
      expect(await store.runnerTokens.verify(runner.token)).toBeNull();
      expect((await store.read.credentials.findByHash(hashSecret(secret)))?.revokedAt).toBe(at);
      expect((await store.read.credentials.list({ limit: 10 })).map((c) => c.id)).toEqual([human.id]);
      expect((await store.read.credentials.list({ limit: 10, includeRevoked: true })).length).toBe(3);
    } finally {
      await close();
    }
  });

  it('an expired runner token no longer verifies', async () => {
    const { store, close } = await open();
    try {
      await store.transaction((tx) => tx.projects.insert(project('p1')));
      const secret = newSecret('runner');
      await store.transaction((tx) =>
        tx.credentials.insert({
          ...record({ kind: 'runner', subject: null, expiresAt: new Date(Date.now() - 1000).toISOString() }),
          tokenHash: hashSecret(secret),
        }),
      );
      expect(await store.runnerTokens.verify(secret)).toBeNull();
      const live = newSecret('runner');
      const id = 'live-runner';
      await store.transaction((tx) =>
        tx.credentials.insert({
          ...record({ id, kind: 'runner', subject: null, expiresAt: new Date(Date.now() + 60_000).toISOString() }),
          tokenHash: hashSecret(live),
        }),
      );
      expect(await store.runnerTokens.verify(live)).toEqual({ projectId: 'p1', tokenId: id });
    } finally {
      await close();
    }
  });
});
