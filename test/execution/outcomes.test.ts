// Outcomes are true (issue 10), on SQLite and on Postgres, through the dispatcher with a fake
// runner port: outcome_unknown whenever the execute may have reached the runner and no answer
// came; the runner's later report replaces it; a report that cannot change a final outcome is one
// action.late_result (re-sends add nothing); runner_lost after the grace period and after the
// dispatch lease; a runner back within the grace period; start-up grace however old the lease;
// a store fault after a good ack; pre-claim failures fenced against another dispatcher's claim;
// output and results for another project's dispatch refused; a result over the frame limit.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Execute, Result } from '../../runner-protocol/index.ts';
import { createActions, HandoffNotifier } from '../../src/actions/index.ts';
import { AgentTurns } from '../../src/agents/turns.ts';
import { SettlementWaiters } from '../../src/agents/waiters.ts';
import { DEFAULT_EXECUTION_LIMITS, type ExecutionLimits } from '../../src/execution/config.ts';
import { Dispatcher } from '../../src/execution/dispatcher.ts';
import type { Delivery, RunnerPort } from '../../src/execution/ports.ts';
import { createLogger } from '../../src/logger.ts';
import { PermissionsFile } from '../../src/store/permissions-file.ts';
import type { Dispatch, Store } from '../../src/store/types.ts';
import { storeKinds } from './stores.ts';

const logger = createLogger('silent');
const kinds = storeKinds();
afterAll(async () => {
  for (const kind of kinds) await kind.end();
});

