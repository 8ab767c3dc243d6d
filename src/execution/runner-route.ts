// `mounted` / `runner` projects: the approved action goes to the runner connected on
// `runner:<projectId>` (RN-497). Delivery, the runner's results (stale attempts and unknown
// dispatches refused), and loss: a runner that disconnects mid-command and is not back with a
// result within the grace period, or whose lease (command timeout + grace) runs out, makes the
// dispatch `runner_lost`. An in-flight dispatch is never delivered again, so never re-run.
import type { Execute, Output, Result, RunnerAction } from '../../runner-protocol/index.ts';
import type { Logger } from '../logger.ts';
import type { Dispatch, DispatchState, ProposedAction, Store } from '../store/types.ts';
import type { ExecutionLimits } from './config.ts';
import { EXECUTION_EVENTS } from './events.ts';
import { deliveryFailed, portFailed, runnerLost, runnerRefused } from './failures.ts';
import type { ExecutionOutcome } from './outcome.ts';
import type { ExecutionPlan } from './plan.ts';
import type { Delivery, RunnerPort, RunnerResultSink } from './ports.ts';
import type { OutcomeRecorder } from './recorder.ts';
import type { Resources } from './resources.ts';

export const IN_FLIGHT: readonly DispatchState[] = ['sent', 'accepted', 'running'];

type SinkAnswer = Awaited<ReturnType<RunnerResultSink['onResult']>>;
const refuse = (code: string, message: string): SinkAnswer => ({ ok: false, reason: { code, message } });

export const runnerTarget = (projectId: string): string => `runner:${projectId}`;

/** A pushed `execute`: the runner's ack (or why not), or what the runner gateway threw. Never rejects. */
export type Pushed = Promise<{ delivery: Delivery } | { thrown: unknown }>;

export class RunnerRoute implements RunnerResultSink {
  readonly #store: Store;
  readonly #runners: RunnerPort;
  readonly #recorder: OutcomeRecorder;
  readonly #limits: ExecutionLimits;
  readonly #logger: Logger;
  readonly #now: () => Date;
  readonly #leases = new Map<string, NodeJS.Timeout>();
  readonly #graceTimers = new Map<string, NodeJS.Timeout>();
  readonly #runningSeen = new Set<string>();
  /** dispatchId -> its claim transaction, while the claim that pushed it is not committed yet. */
  readonly #claims = new Map<string, Promise<unknown>>();
  readonly #unsubscribe: () => void;
  /** Whether this node settles the dispatch (its own row; src/cluster). Another live node's are never touched. */
  readonly #owns: (dispatch: Dispatch) => boolean;

  constructor(options: { store: Store; runners: RunnerPort; recorder: OutcomeRecorder; limits: ExecutionLimits; logger: Logger; now: () => Date; owns?: (dispatch: Dispatch) => boolean }) {
    this.#owns = options.owns ?? (() => true);
    this.#store = options.store;
    this.#runners = options.runners;
    this.#recorder = options.recorder;
    this.#limits = options.limits;
    this.#logger = options.logger;
    this.#now = options.now;
    this.#unsubscribe = this.#runners.onLeft((projectId, reason) => this.#armGrace(projectId, `disconnected (${reason})`));
  }

  /** How long a delivered dispatch may stay in flight: delivery + its command timeout + grace. */
  leaseMs(timeoutMs: number): number {
    return this.#limits.deliveryTimeoutMs + timeoutMs + this.#limits.runnerGraceMs;
  }

  static actionFor(plan: ExecutionPlan, resources: Resources | null): RunnerAction | null {
    if (plan.kind === 'terminal') return { type: 'terminal', command: plan.command, cwd: plan.cwd, timeoutMs: plan.timeoutMs };
    if (plan.kind === 'container') return { type: plan.actionType, ...(resources ? { resources: { ...resources } } : {}) };
    return null;
  }

