// The store contract: behaviour every adapter (SQLite, Postgres) must show through the Store
// interface. Each adapter's test file calls describeStoreContract with a fixture factory; adapter
// specifics (WAL, group commit, advisory locks, several nodes) stay in that adapter's file.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashRunnerToken } from '../../src/store/runner-tokens.ts';
import type { NewProposedAction, NewSessionEvent, Project, SessionEvent, Store } from '../../src/store/types.ts';

export type RawRow = Record<string, unknown>;

export interface StoreFixture {
  /** A Store on this fixture's database: fresh and migrated the first time, then a restart or a second node. */
  open(): Promise<Store>;
  /** SQL straight on the database behind the store, bypassing the repositories. */
  sql(text: string): Promise<RawRow[]>;
  /** The migration versions the adapter ships, in order. */
  migrationVersions: readonly number[];
  /** Closes every store it opened and removes the data. */
  dispose(): Promise<void>;
}

export const at = '2025-01-01T00:00:00.000Z';
const later = '2025-01-01T00:05:00.000Z';

export const project = (id: string): Project => ({
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

export const action = (id: string, extra: Partial<NewProposedAction> = {}): NewProposedAction => ({
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

export const event = (projectId: string, payload: Record<string, unknown>): NewSessionEvent => ({
  projectId,
  type: 't',
  actorKind: 'system',
  actorId: null,
  actionId: null,
  payload,
});

export function describeStoreContract(name: string, createFixture: () => Promise<StoreFixture>): void {
  describe(`store contract: ${name}`, () => {
    let fixture: StoreFixture;
    let store: Store;

    beforeEach(async () => {
      fixture = await createFixture();
      store = await fixture.open();
      await store.transaction((tx) => tx.projects.insert(project('p1')));
    });
    afterEach(async () => fixture.dispose());

    it('applies migrations once and keeps data across a reopen', async () => {
      await store.close();
      store = await fixture.open();
      expect((await store.read.projects.get('p1'))?.moduleMap).toEqual({ api: {} });
      const versions = await fixture.sql('SELECT version FROM schema_migrations ORDER BY version');
      expect(versions.map((row) => Number(row.version))).toEqual([...fixture.migrationVersions]);
    });

    it('RN-603: resolves autonomy in one query, the specific rule winning over the wildcard, with its origin', async () => {
      const base = { projectId: 'p1', agentId: 'a', updatedBy: 'max', updatedAt: at };
      expect(await store.read.autonomy.resolve('p1', 'a', 'terminal')).toBeNull();
      await store.transaction((tx) => tx.autonomy.set({ ...base, actionType: '*', mode: 'auto_approve' }));
      expect(await store.read.autonomy.resolve('p1', 'a', 'terminal')).toEqual({
        mode: 'auto_approve',
        origin: 'curinga',
      });
      await store.transaction((tx) => tx.autonomy.set({ ...base, actionType: 'terminal', mode: 'deny' }));
      expect(await store.read.autonomy.resolve('p1', 'a', 'terminal')).toEqual({ mode: 'deny', origin: 'especifica' });
      expect(await store.read.autonomy.resolve('p1', 'a', 'git_commit')).toEqual({
        mode: 'auto_approve',
        origin: 'curinga',
      });
      expect(await store.read.autonomy.resolve('p1', 'other', 'terminal')).toBeNull();
      expect((await store.read.autonomy.list('p1')).map((r) => [r.actionType, r.mode])).toEqual([
        ['*', 'auto_approve'],
        ['terminal', 'deny'],
      ]);
    });

    it('moves an action out of pending exactly once (conditional update)', async () => {
      await store.transaction((tx) => tx.actions.insert(action('a1')));
      const first = await store.transaction((tx) => tx.actions.decideIfPending('a1', 'approved', 'max', at, null));
      const second = await store.transaction((tx) => tx.actions.decideIfPending('a1', 'denied', 'olivia', at, 'no'));
      expect([first, second]).toEqual([true, false]);
      const stored = await store.read.actions.get('a1');
      expect(stored).toMatchObject({ status: 'approved', decidedBy: 'max', decidedAt: at, denialReason: null });
    });

    it('lists actions of a project by status in creation order', async () => {
      await store.transaction(async (tx) => {
        await tx.actions.insert(action('l2', { createdAt: later }));
        await tx.actions.insert(action('l1'));
        await tx.actions.insert(action('l3', { status: 'auto_approved' }));
      });
      expect((await store.read.actions.list('p1', { limit: 10 })).map((a) => a.id)).toEqual(['l1', 'l3', 'l2']);
      expect((await store.read.actions.list('p1', { status: 'pending', limit: 10 })).map((a) => a.id)).toEqual([
        'l1',
        'l2',
      ]);
      expect((await store.read.actions.list('p1', { status: 'pending', limit: 1 })).map((a) => a.id)).toEqual(['l1']);
    });

    it('holds one live merge key per PR and frees it on release', async () => {
      await store.transaction((tx) =>
        tx.actions.insert(action('m1', { actionType: 'git_merge', liveMergeKey: 'p1:7' })),
      );
      await expect(
        store.transaction((tx) => tx.actions.insert(action('m2', { actionType: 'git_merge', liveMergeKey: 'p1:7' }))),
      ).rejects.toThrow(/unique/i);
      expect(await store.read.actions.get('m2')).toBeNull();
      await store.transaction((tx) => tx.actions.releaseMergeKey('m1'));
      expect(await store.read.actions.liveMergeExists('p1:7')).toBe(false);
      await store.transaction((tx) =>
        tx.actions.insert(action('m2', { actionType: 'git_merge', liveMergeKey: 'p1:7' })),
      );
      expect(await store.read.actions.liveMergeExists('p1:7')).toBe(true);
    });

    it('keeps session_events append-only with an increasing cursor, per project', async () => {
      await store.transaction((tx) => tx.projects.insert(project('p2')));
      await store.transaction((tx) => tx.events.append(event('p1', { n: 1 })));
      await store.transaction((tx) => tx.events.append(event('p2', { n: 'other project' })));
      await store.transaction((tx) => tx.events.append({ ...event('p1', { n: 2 }), createdAt: later }));
      await store.transaction((tx) => tx.events.append(event('p1', { n: 3 })));
      const written = await store.read.events.listAfter('p1', 0, 10);
      expect(written.map((x) => x.payload)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      const [one, two, three] = written as [SessionEvent, SessionEvent, SessionEvent];
      expect(two.id).toBeGreaterThan(one.id);
      expect(three.id).toBeGreaterThan(two.id);
      expect(two.createdAt).toBe(later);
      expect((await store.read.events.listAfter('p1', one.id, 10)).map((x) => x.payload)).toEqual([{ n: 2 }, { n: 3 }]);
      expect((await store.read.events.listAfter('p1', 0, 1)).map((x) => x.id)).toEqual([one.id]);
      expect(await store.read.events.listAfter('p1', 0, 10)).toContainEqual({
        ...event('p1', { n: 2 }),
        id: two.id,
        createdAt: later,
      });
      expect(await store.read.events.count('p1', 't')).toBe(3);
      expect(await store.read.events.count('p1', 'other')).toBe(0);
      await expect(fixture.sql("UPDATE session_events SET type = 'x'")).rejects.toThrow(/append-only/);
      await expect(fixture.sql('DELETE FROM session_events')).rejects.toThrow(/append-only/);
      expect(await store.read.events.count('p1', 't')).toBe(3);
    });

    it('round-trips JSON payloads exactly (nested objects, arrays, unicode, empty)', async () => {
      const payload = { command: 'echo "olá" | wc -c', args: ['a', 1, true, null, { deep: [[]] }], empty: {}, n: 1.5 };
      await store.transaction(async (tx) => {
        await tx.actions.insert(action('j1', { payload }));
        await tx.projects.insert({ ...project('j'), moduleMap: {} });
      });
      expect((await store.read.actions.get('j1'))?.payload).toEqual(payload);
      expect((await store.read.projects.get('j'))?.moduleMap).toEqual({});
    });

    it('rolls a failed transaction back entirely', async () => {
      await expect(
        store.transaction(async (tx) => {
          await tx.actions.insert(action('r1'));
          await tx.events.append(event('p1', { n: 'rolled back' }));
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await store.read.actions.get('r1')).toBeNull();
      expect(await store.read.events.count('p1', 't')).toBe(0);
      // The store is still usable after a rollback.
      await store.transaction((tx) => tx.actions.insert(action('r2')));
      expect(await store.read.actions.get('r2')).not.toBeNull();
    });

    it('reads see committed data only', async () => {
      let seenInside: unknown = 'unset';
      await store.transaction(async (tx) => {
        await tx.actions.insert(action('c1'));
        seenInside = await store.read.actions.get('c1');
        expect(await tx.actions.get('c1')).not.toBeNull();
      });
      expect(seenInside).toBeNull();
      expect(await store.read.actions.get('c1')).not.toBeNull();
    });

    it('stores runner tokens as sha256 only; verify, revoke', async () => {
      const grant = await store.runnerTokens.create('p1');
      expect(Buffer.from(grant.token, 'base64url')).toHaveLength(32);
      const rows = await fixture.sql('SELECT token_hash FROM runner_tokens');
      expect(rows).toEqual([{ token_hash: hashRunnerToken(grant.token) }]);
      expect(JSON.stringify(rows)).not.toContain(grant.token);
      expect(await store.runnerTokens.verify(grant.token)).toEqual({ projectId: 'p1', tokenId: grant.tokenId });
      expect(await store.runnerTokens.verify(`${grant.token}x`)).toBeNull();
      expect(await store.runnerTokens.verify('')).toBeNull();
      expect(await store.runnerTokens.projectOf(grant.tokenId)).toBe('p1');
      expect(await store.runnerTokens.revoke(grant.tokenId)).toBe(true);
      expect(await store.runnerTokens.revoke(grant.tokenId)).toBe(false);
      expect(await store.runnerTokens.verify(grant.token)).toBeNull();
      expect(await store.runnerTokens.projectOf(grant.tokenId)).toBe('p1');
    });

    it('records a PR merge once and moves a task to a status once', async () => {
      expect(await store.transaction((tx) => tx.merges.recordMerged('p1', 7, 'm1', at))).toBe(true);
      expect(await store.transaction((tx) => tx.merges.recordMerged('p1', 7, 'm2', at))).toBe(false);
      expect(await store.read.merges.isMerged('p1', 7)).toBe(true);
      expect(await store.read.merges.isMerged('p1', 8)).toBe(false);
      await store.transaction((tx) =>
        tx.tasks.insert({ id: 't1', projectId: 'p1', title: 'x', status: 'in_progress', prNumber: 7, updatedAt: at }),
      );
      expect((await store.read.tasks.findByPr('p1', 7))?.id).toBe('t1');
      expect(await store.transaction((tx) => tx.tasks.transition('t1', 'done', at))).toBe(true);
      expect(await store.transaction((tx) => tx.tasks.transition('t1', 'done', at))).toBe(false);
      await store.transaction((tx) =>
        tx.tasks.insert({
          id: 't2',
          projectId: 'p1',
          title: 'y',
          status: 'in_progress',
          prNumber: null,
          updatedAt: at,
        }),
      );
      await store.transaction((tx) =>
        tx.tasks.transition('t2', 'blocked', at, { reason: 'engine restarted', source: 'infra' }),
      );
      expect(
        (await store.read.tasks.listBlocked('p1')).map((t) => [t.id, t.blockedReason, t.blockedSource, t.prNumber]),
      ).toEqual([['t2', 'engine restarted', 'infra', null]]);
    });

    it('projects and members: activation is set once, members upsert and list in id order', async () => {
      await store.transaction((tx) => tx.projects.markExecutionActivated('p1', at));
      await store.transaction((tx) => tx.projects.markExecutionActivated('p1', later));
      await store.transaction((tx) => tx.projects.markWorkspaceVerified('p1', later));
      expect(await store.read.projects.get('p1')).toMatchObject({
        executionActivatedAt: at,
        workspaceVerifiedAt: later,
      });
      expect(await store.read.projects.get('nope')).toBeNull();
      await store.transaction(async (tx) => {
        await tx.members.upsert({ projectId: 'p1', memberId: 'max', kind: 'human', role: 'developer', updatedAt: at });
        await tx.members.upsert({
          projectId: 'p1',
          memberId: 'agent-dev',
          kind: 'agent',
          role: 'developer',
          updatedAt: at,
        });
        await tx.members.upsert({
          projectId: 'p1',
          memberId: 'max',
          kind: 'human',
          role: 'maintainer',
          updatedAt: later,
        });
      });
      expect((await store.read.members.list('p1')).map((m) => [m.memberId, m.role])).toEqual([
        ['agent-dev', 'developer'],
        ['max', 'maintainer'],
      ]);
      expect(await store.read.members.get('p1', 'max')).toMatchObject({
        kind: 'human',
        role: 'maintainer',
        updatedAt: later,
      });
    });

    it('containers: one lifecycle row per project, upserted', async () => {
      await store.transaction((tx) => tx.containers.setState('p1', 'provisioning', null, at));
      await store.transaction((tx) => tx.containers.setState('p1', 'running', 'c1', later));
      expect(await store.read.containers.get('p1')).toEqual({
        projectId: 'p1',
        state: 'running',
        containerId: 'c1',
        updatedAt: later,
      });
      expect(await store.read.containers.list()).toHaveLength(1);
      expect(await store.read.containers.get('p2')).toBeNull();
    });

    it('dispatches: claimed once, moves fenced by attempt, finished once; status kept in step', async () => {
      await store.transaction(async (tx) => {
        await tx.actions.insert(action('d1', { status: 'auto_approved' }));
        await tx.handoffs.enqueue({
          id: 'h1',
          actionId: 'd1',
          projectId: 'p1',
          credentialRef: 'olivia',
          createdAt: at,
        });
      });
      expect(await store.read.handoffs.getByAction('d1')).toMatchObject({
        status: 'queued',
        outcome: null,
        updatedAt: at,
      });
      expect((await store.read.handoffs.listQueued(10)).map((h) => h.id)).toEqual(['h1']);
      const claimed = await store.transaction((tx) => tx.dispatches.claim('h1', 'sent', 'runner:p1', later, at));
      expect(claimed).toMatchObject({
        state: 'sent',
        status: 'dispatched',
        attempt: 1,
        target: 'runner:p1',
        leaseUntil: later,
        sentAt: at,
        startedAt: null,
      });
      expect(await store.transaction((tx) => tx.dispatches.claim('h1', 'running', 'broker', null, at))).toBeNull();
      expect((await store.read.dispatches.listInStates(['sent', 'accepted'], 10)).map((d) => d.id)).toEqual(['h1']);
      expect(await store.read.dispatches.listInStates([], 10)).toEqual([]);
      // A stale attempt never moves it; the current one does, keeping the lease unless told.
      expect(await store.transaction((tx) => tx.dispatches.advance('h1', 0, ['sent'], 'running', later))).toBe(false);
      expect(await store.transaction((tx) => tx.dispatches.advance('h1', 1, ['accepted'], 'running', later))).toBe(
        false,
      );
      expect(await store.transaction((tx) => tx.dispatches.advance('h1', 1, ['sent'], 'running', later))).toBe(true);
      expect(await store.read.dispatches.get('h1')).toMatchObject({
        state: 'running',
        status: 'dispatched',
        startedAt: later,
        leaseUntil: later,
      });
      expect(await store.transaction((tx) => tx.dispatches.advance('h1', 1, ['running'], 'running', later, null))).toBe(
        true,
      );
      expect((await store.read.dispatches.get('h1'))?.leaseUntil).toBeNull();
      const inFlight = ['sent', 'accepted', 'running'] as const;
      expect(
        await store.transaction((tx) =>
          tx.dispatches.finish('h1', { attempt: 2, from: inFlight }, 'failed', { code: 'stale' }, later),
        ),
      ).toBe(false);
      // A pre-claim failure expects `queued`: it never overwrites a claim (another node's, or this one's).
      expect(
        await store.transaction((tx) =>
          tx.dispatches.finish('h1', { attempt: 0, from: ['queued'] }, 'failed', { code: 'pre_claim' }, later),
        ),
      ).toBe(false);
      expect(
        await store.transaction((tx) =>
          tx.dispatches.finish('h1', { attempt: 1, from: ['queued'] }, 'failed', { code: 'pre_claim' }, later),
        ),
      ).toBe(false);
      expect(
        await store.transaction((tx) =>
          tx.dispatches.finish(
            'h1',
            { attempt: 1, from: ['sent', 'accepted'] },
            'failed',
            { code: 'wrong_state' },
            later,
          ),
        ),
      ).toBe(false);
      expect(
        await store.transaction((tx) =>
          tx.dispatches.finish('h1', { attempt: 1, from: inFlight }, 'executed', { exitCode: 0, out: ['x'] }, later),
        ),
      ).toBe(true);
      expect(
        await store.transaction((tx) =>
          tx.dispatches.finish('h1', { attempt: 1, from: inFlight }, 'failed', { code: 'late' }, later),
        ),
      ).toBe(false);
      expect(
        await store.transaction((tx) =>
          tx.dispatches.finish('h1', { attempt: 1, from: ['executed', 'failed'] }, 'failed', { code: 'late' }, later),
        ),
      ).toBe(false);
      // Only an outcome_unknown of that attempt can be replaced by a later report.
      expect(
        await store.transaction((tx) => tx.dispatches.resolveUnknown('h1', 1, 'failed', { code: 'x' }, later)),
      ).toBe(false);
      expect(await store.read.dispatches.getByAction('d1')).toMatchObject({
        state: 'executed',
        status: 'executed',
        outcome: { exitCode: 0, out: ['x'] },
        finishedAt: later,
      });
      await store.transaction((tx) => tx.handoffs.setStatus('d1', 'failed', null, later));
      expect(await store.read.handoffs.getByAction('d1')).toMatchObject({ status: 'failed', outcome: null });
    });

    it('outcome_unknown: fenced like any settle, replaced once by the report of its attempt; reports noted once', async () => {
      await store.transaction(async (tx) => {
        await tx.actions.insert(action('u1', { status: 'auto_approved' }));
        await tx.handoffs.enqueue({
          id: 'hu',
          actionId: 'u1',
          projectId: 'p1',
          credentialRef: 'olivia',
          createdAt: at,
        });
      });
      const unknown = { status: 'failed', code: 'outcome_unknown', message: 'may have run', detail: { attempt: 1 } };
      // The execute of attempt 1 went out inside a claim that never committed: still queued at attempt 0.
      expect(
        await store.transaction((tx) =>
          tx.dispatches.finish('hu', { attempt: 0, from: ['queued'] }, 'failed', unknown, at),
        ),
      ).toBe(true);
      expect(
        await store.transaction((tx) =>
          tx.dispatches.resolveUnknown('hu', 2, 'executed', { status: 'executed' }, later),
        ),
      ).toBe(false);
      expect(
        await store.transaction((tx) =>
          tx.dispatches.resolveUnknown('hu', 1, 'executed', { status: 'executed', exitCode: 0 }, later),
        ),
      ).toBe(true);
      expect(
        await store.transaction((tx) => tx.dispatches.resolveUnknown('hu', 1, 'failed', { status: 'failed' }, later)),
      ).toBe(false);
      expect(await store.read.dispatches.get('hu')).toMatchObject({
        state: 'executed',
        status: 'executed',
        outcome: { exitCode: 0 },
        finishedAt: later,
      });
      expect(await store.transaction((tx) => tx.dispatches.noteReport('hu', 1, later))).toBe(true);
      expect(await store.transaction((tx) => tx.dispatches.noteReport('hu', 1, later))).toBe(false);
      expect(await store.transaction((tx) => tx.dispatches.noteReport('hu', 2, later))).toBe(true);
    });

    it('agent turns: suspended once, ended once', async () => {
      await store.transaction(async (tx) => {
        await tx.actions.insert(action('w1'));
        await tx.turns.suspend({ actionId: 'w1', projectId: 'p1', agentId: 'agent', taskId: null, createdAt: at });
        await tx.turns.suspend({
          actionId: 'w1',
          projectId: 'p1',
          agentId: 'someone-else',
          taskId: 't9',
          createdAt: later,
        });
      });
      expect(await store.read.turns.get('w1')).toEqual({
        actionId: 'w1',
        projectId: 'p1',
        agentId: 'agent',
        taskId: null,
        state: 'awaiting_approval',
        createdAt: at,
        updatedAt: at,
      });
      expect((await store.read.turns.listAwaiting(10)).map((t) => t.actionId)).toEqual(['w1']);
      expect(await store.transaction((tx) => tx.turns.end('w1', 'settled', later))).toBe(true);
      expect(await store.transaction((tx) => tx.turns.end('w1', 'lost', later))).toBe(false);
      expect(await store.read.turns.listAwaiting(10)).toEqual([]);
    });

    it('refuses work after close with a named error', async () => {
      await store.close();
      await expect(store.transaction(async () => 1)).rejects.toMatchObject({ code: 'store_closed' });
      await store.close(); // idempotent
    });
  });
}
