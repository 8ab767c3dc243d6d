// The gateway pushes `execute` inside the claim transaction, before its COMMIT. If it dies there,
// the dispatch is still `queued` (attempt N) after the restart while the runner holds the outcome of
// attempt N+1 — e.g. `failed runner_interrupted` when the runner died too. That result, sent by the
// runner's outbox on rejoin, settles the dispatch; it is not delivered (so not run) again.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Execute, Result } from '../../runner-protocol/index.ts';
import { createActions, HandoffNotifier } from '../../src/actions/index.ts';
import { AgentTurns } from '../../src/agents/turns.ts';
import { SettlementWaiters } from '../../src/agents/waiters.ts';
import { DEFAULT_EXECUTION_LIMITS } from '../../src/execution/config.ts';
import { Dispatcher } from '../../src/execution/dispatcher.ts';
import type { RunnerPort } from '../../src/execution/ports.ts';
import { createLogger } from '../../src/logger.ts';
import { PermissionsFile } from '../../src/store/permissions-file.ts';
import type { Store } from '../../src/store/types.ts';
import { openTestStore } from '../support/store-mode.ts';

let dir: string;
let store: Store;
let dispatcher: Dispatcher | null = null;
const logger = createLogger('silent');
const roots = () => ({
  projectWorkspacesRoot: join(dir, 'ws'),
  projectsBase: join(dir, 'pb'),
  gatewayCheckout: join(dir, 'gw'),
  runnerProjectsDir: join(dir, 'rp'),
});

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brabo-before-claim-'));
  store = await openTestStore(join(dir, 'data'));
});
afterEach(async () => {
  await dispatcher?.close();
  dispatcher = null;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An approved runner action whose dispatch stays queued: the process that approved it died before its claim committed. */
async function queuedAfterLostClaim(): Promise<{ projectId: string; actionId: string; dispatchId: string }> {
  const machine = join(dir, 'machine');
  mkdirSync(machine, { recursive: true });
  const actions = createActions({
    store,
    permissionsFile: new PermissionsFile(),
    roots: roots(),
    execution: new HandoffNotifier(logger),
    observer: { proposed() {}, decided() {} },
    logger,
  });
  const project = await actions.createProject({ name: 'U', executionMode: 'runner', ownerId: 'olivia', root: machine });
  await actions.setMember(project.id, 'agent', 'developer', 'agent');
  const { action } = await actions.propose({
    projectId: project.id,
    proposerId: 'agent',
    actionType: 'terminal',
    payload: { command: 'make deploy', cwd: machine },
  });
  await actions.approve(action.id, 'olivia');
  const dispatch = await store.read.dispatches.getByAction(action.id);
  if (!dispatch || dispatch.state !== 'queued' || dispatch.attempt !== 0)
    throw new Error(`expected a queued dispatch at attempt 0, got ${JSON.stringify(dispatch)}`);
  return { projectId: project.id, actionId: action.id, dispatchId: dispatch.id };
}

/** The restarted gateway, with a connected runner that records every execute pushed to it. */
function restartedGateway(): { dispatcher: Dispatcher; executes: Execute[] } {
  const executes: Execute[] = [];
  const runners: RunnerPort = {
    isConnected: () => true,
    lastSeen: () => null,
    execute: async (_projectId, execute) => (executes.push(execute), { ok: true }),
    onJoined: () => () => {},
    onLeft: () => () => {},
  };
  const turns = new AgentTurns({ store, logger, waiters: new SettlementWaiters() });
  dispatcher = new Dispatcher({
    store,
    logger,
    turns,
    roots: roots(),
    limits: { ...DEFAULT_EXECUTION_LIMITS, runnerGraceMs: 50 },
    broker: null,
    runners,
  });
  return { dispatcher, executes };
}

const interrupted = (dispatchId: string, attempt: number): Result => ({
  dispatchId,
  attempt,
  status: 'failed',
  fromJournal: true,
  reason: {
    code: 'runner_interrupted',
    message:
      'the runner stopped while this command was running (started at 2026-03-04T05:06:07.000Z); it was not run again. Check the project folder for partial effects and propose it again if needed.',
  },
});

describe('a runner result for a dispatch still queued after a gateway restart', () => {
  it("runner_interrupted for the lost claim's attempt settles the action failed with that code; start-up then delivers nothing", async () => {
    const { projectId, actionId, dispatchId } = await queuedAfterLostClaim();
    const gateway = restartedGateway();
    expect(await gateway.dispatcher.sink?.onResult(projectId, interrupted(dispatchId, 1))).toEqual({ ok: true });

    const dispatch = await store.read.dispatches.get(dispatchId);
    expect(dispatch?.state).toBe('failed');
    expect(dispatch?.outcome).toMatchObject({ status: 'failed', origin: 'runner', code: 'runner_interrupted' });
    expect(String(dispatch?.outcome?.message)).toContain('it was not run again');
    const failed = (await store.read.events.listAfter(projectId, 0, 100)).filter(
      (e) => e.type === 'action.failed' && e.actionId === actionId,
    );
    expect(failed).toHaveLength(1);

    expect(await gateway.dispatcher.start()).toEqual({ queued: 0, inFlight: 0 });
    await gateway.dispatcher.dispatchAction(actionId, 'live');
    expect(gateway.executes).toEqual([]);
  });

  it('the same result sent again (outbox re-send, or the journal answering a re-delivery) is accepted and changes nothing', async () => {
    const { projectId, dispatchId } = await queuedAfterLostClaim();
    const gateway = restartedGateway();
    await gateway.dispatcher.sink?.onResult(projectId, interrupted(dispatchId, 1));
    expect(await gateway.dispatcher.sink?.onResult(projectId, interrupted(dispatchId, 1))).toEqual({ ok: true });
    expect(
      (await store.read.events.listAfter(projectId, 0, 100)).filter((e) => e.type === 'action.failed'),
    ).toHaveLength(1);
  });

  it('an attempt that was never pushed (not queued attempt + 1) is refused stale_attempt and the dispatch stays queued', async () => {
    const { projectId, dispatchId } = await queuedAfterLostClaim();
    const gateway = restartedGateway();
    for (const attempt of [2, 5]) {
      const answer = await gateway.dispatcher.sink?.onResult(projectId, interrupted(dispatchId, attempt));
      expect(answer).toMatchObject({ ok: false, reason: { code: 'stale_attempt' } });
    }
    expect((await store.read.dispatches.get(dispatchId))?.state).toBe('queued');
  });

  it("a result for another project's dispatch is refused forbidden_dispatch", async () => {
    const { dispatchId } = await queuedAfterLostClaim();
    const gateway = restartedGateway();
    expect(await gateway.dispatcher.sink?.onResult('p-other', interrupted(dispatchId, 1))).toMatchObject({
      ok: false,
      reason: { code: 'forbidden_dispatch' },
    });
    expect((await store.read.dispatches.get(dispatchId))?.state).toBe('queued');
  });

  it("when the restarted gateway re-delivers first, the runner's journal answer settles it the same way", async () => {
    const { projectId, actionId, dispatchId } = await queuedAfterLostClaim();
    const gateway = restartedGateway();
    await gateway.dispatcher.start();
    for (let i = 0; i < 200 && gateway.executes.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(gateway.executes).toEqual([expect.objectContaining({ dispatchId, attempt: 1 })]);
    expect(await gateway.dispatcher.sink?.onResult(projectId, interrupted(dispatchId, 1))).toEqual({ ok: true });
    const dispatch = await store.read.dispatches.getByAction(actionId);
    expect(dispatch).toMatchObject({ state: 'failed', attempt: 1, outcome: { code: 'runner_interrupted' } });
  });
});
