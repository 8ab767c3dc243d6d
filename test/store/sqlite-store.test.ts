import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.ts';
import { hashRunnerToken } from '../../src/store/sqlite/runner-tokens.ts';
import { openSqliteStore, SQLITE_FILE_NAME, type SqliteStore } from '../../src/store/sqlite/store.ts';
import type { NewProposedAction, Project } from '../../src/store/types.ts';

let dir: string;
let store: SqliteStore;
const at = '2025-01-01T00:00:00.000Z';

const project = (id: string): Project => ({
  id,
  name: 'p',
  slug: 'p',
  executionMode: 'container',
  root: `/w/p-${id}`,
  workspaceDirName: `p-${id}`,
  ownerId: 'olivia',
  moduleMap: { api: {} },
  executionActivatedAt: null,
  createdAt: at,
});

const action = (id: string, extra: Partial<NewProposedAction> = {}): NewProposedAction => ({
  id,
  projectId: 'p1',
  proposerId: 'agent',
  proposerKind: 'agent',
  actionType: 'terminal',
  payload: { command: 'ls', cwd: '/w' },
  status: 'pending',
  reasonCode: 'default_require_approval',
  reason: 'no rule',
  scopeRoot: 'container:p',
  decidedAt: null,
  liveMergeKey: null,
  createdAt: at,
  ...extra,
});

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brabo-store-'));
  store = openSqliteStore(dir);
  await store.transaction((tx) => tx.projects.insert(project('p1')));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sqlite store', () => {
  it('applies migrations once and keeps data across reopen (WAL, synchronous FULL)', async () => {
    await store.close();
    store = openSqliteStore(dir);
    expect((await store.read.projects.get('p1'))?.moduleMap).toEqual({ api: {} });
    const raw = new DatabaseSync(join(dir, SQLITE_FILE_NAME), { readOnly: true });
    expect(raw.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(raw.prepare('SELECT version FROM schema_migrations').all()).toEqual(MIGRATIONS.map(({ version }) => ({ version })));
    raw.close();
  });

  it('RN-603: resolves autonomy in one query, the specific rule winning over the wildcard, with its origin', async () => {
    const base = { projectId: 'p1', agentId: 'a', updatedBy: 'max', updatedAt: at };
    expect(await store.read.autonomy.resolve('p1', 'a', 'terminal')).toBeNull();
    await store.transaction((tx) => tx.autonomy.set({ ...base, actionType: '*', mode: 'auto_approve' }));
    expect(await store.read.autonomy.resolve('p1', 'a', 'terminal')).toEqual({ mode: 'auto_approve', origin: 'curinga' });
    await store.transaction((tx) => tx.autonomy.set({ ...base, actionType: 'terminal', mode: 'deny' }));
    expect(await store.read.autonomy.resolve('p1', 'a', 'terminal')).toEqual({ mode: 'deny', origin: 'especifica' });
    expect(await store.read.autonomy.resolve('p1', 'a', 'git_commit')).toEqual({ mode: 'auto_approve', origin: 'curinga' });
    expect(await store.read.autonomy.resolve('p1', 'other', 'terminal')).toBeNull();
  });

  it('moves an action out of pending exactly once (conditional update)', async () => {
    await store.transaction((tx) => tx.actions.insert(action('a1')));
    const first = await store.transaction((tx) => tx.actions.decideIfPending('a1', 'approved', 'max', at, null));
    const second = await store.transaction((tx) => tx.actions.decideIfPending('a1', 'denied', 'olivia', at, 'no'));
    expect([first, second]).toEqual([true, false]);
    const stored = await store.read.actions.get('a1');
    expect(stored?.status).toBe('approved');
    expect(stored?.decidedBy).toBe('max');
  });

  it('holds one live merge key per PR and frees it on release', async () => {
    await store.transaction((tx) => tx.actions.insert(action('m1', { actionType: 'git_merge', liveMergeKey: 'p1:7' })));
    await expect(store.transaction((tx) => tx.actions.insert(action('m2', { actionType: 'git_merge', liveMergeKey: 'p1:7' })))).rejects.toThrow(/UNIQUE/);
    await store.transaction((tx) => tx.actions.releaseMergeKey('m1'));
    await store.transaction((tx) => tx.actions.insert(action('m2', { actionType: 'git_merge', liveMergeKey: 'p1:7' })));
    expect(await store.read.actions.liveMergeExists('p1:7')).toBe(true);
  });

  it('keeps session_events append-only with an increasing cursor', async () => {
    const e = { projectId: 'p1', type: 't', actorKind: 'system' as const, actorId: null, actionId: null, payload: { n: 1 } };
    const one = await store.transaction((tx) => tx.events.append(e));
    const two = await store.transaction((tx) => tx.events.append({ ...e, payload: { n: 2 } }));
    expect(two.id).toBeGreaterThan(one.id);
    expect((await store.read.events.listAfter('p1', one.id, 10)).map((x) => x.payload)).toEqual([{ n: 2 }]);
    const raw = new DatabaseSync(join(dir, SQLITE_FILE_NAME));
    expect(() => raw.exec("UPDATE session_events SET type = 'x'")).toThrow(/append-only/);
    expect(() => raw.exec('DELETE FROM session_events')).toThrow(/append-only/);
    raw.close();
  });

  it('rolls a failed transaction back entirely', async () => {
    await expect(
      store.transaction(async (tx) => {
        await tx.actions.insert(action('r1'));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.read.actions.get('r1')).toBeNull();
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

  it('reads see committed data only', async () => {
    let seenInside: unknown = 'unset';
    await store.transaction(async (tx) => {
      await tx.actions.insert(action('c1'));
      seenInside = await store.read.actions.get('c1');
    });
    expect(seenInside).toBeNull();
    expect(await store.read.actions.get('c1')).not.toBeNull();
  });

  it('stores runner tokens as sha256 only; verify, revoke', async () => {
    const grant = await store.runnerTokens.create('p1');
    expect(Buffer.from(grant.token, 'base64url')).toHaveLength(32);
    const raw = new DatabaseSync(join(dir, SQLITE_FILE_NAME), { readOnly: true });
    const rows = raw.prepare('SELECT token_hash FROM runner_tokens').all() as Array<{ token_hash: string }>;
    raw.close();
    expect(rows).toEqual([{ token_hash: hashRunnerToken(grant.token) }]);
    expect(JSON.stringify(rows)).not.toContain(grant.token);
    expect(await store.runnerTokens.verify(grant.token)).toEqual({ projectId: 'p1', tokenId: grant.tokenId });
    expect(await store.runnerTokens.verify(`${grant.token}x`)).toBeNull();
    expect(await store.runnerTokens.verify('')).toBeNull();
    expect(await store.runnerTokens.revoke(grant.tokenId)).toBe(true);
    expect(await store.runnerTokens.revoke(grant.tokenId)).toBe(false);
    expect(await store.runnerTokens.verify(grant.token)).toBeNull();
  });

  it('records a PR merge once and moves a task to a status once', async () => {
    expect(await store.transaction((tx) => tx.merges.recordMerged('p1', 7, 'm1', at))).toBe(true);
    expect(await store.transaction((tx) => tx.merges.recordMerged('p1', 7, 'm2', at))).toBe(false);
    await store.transaction((tx) => tx.tasks.insert({ id: 't1', projectId: 'p1', title: 'x', status: 'in_progress', prNumber: 7, updatedAt: at }));
    expect(await store.transaction((tx) => tx.tasks.transition('t1', 'done', at))).toBe(true);
    expect(await store.transaction((tx) => tx.tasks.transition('t1', 'done', at))).toBe(false);
    await store.transaction((tx) => tx.tasks.insert({ id: 't2', projectId: 'p1', title: 'y', status: 'in_progress', prNumber: null, updatedAt: at }));
    await store.transaction((tx) => tx.tasks.transition('t2', 'blocked', at, { reason: 'engine restarted', source: 'infra' }));
    expect((await store.read.tasks.listBlocked('p1')).map((t) => [t.id, t.blockedSource])).toEqual([['t2', 'infra']]);
  });

  it('refuses work after close with a named error', async () => {
    await store.close();
    await expect(store.transaction(async () => 1)).rejects.toMatchObject({ code: 'store_closed' });
    store = openSqliteStore(dir);
  });
});