  /** Runs the claim transaction that pushes (see push); results that arrive before its commit wait for it. */
  async claiming<T>(dispatchId: string, claim: () => Promise<T>): Promise<T> {
    const pending = claim();
    this.#claims.set(dispatchId, pending);
    try {
      return await pending;
    } finally {
      this.#claims.delete(dispatchId);
    }
  }

  /**
   * Pushes `execute` for a dispatch whose claim (queued -> sent) is written but not committed yet,
   * so the runner starts while the claim is fsynced instead of after. Only the writer whose
   * conditional claim won gets here. A claim that then fails to commit leaves the dispatch queued
   * and the dispatcher records it failed; should the process die first, the restart re-delivers the
   * same dispatch id and attempt, which the runner answers from its journal or its run in flight
   * (a run the runner itself lost is answered runner_interrupted). The runner's outbox may also
   * bring that attempt's result first, while the dispatch is still queued: see onResult.
   */
  push(claim: Dispatch, action: RunnerAction): Pushed {
    const execute: Execute = { dispatchId: claim.id, attempt: claim.attempt, action };
    try {
      return this.#runners.execute(claim.projectId, execute).then(
        (delivery) => ({ delivery }),
        (thrown: unknown) => ({ thrown }),
      );
    } catch (thrown) {
      return Promise.resolve({ thrown });
    }
  }

  /** Settles the delivery of a pushed, committed claim (state `sent`): resolves on the ack, not the command. */
  async deliver(dispatch: Dispatch, actionType: ProposedAction['actionType'], pushed: Pushed, previousContainerId: string | null): Promise<void> {
    this.#armLease(dispatch.id, dispatch.attempt, dispatch.projectId, dispatch.leaseUntil);
    let outcome: ExecutionOutcome | null = null;
    const answer = await pushed;
    try {
      if ('thrown' in answer) throw answer.thrown;
      const { delivery } = answer;
      if (delivery.ok) {
        await this.#store.transaction((tx) => tx.dispatches.advance(dispatch.id, dispatch.attempt, ['sent'], 'accepted', this.#now().toISOString()));
        return;
      }
      outcome = { ...deliveryFailed(dispatch.projectId, delivery.code, delivery.message), origin: 'gateway' };
    } catch (error) {
      this.#logger.error({ code: 'execution_port_failed', err: error, dispatchId: dispatch.id }, 'the runner gateway threw while delivering');
      outcome = { ...portFailed('runner gateway', error), origin: 'gateway' };
    }
    this.#forget(dispatch.id);
    const action = { id: dispatch.actionId, projectId: dispatch.projectId, actionType };
    await this.#recorder.recordDerivingLifecycle({ dispatch, attempt: dispatch.attempt, action, outcome }, previousContainerId);
  }

  async onResult(projectId: string, result: Result): Promise<SinkAnswer> {
    await this.#claims.get(result.dispatchId)?.catch(() => {}); // read the claim, not the row before it
    const dispatch = await this.#store.read.dispatches.get(result.dispatchId);
    if (!dispatch || dispatch.projectId !== projectId) {
      return refuse('unknown_dispatch', `dispatch ${result.dispatchId} is not known for project ${projectId}; the result was not recorded`);
    }
    if (dispatch.state === 'executed' || dispatch.state === 'failed') return this.#afterSettled(dispatch, result);
    if (dispatch.state === 'queued') return this.#beforeClaimCommitted(projectId, dispatch, result);
    if (result.attempt !== dispatch.attempt) {
      return refuse('stale_attempt', `attempt ${result.attempt} of dispatch ${result.dispatchId} is stale (current attempt ${dispatch.attempt}); the result was not recorded`);
    }
    await this.#settle(dispatch, dispatch.attempt, outcomeOf(projectId, result));
    return { ok: true };
  }

  async onOutput(_projectId: string, output: Output): Promise<void> {
    if (this.#runningSeen.has(output.dispatchId)) return;
    this.#runningSeen.add(output.dispatchId);
    await this.#store.transaction((tx) => tx.dispatches.advance(output.dispatchId, output.attempt, ['sent', 'accepted'], 'running', this.#now().toISOString()));
  }

  /** Start-up: in-flight runner dispatches of the previous process get the grace period and their lease. */
  async resumeInFlight(dispatches: Dispatch[]): Promise<void> {
    const projects = new Set<string>();
    for (const dispatch of dispatches) {
      this.#armLease(dispatch.id, dispatch.attempt, dispatch.projectId, dispatch.leaseUntil);
      projects.add(dispatch.projectId);
    }
    for (const projectId of projects) this.#armGrace(projectId, 'was not connected when the gateway restarted');
  }

  close(): void {
    this.#unsubscribe();
    for (const timer of [...this.#leases.values(), ...this.#graceTimers.values()]) clearTimeout(timer);
    this.#leases.clear();
    this.#graceTimers.clear();
  }

  /** True when this call settled the dispatch. */
  #settle(dispatch: Dispatch, attempt: number, outcome: ExecutionOutcome): Promise<boolean> {
    this.#forget(dispatch.id);
    return this.#recorder.recordForDispatch(dispatch, attempt, outcome);
  }

  /** The dispatch is being settled: its lease and `running` bookkeeping go. */
  #forget(dispatchId: string): void {
    this.#clearLease(dispatchId);
    this.#runningSeen.delete(dispatchId);
  }

  /**
   * A result for a dispatch still queued: the previous process pushed attempt N+1 inside its claim
   * transaction and died before the COMMIT, and the runner kept the outcome (a run, or a run it lost
   * itself: runner_interrupted). That outcome is recorded, so the dispatch is not delivered again.
   * Conditional on the queued attempt: a claim that commits meanwhile wins, and the result is then
   * judged against it like any other.
   */
  async #beforeClaimCommitted(projectId: string, dispatch: Dispatch, result: Result): Promise<SinkAnswer> {
    if (result.attempt !== dispatch.attempt + 1) {
      return refuse('stale_attempt', `attempt ${result.attempt} of dispatch ${result.dispatchId} was never sent (it is queued at attempt ${dispatch.attempt}); the result was not recorded`);
    }
    const outcome: ExecutionOutcome = { ...outcomeOf(projectId, result), runnerAttempt: result.attempt };
    if (await this.#settle(dispatch, dispatch.attempt, outcome)) {
      this.#logger.warn(
        { code: 'result_before_claim', dispatchId: dispatch.id, actionId: dispatch.actionId, attempt: result.attempt, status: result.status, runnerCode: result.reason?.code },
        'the runner reported attempt N+1 of a dispatch still queued (its claim was lost with the previous gateway process); recorded, it is not delivered again',
      );
      return { ok: true };
    }
    return this.onResult(projectId, result); // claimed or settled meanwhile: judge it against that
  }

  /** A result for a dispatch already settled: the same result again is fine; anything else is refused. */
  async #afterSettled(dispatch: Dispatch, result: Result): Promise<SinkAnswer> {
    const recordedFromRunner = dispatch.outcome?.origin === 'runner';
    const runnerAttempt = dispatch.outcome?.runnerAttempt;
    const settledAttempt = typeof runnerAttempt === 'number' ? runnerAttempt : dispatch.attempt;
    if (result.attempt === settledAttempt && recordedFromRunner) return { ok: true };
    if (recordedFromRunner || result.fromJournal) {
      return refuse('stale_attempt', `dispatch ${dispatch.id} was already settled by attempt ${settledAttempt}; attempt ${result.attempt} was not recorded`);
    }
    // The command ran after all, but the dispatch was already failed (runner_lost, delivery_timeout).
    const at = this.#now().toISOString();
    await this.#store.transaction((tx) =>
      tx.events.append({
        projectId: dispatch.projectId,
        type: EXECUTION_EVENTS.lateResult,
        actorKind: 'system',
        actorId: null,
        actionId: dispatch.actionId,
        payload: { dispatchId: dispatch.id, attempt: result.attempt, status: result.status, exitCode: result.exitCode ?? null, recordedAs: dispatch.outcome?.code ?? dispatch.state },
        createdAt: at,
      }),
    );
    this.#logger.warn(
      { code: 'late_result', dispatchId: dispatch.id, actionId: dispatch.actionId, recordedAs: dispatch.outcome?.code, status: result.status, exitCode: result.exitCode },
      'a runner result arrived after the dispatch was settled as failed; the command did run on the runner. Kept as action.late_result, the recorded outcome is unchanged',
    );
    return refuse('dispatch_settled', `dispatch ${dispatch.id} was already settled as ${String(dispatch.outcome?.code ?? dispatch.state)}; this result is kept as action.late_result`);
  }

  #armLease(dispatchId: string, attempt: number, projectId: string, leaseUntil: string | null): void {
    if (leaseUntil === null) return;
    this.#clearLease(dispatchId);
    const delay = Math.max(0, Date.parse(leaseUntil) - this.#now().getTime());
    const timer = setTimeout(() => {
      this.#leases.delete(dispatchId);
      void this.#expire([dispatchId], attempt, projectId, 'did not report a result before the dispatch lease (command timeout plus grace) ran out');
    }, Math.min(delay, 2 ** 31 - 1));
    timer.unref();
    this.#leases.set(dispatchId, timer);
  }

  #clearLease(dispatchId: string): void {
    const timer = this.#leases.get(dispatchId);
    if (timer) clearTimeout(timer);
    this.#leases.delete(dispatchId);
  }

  #armGrace(projectId: string, why: string): void {
    if (this.#runners.isConnected(projectId) || this.#graceTimers.has(projectId)) return;
    const timer = setTimeout(() => {
      this.#graceTimers.delete(projectId);
      if (this.#runners.isConnected(projectId)) return; // back in time: in-flight results arrive through its outbox
      void this.#loseProject(projectId, why);
    }, this.#limits.runnerGraceMs);
    timer.unref();
    this.#graceTimers.set(projectId, timer);
  }

  async #loseProject(projectId: string, why: string): Promise<void> {
    const inFlight = (await this.#store.read.dispatches.listInStates(IN_FLIGHT, 10_000)).filter((d) => d.target === runnerTarget(projectId) && this.#owns(d));
    for (const dispatch of inFlight) await this.#expire([dispatch.id], dispatch.attempt, projectId, why);
  }

  async #expire(dispatchIds: string[], attempt: number, projectId: string, why: string): Promise<void> {
    for (const id of dispatchIds) {
      try {
        const dispatch = await this.#store.read.dispatches.get(id);
        if (!dispatch || dispatch.attempt !== attempt || !IN_FLIGHT.includes(dispatch.state) || !this.#owns(dispatch)) continue;
        await this.#settle(dispatch, attempt, { ...runnerLost(projectId, this.#limits.runnerGraceMs, why), origin: 'gateway' });
      } catch (error) {
        this.#logger.error({ code: 'runner_lost_record_failed', dispatchId: id, err: error }, 'could not record runner_lost; the dispatch is retried at the next start');
      }
    }
  }
}

/** A runner Result as an outcome: refusals are runner_refused with the runner's code and sentence. */
export function outcomeOf(projectId: string, result: Result): ExecutionOutcome {
  const output = {
    ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
    ...(result.stdout !== undefined ? { stdout: result.stdout } : {}),
    ...(result.stderr !== undefined ? { stderr: result.stderr } : {}),
    ...(result.truncated !== undefined ? { truncated: result.truncated } : {}),
  };
  if (result.status === 'executed') {
    return { status: 'executed', origin: 'runner', exitCode: result.exitCode ?? null, stdout: result.stdout ?? '', stderr: result.stderr ?? '', truncated: result.truncated ?? false, ...(result.fromJournal ? { fromJournal: true } : {}) };
  }
  const reason = result.reason ?? { code: 'runner_failed', message: 'the runner reported a failure without a reason' };
  if (result.status === 'refused') return { ...runnerRefused(projectId, reason.code, reason.message), origin: 'runner', ...output };
  return { status: 'failed', origin: 'runner', code: reason.code, message: reason.message, ...output };
}