class FakeRunners implements RunnerPort {
  connected = true;
  readonly executes: Execute[] = [];
  answer: (execute: Execute) => Promise<Delivery> = async () => ({ ok: true });
  readonly #joined = new Set<(projectId: string) => void>();
  readonly #left = new Set<(projectId: string, reason: string) => void>();
  isConnected = (): boolean => this.connected;
  lastSeen = (): Date | null => null;
  execute = (_projectId: string, execute: Execute): Promise<Delivery> => {
    this.executes.push(execute);
    return this.answer(execute);
  };
  onJoined(listener: (projectId: string) => void): () => void {
    this.#joined.add(listener);
    return () => this.#joined.delete(listener);
  }
  onLeft(listener: (projectId: string, reason: string) => void): () => void {
    this.#left.add(listener);
    return () => this.#left.delete(listener);
  }
  leave(projectId: string): void {
    this.connected = false;
    for (const listener of this.#left) listener(projectId, 'closed');
  }
  join(projectId: string): void {
    this.connected = true;
    for (const listener of this.#joined) listener(projectId);
  }
}

const until = async <T>(check: () => Promise<T | null | undefined | false>, what: string, ms = 5_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(kinds)('outcomes on $name', (kind) => {
  let store: Store;
  let dispose: () => Promise<void>;
  let dir: string;
  const dispatchers: Dispatcher[] = [];

  beforeEach(async () => {
    ({ store, dispose } = await kind.open());
    dir = mkdtempSync(join(tmpdir(), 'brabo-outcomes-'));
  });
  afterEach(async () => {
    for (const d of dispatchers.splice(0)) await d.close(100);
    await dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const roots = () => ({
    projectWorkspacesRoot: join(dir, 'ws'),
    projectsBase: join(dir, 'pb'),
    gatewayCheckout: join(dir, 'gw'),
    runnerProjectsDir: join(dir, 'rp'),
  });
  const limits = (over: Partial<ExecutionLimits> = {}): ExecutionLimits => ({
    ...DEFAULT_EXECUTION_LIMITS,
    runnerGraceMs: 150,
    deliveryTimeoutMs: 2_000,
    pollIntervalMs: 60_000,
    ...over,
  });

  function dispatcherFor(runners: RunnerPort, over: Partial<ExecutionLimits> = {}, onStore: Store = store): Dispatcher {
    const turns = new AgentTurns({ store: onStore, logger, waiters: new SettlementWaiters() });
    const dispatcher = new Dispatcher({
      store: onStore,
      logger,
      turns,
      roots: roots(),
      limits: limits(over),
      broker: null,
      runners,
    });
    dispatchers.push(dispatcher);
    return dispatcher;
  }

  async function project(notify: (actionId: string) => void) {
    const notifier = new HandoffNotifier(logger);
    notifier.subscribe(notify);
    const actions = createActions({
      store,
      permissionsFile: new PermissionsFile(),
      roots: roots(),
      execution: notifier,
      observer: { proposed() {}, decided() {} },
      logger,
    });
    const machine = join(dir, 'machine');
    mkdirSync(machine, { recursive: true });
    const created = await actions.createProject({
      name: 'O',
      executionMode: 'runner',
      ownerId: 'olivia',
      root: machine,
    });
    await actions.setMember(created.id, 'agent', 'developer', 'agent');
    const approve = async (command: string, payload: Record<string, unknown> = {}): Promise<string> => {
      const { action } = await actions.propose({
        projectId: created.id,
        proposerId: 'agent',
        actionType: 'terminal',
        payload: { command, cwd: machine, ...payload },
      });
      await actions.approve(action.id, 'olivia');
      return action.id;
    };
    return { projectId: created.id, approve };
  }

  const dispatchOf = async (actionId: string) => (await store.read.dispatches.getByAction(actionId)) as Dispatch;
  const settled = (actionId: string) =>
    until(async () => {
      const d = await store.read.dispatches.getByAction(actionId);
      return d && (d.state === 'executed' || d.state === 'failed') ? d : null;
    }, `action ${actionId} to settle`);
  const inState = (actionId: string, state: string) =>
    until(async () => {
      const d = await store.read.dispatches.getByAction(actionId);
      return d?.state === state ? d : null;
    }, `action ${actionId} to be ${state}`);
  const eventsOf = async (projectId: string, actionId: string) =>
    (await store.read.events.listAfter(projectId, 0, 1000)).filter(
      (e) => e.actionId === actionId && e.type.startsWith('action.'),
    );

  it('runner gone between spawn and ack: outcome_unknown ("may have run"); its journal report replaces it once; re-sends add nothing', async () => {
    const runners = new FakeRunners();
    runners.answer = async () => ({
      ok: false,
      code: 'runner_not_connected',
      message: 'runner disconnected (closed) before acknowledging the dispatch',
    });
    const dispatcher = dispatcherFor(runners);
    const { projectId, approve } = await project((id) => dispatcher.notify(id));
    for (const report of [
      {
        status: 'failed',
        fromJournal: true,
        reason: { code: 'runner_interrupted', message: 'the runner stopped while this command ran' },
      },
      { status: 'executed', exitCode: 0, stdout: 'done\n', fromJournal: true },
    ] as const) {
      const actionId = await approve(`make ${report.status}`);
      const unknown = await settled(actionId);
      expect(unknown.outcome).toMatchObject({
        status: 'failed',
        code: 'outcome_unknown',
        detail: { attempt: 1, cause: 'runner_disconnected_before_ack' },
      });
      expect(String(unknown.outcome?.message)).toMatch(/may have run/);
      expect(String(unknown.outcome?.message)).not.toMatch(/was not run/);
      const result = { dispatchId: unknown.id, attempt: 1, ...report } as Result;
      for (let i = 0; i < 3; i++) expect(await dispatcher.sink!.onResult(projectId, result)).toEqual({ ok: true });
      const resolved = await dispatchOf(actionId);
      expect(resolved.state).toBe(report.status === 'executed' ? 'executed' : 'failed');
      expect(resolved.outcome).toMatchObject({
        origin: 'runner',
        ...(report.status === 'executed' ? { exitCode: 0 } : { code: 'runner_interrupted' }),
      });
      const log = await eventsOf(projectId, actionId);
      expect(log.map((e) => [e.type, e.payload.code ?? null, e.payload.resolves ?? null])).toEqual([
        ['action.failed', 'outcome_unknown', null],
        [
          report.status === 'executed' ? 'action.executed' : 'action.failed',
          report.status === 'executed' ? null : 'runner_interrupted',
          'outcome_unknown',
        ],
      ]);
    }
  });

  it('no ack within the delivery timeout: outcome_unknown (delivery_timeout), never "propose it again"', async () => {
    const runners = new FakeRunners();
    runners.answer = async () => ({
      ok: false,
      code: 'delivery_timeout',
      message: 'runner did not acknowledge within 50 ms',
    });
    const dispatcher = dispatcherFor(runners);
    const { approve } = await project((id) => dispatcher.notify(id));
    const dispatch = await settled(await approve('make t'));
    expect(dispatch.outcome).toMatchObject({
      code: 'outcome_unknown',
      detail: { cause: 'delivery_timeout', attempt: 1 },
    });
    expect(String(dispatch.outcome?.message)).not.toMatch(/propose the action again\./);
  });

  it('nothing sent (no runner connected): runner_not_connected, "not run" is certain', async () => {
    const runners = new FakeRunners();
    runners.connected = false;
    const dispatcher = dispatcherFor(runners);
    const { approve } = await project((id) => dispatcher.notify(id));
    const dispatch = await settled(await approve('make n'));
    expect(dispatch.outcome).toMatchObject({ code: 'runner_not_connected' });
    expect(runners.executes).toEqual([]);
  });

  it('a late result after runner_lost: one action.late_result, answered dispatch_settled, however often it is re-sent', async () => {
    const runners = new FakeRunners();
    const dispatcher = dispatcherFor(runners);
    const { projectId, approve } = await project((id) => dispatcher.notify(id));
    const actionId = await approve('make late');
    const accepted = await inState(actionId, 'accepted');
    runners.leave(projectId);
    const lost = await settled(actionId);
    expect(lost.outcome).toMatchObject({ code: 'runner_lost' });
    const late: Result = { dispatchId: accepted.id, attempt: 1, status: 'executed', exitCode: 0, stdout: 'it ran' };
    for (const result of [late, late, { ...late, fromJournal: true }, late]) {
      expect(await dispatcher.sink!.onResult(projectId, result)).toMatchObject({
        ok: false,
        reason: { code: 'dispatch_settled' },
      });
    }
    const log = await eventsOf(projectId, actionId);
    expect(log.map((e) => e.type)).toEqual(['action.failed', 'action.late_result']);
    expect(log[1]?.payload).toMatchObject({
      dispatchId: accepted.id,
      attempt: 1,
      status: 'executed',
      exitCode: 0,
      recordedAs: 'runner_lost',
    });
    expect((await dispatchOf(actionId)).outcome).toMatchObject({ code: 'runner_lost' }); // final: unchanged
  });

  it('a runner back within the grace period reports normally; no runner_lost', async () => {
    const runners = new FakeRunners();
    const dispatcher = dispatcherFor(runners, { runnerGraceMs: 300 });
    const { projectId, approve } = await project((id) => dispatcher.notify(id));
    const actionId = await approve('make back');
    const accepted = await inState(actionId, 'accepted');
    runners.leave(projectId);
    await sleep(100);
    runners.join(projectId);
    await sleep(400); // past the grace period
    expect((await dispatchOf(actionId)).state).toBe('accepted');
    expect(
      await dispatcher.sink!.onResult(projectId, {
        dispatchId: accepted.id,
        attempt: 1,
        status: 'executed',
        exitCode: 0,
      }),
    ).toEqual({ ok: true });
    expect((await dispatchOf(actionId)).state).toBe('executed');
  });

  it('the dispatch lease: a connected runner that never reports is runner_lost when the lease (delivery + timeout + grace) runs out', async () => {
    const runners = new FakeRunners();
    const dispatcher = dispatcherFor(runners, { deliveryTimeoutMs: 50, runnerGraceMs: 100 });
    const { approve } = await project((id) => dispatcher.notify(id));
    const actionId = await approve('make lease', { timeoutMs: 200 });
    const accepted = await inState(actionId, 'accepted');
    expect(Date.parse(accepted.leaseUntil as string) - Date.parse(accepted.sentAt as string)).toBeGreaterThanOrEqual(
      350,
    );
    const lost = await settled(actionId);
    expect(lost.outcome).toMatchObject({ code: 'runner_lost' });
    expect(String(lost.outcome?.message)).toContain('lease');
  });

  it('start-up grace: in-flight rows whose lease ran out long ago wait one grace window for their runner; a report in it lands, silence is runner_lost', async () => {
    const runners = new FakeRunners();
    const first = dispatcherFor(runners);
    const { projectId, approve } = await project((id) => first.notify(id));
    const reported = await inState(await approve('make a'), 'accepted');
    const silent = await inState(await approve('make b'), 'accepted');
    await first.close(100);
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    for (const d of [reported, silent])
      expect(
        await store.transaction((tx) => tx.dispatches.advance(d.id, 1, ['accepted'], 'accepted', hourAgo, hourAgo)),
      ).toBe(true);

    const back = new FakeRunners();
    back.connected = false;
    const restarted = dispatcherFor(back, { runnerGraceMs: 400 });
    await restarted.start();
    await sleep(150);
    expect((await store.read.dispatches.get(reported.id))?.state).toBe('accepted');
    expect((await store.read.dispatches.get(silent.id))?.state).toBe('accepted');
    back.join(projectId);
    expect(
      await restarted.sink!.onResult(projectId, {
        dispatchId: reported.id,
        attempt: 1,
        status: 'executed',
        exitCode: 0,
        fromJournal: true,
      }),
    ).toEqual({ ok: true });
    const lost = await settled(silent.actionId);
    expect(lost.outcome).toMatchObject({ code: 'runner_lost' });
    expect((await store.read.dispatches.get(reported.id))?.state).toBe('executed');
  });

  it('advance(accepted) failing after a good ack is not execution_port_failed: the result still settles it', async () => {
    const faulty: Store = {
      read: store.read,
      runnerTokens: store.runnerTokens,
      close: () => store.close(),
      transaction: (work) =>
        store.transaction((tx) =>
          work({
            ...tx,
            dispatches: new Proxy(tx.dispatches, {
              get(target, property) {
                if (property === 'advance') {
                  return async (...args: Parameters<typeof target.advance>) => {
                    if (args[3] === 'accepted') throw new Error('injected: connection lost');
                    return target.advance(...args);
                  };
                }
                const value = Reflect.get(target, property) as unknown;
                return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
              },
            }),
          }),
        ),
    };
    const runners = new FakeRunners();
    const dispatcher = dispatcherFor(runners, {}, faulty);
    const { projectId, approve } = await project((id) => dispatcher.notify(id));
    const actionId = await approve('make ack');
    await until(async () => runners.executes.length === 1, 'the execute');
    await sleep(100);
    expect((await dispatchOf(actionId)).state).toBe('sent');
    const dispatchId = runners.executes[0]!.dispatchId;
    expect(
      await dispatcher.sink!.onResult(projectId, { dispatchId, attempt: 1, status: 'executed', exitCode: 0 }),
    ).toEqual({ ok: true });
    expect((await dispatchOf(actionId)).outcome).toMatchObject({ status: 'executed', exitCode: 0 });
    expect((await eventsOf(projectId, actionId)).map((e) => e.payload.code ?? e.type)).toEqual(['action.executed']);
  });

  it('a pre-claim failure on one dispatcher never overwrites the claim of another (fenced on queued), 24 races', async () => {
    const connected = new FakeRunners();
    const disconnected = new FakeRunners();
    disconnected.connected = false;
    const a = dispatcherFor(connected);
    const b = dispatcherFor(disconnected);
    const { projectId, approve } = await project((id) => {
      b.notify(id);
      a.notify(id);
    });
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) ids.push(await approve(`make race${i}`));
    for (const id of ids) {
      const dispatch = await until(async () => {
        const d = await store.read.dispatches.getByAction(id);
        return d && d.state !== 'queued' && d.state !== 'sent' ? d : null;
      }, 'each race to end');
      const sent = connected.executes.some((e) => e.dispatchId === dispatch.id);
      if (sent) {
        expect(dispatch.state).toBe('accepted'); // the claim stands; nobody wrote "not run" over it
        expect(
          await a.sink!.onResult(projectId, {
            dispatchId: dispatch.id,
            attempt: dispatch.attempt,
            status: 'executed',
            exitCode: 0,
          }),
        ).toEqual({ ok: true });
      } else {
        expect(dispatch.outcome).toMatchObject({ code: 'runner_not_connected' });
      }
      const settledEvents = (await eventsOf(projectId, id)).filter(
        (e) => e.type === 'action.executed' || e.type === 'action.failed',
      );
      expect(settledEvents).toHaveLength(1);
    }
  });

  it("output and results for another project's dispatch are refused forbidden_dispatch; unknown ones unknown_dispatch", async () => {
    const runners = new FakeRunners();
    const dispatcher = dispatcherFor(runners);
    const { projectId, approve } = await project((id) => dispatcher.notify(id));
    const actionId = await approve('make iso');
    const accepted = await inState(actionId, 'accepted');
    const sink = dispatcher.sink!;
    expect(
      await sink.onOutput('other', { dispatchId: accepted.id, attempt: 1, stream: 'stdout', seq: 0, data: 'x' }),
    ).toMatchObject({ ok: false, reason: { code: 'forbidden_dispatch' } });
    expect((await dispatchOf(actionId)).state).toBe('accepted'); // not moved to running by another project
    for (let i = 0; i < 200; i++) {
      expect(
        await sink.onOutput(projectId, { dispatchId: `nope-${i}`, attempt: 1, stream: 'stdout', seq: i, data: 'x' }),
      ).toMatchObject({ ok: false, reason: { code: 'unknown_dispatch' } });
    }
    expect(
      await sink.onOutput(projectId, { dispatchId: accepted.id, attempt: 1, stream: 'stdout', seq: 0, data: 'x' }),
    ).toEqual({ ok: true });
    expect((await dispatchOf(actionId)).state).toBe('running');
    expect(
      await sink.onResult('other', { dispatchId: accepted.id, attempt: 1, status: 'executed', exitCode: 0 }),
    ).toMatchObject({ ok: false, reason: { code: 'forbidden_dispatch' } });
  });

  it('a result over the frame limit: failed result_too_large with the exit code and the output cut; answered result_too_large', async () => {
    const runners = new FakeRunners();
    const dispatcher = dispatcherFor(runners);
    const { projectId, approve } = await project((id) => dispatcher.notify(id));
    const actionId = await approve('make huge');
    const accepted = await inState(actionId, 'accepted');
    const big: Result = {
      dispatchId: accepted.id,
      attempt: 1,
      status: 'executed',
      exitCode: 0,
      stdout: 'o'.repeat(3 * 1024 * 1024),
      stderr: 'e'.repeat(10),
    };
    expect(await dispatcher.sink!.onOversizedResult(projectId, big, 3 * 1024 * 1024 + 100)).toMatchObject({
      ok: false,
      reason: { code: 'result_too_large' },
    });
    const dispatch = await dispatchOf(actionId);
    expect(dispatch.outcome).toMatchObject({
      status: 'failed',
      code: 'result_too_large',
      exitCode: 0,
      truncated: true,
      stderr: 'e'.repeat(10),
    });
    expect(String(dispatch.outcome?.stdout).length).toBeGreaterThan(1000);
    expect(String(dispatch.outcome?.stdout).length).toBeLessThanOrEqual(DEFAULT_EXECUTION_LIMITS.outputCapBytes);
  });
});
