// Unit tests of the dispatcher with injected ports (real SQLite store, fake broker/runner): a port
// that throws becomes a named failure, never an unhandled exception; no runner is
// runner_not_connected at once; a stale or unknown result is refused; resume never re-runs.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContainerBrokerPort } from '../../broker/port.ts';
import type { RunnerPort, RunnerResultSink } from '../../src/execution/ports.ts';
import { createLogger } from '../../src/logger.ts';
import type { Store } from '../../src/store/types.ts';
import { AgentTurns } from '../../src/agents/turns.ts';
import { SettlementWaiters } from '../../src/agents/waiters.ts';
import { DEFAULT_EXECUTION_LIMITS } from '../../src/execution/config.ts';
import { Dispatcher } from '../../src/execution/dispatcher.ts';
import { openTestStore } from '../support/store-mode.ts';
import { dispatcherHarness } from './dispatcher-harness.ts';

let dir: string;
let store: Store;
const logger = createLogger('silent');

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'brabo-dispatcher-'));
  store = await openTestStore(join(dir, 'data'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const throwingBroker = (): ContainerBrokerPort => {
  const boom = () => {
    throw new Error('socket hang up (injected)');
  };
  return { start: boom, stop: boom, remove: boom, inspect: boom, list: boom, exec: boom };
};

function fakeRunner(overrides: Partial<RunnerPort> = {}): RunnerPort {
  return {
    isConnected: () => true,
    lastSeen: () => null,
    execute: async () => ({ ok: true }),
    onJoined: () => () => {},
    onLeft: () => () => {},
    ...overrides,
  };
}

/**
 * The dispatcher's view of the store, each transaction's COMMIT held until `gate()` settles: what a
 * port does during a transaction (a read on another session) is then seen before the commit on
 * both stores, not raced against it.
 */
function commitAfter(base: Store, gate: () => Promise<void>): Store {
  return new Proxy(base, {
    get(target, property) {
      if (property === 'transaction')
        return <T>(work: (tx: Parameters<Parameters<Store['transaction']>[0]>[0]) => Promise<T>) =>
          target.transaction(async (tx) => {
            const value = await work(tx);
            await gate();
            return value;
          });
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function setUp(
  mode: 'container' | 'runner',
  ports: { broker?: ContainerBrokerPort | null; runners?: RunnerPort | null; dispatcherStore?: Store },
) {
  const { roots, dispatcher, actions } = dispatcherHarness(store, dir, logger, ports);
  const machine = join(dir, 'machine');
  mkdirSync(machine, { recursive: true });
  const project = await actions.createProject({
    name: 'U',
    executionMode: mode,
    ownerId: 'olivia',
    ...(mode === 'runner' ? { root: machine } : {}),
  });
  await actions.setMember(project.id, 'agent', 'developer', 'agent');
  const root = mode === 'runner' ? machine : join(roots.projectWorkspacesRoot, project.workspaceDirName);
  const proposeApproved = async (command: string) => {
    const { action } = await actions.propose({
      projectId: project.id,
      proposerId: 'agent',
      actionType: 'terminal',
      payload: { command, cwd: root },
    });
    await actions.approve(action.id, 'olivia');
    return action.id;
  };
  const settledOutcome = async (actionId: string) => {
    for (let i = 0; i < 200; i++) {
      const d = await store.read.dispatches.getByAction(actionId);
      if (d && (d.state === 'executed' || d.state === 'failed')) return d;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('not settled');
  };
  return { dispatcher, actions, project, proposeApproved, settledOutcome };
}

describe('dispatcher with injected ports', () => {
  it('a broker that throws becomes execution_port_failed, recorded as action.failed', async () => {
    const { proposeApproved, settledOutcome, project, dispatcher } = await setUp('container', {
      broker: throwingBroker(),
    });
    const id = await proposeApproved('make build');
    const dispatch = await settledOutcome(id);
    expect(dispatch.outcome).toMatchObject({ status: 'failed', code: 'execution_port_failed' });
    expect(String(dispatch.outcome?.message)).toContain('Docker broker');
    const failed = (await store.read.events.listAfter(project.id, 0, 100)).filter((e) => e.type === 'action.failed');
    expect(failed).toHaveLength(1);
    await dispatcher.close();
  });

  it('a runner gateway that throws before sending becomes execution_port_failed ("not run" is certain)', async () => {
    const throwing = await setUp('runner', {
      runners: fakeRunner({
        execute: () => {
          throw new Error('injected');
        },
      }),
    });
    expect((await throwing.settledOutcome(await throwing.proposeApproved('make a'))).outcome).toMatchObject({
      code: 'execution_port_failed',
    });
    await throwing.dispatcher.close();
  });

  it('a runner gateway that fails after the execute went out is outcome_unknown, never "not run"', async () => {
    const throwing = await setUp('runner', {
      runners: fakeRunner({ execute: () => Promise.reject(new Error('injected')) }),
    });
    const outcome = (await throwing.settledOutcome(await throwing.proposeApproved('make a'))).outcome;
    expect(outcome).toMatchObject({
      code: 'outcome_unknown',
      detail: { attempt: 1, cause: 'dispatcher_failed_after_send' },
    });
    expect(String(outcome?.message)).toContain('may have run');
    await throwing.dispatcher.close();
  });

  it('no runner: runner_not_connected names the project and when it was last seen', async () => {
    const seen = new Date('2026-11-29T10:00:00Z');
    const { proposeApproved, settledOutcome, project, dispatcher } = await setUp('runner', {
      runners: fakeRunner({ isConnected: () => false, lastSeen: () => seen }),
    });
    const dispatch = await settledOutcome(await proposeApproved('make a'));
    expect(dispatch.outcome).toMatchObject({
      code: 'runner_not_connected',
      detail: { projectId: project.id, lastSeen: seen.toISOString() },
    });
    expect(dispatch.attempt).toBe(0); // never sent
    await dispatcher.close();
  });

  it('a runner held by another node: each action is handed there exactly once (early, not again after planning); this node claims nothing', async () => {
    const forwarded: Array<{ nodeId: string; actionId: string }> = [];
    let executed = 0;
    const { proposeApproved, dispatcher } = await setUp('runner', {
      runners: fakeRunner({
        locate: () => ({ at: 'node', nodeId: 'node-b' }),
        forward: (nodeId, actionId) => void forwarded.push({ nodeId, actionId }),
        execute: async () => (executed++, { ok: true }),
      }),
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await proposeApproved(`make ${i}`));
    await dispatcher.close(); // waits for the work it started
    expect(forwarded).toEqual(ids.map((actionId) => ({ nodeId: 'node-b', actionId })));
    expect(executed).toBe(0);
    for (const id of ids)
      expect(await store.read.dispatches.getByAction(id)).toMatchObject({ state: 'queued', attempt: 0 });
  });

  it('results: unknown dispatch and stale attempt are refused; the current attempt is recorded once', async () => {
    const { proposeApproved, project, dispatcher } = await setUp('runner', { runners: fakeRunner() });
    const id = await proposeApproved('make a');
    let dispatch = await store.read.dispatches.getByAction(id);
    for (let i = 0; i < 100 && dispatch?.state !== 'accepted'; i++) {
      await new Promise((r) => setTimeout(r, 10));
      dispatch = await store.read.dispatches.getByAction(id);
    }
    const sink = dispatcher.sink!;
    expect(await sink.onResult(project.id, { dispatchId: 'nope', attempt: 1, status: 'executed' })).toMatchObject({
      ok: false,
      reason: { code: 'unknown_dispatch' },
    });
    expect(
      await sink.onResult('other-project', { dispatchId: dispatch!.id, attempt: 1, status: 'executed' }),
    ).toMatchObject({ ok: false, reason: { code: 'forbidden_dispatch' } });
    expect(await sink.onResult(project.id, { dispatchId: dispatch!.id, attempt: 7, status: 'executed' })).toMatchObject(
      { ok: false, reason: { code: 'stale_attempt' } },
    );
    expect((await store.read.dispatches.get(dispatch!.id))?.state).toBe('accepted');
    expect(
      await sink.onResult(project.id, {
        dispatchId: dispatch!.id,
        attempt: 1,
        status: 'executed',
        exitCode: 3,
        stdout: 'x',
      }),
    ).toEqual({ ok: true });
    expect(
      await sink.onResult(project.id, {
        dispatchId: dispatch!.id,
        attempt: 1,
        status: 'executed',
        exitCode: 3,
        stdout: 'x',
      }),
    ).toEqual({ ok: true }); // outbox re-send
    expect((await store.read.dispatches.get(dispatch!.id))?.outcome).toMatchObject({
      status: 'executed',
      exitCode: 3,
      stdout: 'x',
    });
    expect(
      (await store.read.events.listAfter(project.id, 0, 100)).filter((e) => e.type === 'action.executed'),
    ).toHaveLength(1);
    await dispatcher.close();
  });

  it('execute goes out before the claim is committed; a result that arrives that early waits for the commit and is recorded', async () => {
    let early: Promise<unknown> | null = null;
    let stateAtPush: string | undefined;
    let sink: RunnerResultSink | null = null;
    let readAtPush: Promise<unknown> = Promise.resolve();
    const runners = fakeRunner({
      execute: async (projectId, execute) => {
        // The claim transaction commits only once this read is answered (commitAfter).
        readAtPush = store.read.dispatches.get(execute.dispatchId);
        stateAtPush = ((await readAtPush) as { state?: string } | null)?.state;
        early = sink!.onResult(projectId, {
          dispatchId: execute.dispatchId,
          attempt: execute.attempt,
          status: 'executed',
          exitCode: 0,
          stdout: 'early',
        });
        return { ok: true };
      },
    });
    const dispatcherStore = commitAfter(store, () => readAtPush.then(() => {}));
    const { proposeApproved, settledOutcome, dispatcher } = await setUp('runner', { runners, dispatcherStore });
    sink = dispatcher.sink;
    const dispatch = await settledOutcome(await proposeApproved('make a'));
    // The committed view at the push, read on another session while the claim is still open.
    expect(stateAtPush).toBe('queued');
    expect(await early).toEqual({ ok: true }); // not refused as a stale attempt of the queued row
    expect(dispatch).toMatchObject({ state: 'executed', attempt: 1, outcome: { status: 'executed', stdout: 'early' } });
    await dispatcher.close();
  });

  it('start-up: an in-flight runner dispatch is never re-delivered; without its runner it becomes runner_lost', async () => {
    let deliveries = 0;
    const first = await setUp('runner', { runners: fakeRunner({ execute: async () => (deliveries++, { ok: true }) }) });
    const id = await first.proposeApproved('make a');
    for (let i = 0; i < 100 && (await store.read.dispatches.getByAction(id))?.state !== 'accepted'; i++)
      await new Promise((r) => setTimeout(r, 10));
    await first.dispatcher.close();
    const turns = new AgentTurns({ store, logger, waiters: new SettlementWaiters() });
    const restarted = new Dispatcher({
      store,
      logger,
      turns,
      limits: { ...DEFAULT_EXECUTION_LIMITS, runnerGraceMs: 50 },
      broker: null,
      roots: {
        projectWorkspacesRoot: join(dir, 'ws'),
        projectsBase: join(dir, 'pb'),
        gatewayCheckout: join(dir, 'gw'),
        runnerProjectsDir: join(dir, 'rp'),
      },
      runners: fakeRunner({ isConnected: () => false, execute: async () => (deliveries++, { ok: true }) }),
    });
    await restarted.start();
    const dispatch = await first.settledOutcome(id);
    expect(dispatch.outcome).toMatchObject({ code: 'runner_lost' });
    expect(deliveries).toBe(1);
    await restarted.close();
  });
});
