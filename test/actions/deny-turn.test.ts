// The denial ends the agent's turn inside the deny transaction: one commit holds the denial, its
// event and the settled turn, so a crash right after it never leaves the turn waiting (which a
// restart would have marked lost). The agent is woken after the commit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActions } from '../../src/actions/index.ts';
import { AgentTurns } from '../../src/agents/turns.ts';
import { SettlementWaiters } from '../../src/agents/waiters.ts';
import { createLogger } from '../../src/logger.ts';
import { PermissionsFile } from '../../src/store/permissions-file.ts';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/store.ts';
import type { Repositories, Store } from '../../src/store/types.ts';

const logger = createLogger('silent');
let dir: string;
let store: SqliteStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'brabo-deny-turn-'));
  store = openSqliteStore(join(dir, 'data'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The store, counting transactions and able to refuse every one after the first N. */
function counting(inner: Store): Store & { count: number; allow: number } {
  const wrapped = {
    count: 0,
    allow: Number.POSITIVE_INFINITY,
    read: inner.read,
    runnerTokens: inner.runnerTokens,
    close: () => inner.close(),
    transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
      wrapped.count += 1;
      if (wrapped.count > wrapped.allow) return Promise.reject(new Error('process died (simulated)'));
      return inner.transaction(work);
    },
  };
  return wrapped;
}

async function setUp(notify: (agentId: string, event: string, payload: unknown) => number) {
  const s = counting(store);
  const waiters = new SettlementWaiters();
  const turns = new AgentTurns({ store: s, logger, waiters });
  turns.attachNotifier({ notifyAgent: notify });
  const roots = {
    projectWorkspacesRoot: join(dir, 'ws'),
    projectsBase: join(dir, 'pb'),
    gatewayCheckout: join(dir, 'gw'),
  };
  const actions = createActions({
    store: s,
    permissionsFile: new PermissionsFile(),
    roots,
    execution: { notify() {} },
    observer: { proposed() {}, decided() {} },
    logger,
    proposalHook: turns,
  });
  const project = await actions.createProject({ name: 'Deny', executionMode: 'container', ownerId: 'olivia' });
  await actions.setMember(project.id, 'dev', 'developer', 'agent');
  const { action } = await actions.propose({
    projectId: project.id,
    proposerId: 'dev',
    actionType: 'terminal',
    payload: { command: 'make release', cwd: project.root },
  });
  expect(action.status).toBe('pending');
  expect((await store.read.turns.get(action.id))?.state).toBe('awaiting_approval');
  return { s, actions, actionId: action.id };
}

describe('deny ends the turn in its own transaction', () => {
  it('one transaction: the denial and the settled turn commit together; the agent gets the reason', async () => {
    const pushed: Array<{ agentId: string; payload: any }> = [];
    const { s, actions, actionId } = await setUp((agentId, _event, payload) => (pushed.push({ agentId, payload }), 1));
    const before = s.count;
    const result = await actions.deny(actionId, 'olivia', 'not on a Friday');
    expect(result.desfecho).toBe('recusada');
    expect(s.count - before).toBe(1);
    expect((await store.read.turns.get(actionId))?.state).toBe('settled');
    expect(pushed).toEqual([{ agentId: 'dev', payload: expect.objectContaining({ actionId, status: 'denied' }) }]);
  });

  it('nothing after the deny commit is needed: with every later transaction failing, the turn is settled, never lost', async () => {
    const { s, actions, actionId } = await setUp(() => 0);
    s.allow = s.count + 1; // the deny's own transaction, then the "process" is gone
    await actions.deny(actionId, 'olivia', 'no');
    expect((await store.read.turns.get(actionId))?.state).toBe('settled');
    expect((await store.read.actions.get(actionId))?.status).toBe('denied');
    // A restart finds no waiting turn to mark lost.
    expect(await store.read.turns.listAwaiting(10)).toEqual([]);
  });

  it('a second deny of the same action does not end or notify anything again', async () => {
    let notified = 0;
    const { actions, actionId } = await setUp(() => ++notified);
    await actions.deny(actionId, 'olivia', 'no');
    expect((await actions.deny(actionId, 'olivia', 'no again')).desfecho).toBe('ja_recusada');
    expect(notified).toBe(1);
  });
});
