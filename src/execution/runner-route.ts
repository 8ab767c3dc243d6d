// `mounted` / `runner` projects: the approved action goes to the runner connected on
// `runner:<projectId>` (RN-497). Delivery, the runner's results, and loss: a runner that
// disconnects mid-command and is not back with a result within the grace period, or whose lease
// (command timeout + grace) runs out, makes the dispatch `runner_lost`. An in-flight dispatch is
// never delivered again, so never re-run.
//
// Outcomes are true: once `execute` went out, a delivery that fails (disconnect before the ack,
// no ack in time) is `outcome_unknown`, never "not run"; a runner's later report replaces it. A
// report for a dispatch already settled otherwise is kept as one action.late_result (never
// dropped, never twice), and a report for another project's dispatch is refused.
import type { Execute, Output, Result, RunnerAction } from '../../runner-protocol/index.ts';
import type { Logger } from '../logger.ts';
import {
  type Dispatch,
  type DispatchFence,
  type DispatchState,
  OUTCOME_UNKNOWN,
  type ProposedAction,
  type Store,
} from '../store/types.ts';
import type { ExecutionLimits } from './config.ts';
import {
  deliveryFailed,
  outcomeUnknown,
  portFailed,
  runnerLost,
  runnerRefused,
  type UnknownCause,
} from './failures.ts';
import { capText, type ExecutionOutcome } from './outcome.ts';
import type { ExecutionPlan } from './plan.ts';
import type { Delivery, RunnerPort, RunnerResultSink } from './ports.ts';
import type { OutcomeRecorder } from './recorder.ts';
import { keepLateReport } from './late-report.ts';
import type { Resources } from './resources.ts';

export const IN_FLIGHT: readonly DispatchState[] = ['sent', 'accepted', 'running'];

type SinkAnswer = Awaited<ReturnType<RunnerResultSink['onResult']>>;
const refuse = (code: string, message: string): SinkAnswer => ({ ok: false, reason: { code, message } });

export const runnerTarget = (projectId: string): string => `runner:${projectId}`;

/** Settling an in-flight attempt: fenced on the in-flight states and that attempt. */
const inFlightFence = (attempt: number): DispatchFence => ({ attempt, from: IN_FLIGHT });

/** The refusal code for a report about another project's dispatch (runner-protocol PUSH_ERRORS). */
export const FORBIDDEN_DISPATCH = 'forbidden_dispatch';

/** The refusal (and failure) code of a result over the frame limit (runner-protocol PUSH_ERRORS). */
export const RESULT_TOO_LARGE = 'result_too_large';

/** Output kept per stream from a result over the frame limit. */
const OVERSIZED_KEEP_BYTES = 256 * 1024;

/** How many dispatches' `running` moves are remembered (per gateway process): bounded. */
const RUNNING_SEEN_MAX = 10_000;

/**
 * A pushed `execute`: the runner's ack (or why not), or what the runner gateway threw. `sent` says
 * whether `execute` can have reached the runner: false only when nothing left this process (no
 * runner connected, or the message was refused before it went out). Never rejects.
 */
export type Pushed = Promise<({ delivery: Delivery } | { thrown: unknown }) & { sent: boolean }>;

export class RunnerRoute implements RunnerResultSink {
  readonly #store: Store;
  readonly #runners: RunnerPort;
  readonly #recorder: OutcomeRecorder;
  readonly #limits: ExecutionLimits;
  readonly #logger: Logger;
  readonly #now: () => Date;
  readonly #leases = new Map<string, NodeJS.Timeout>();
  readonly #graceTimers = new Map<string, NodeJS.Timeout>();
  /** dispatchId -> the attempt already moved to `running` (bounded by RUNNING_SEEN_MAX). */
  readonly #runningSeen = new Map<string, number>();
  /** dispatchId -> its claim transaction, while the claim that pushed it is not committed yet. */
  readonly #claims = new Map<string, Promise<unknown>>();
  readonly #unsubscribe: () => void;
  /** Whether this node settles the dispatch (its own row; src/cluster). Another live node's are never touched. */
  readonly #owns: (dispatch: Dispatch) => boolean;

  constructor(options: {
    store: Store;
    runners: RunnerPort;
    recorder: OutcomeRecorder;
    limits: ExecutionLimits;
    logger: Logger;
    now: () => Date;
    owns?: (dispatch: Dispatch) => boolean;
  }) {
    this.#owns = options.owns ?? (() => true);
    this.#store = options.store;
    this.#runners = options.runners;
    this.#recorder = options.recorder;
    this.#limits = options.limits;
    this.#logger = options.logger;
    this.#now = options.now;
    this.#unsubscribe = this.#runners.onLeft((projectId, reason) =>
      this.#armGrace(projectId, `disconnected (${reason})`),
    );
  }

  /** How long a delivered dispatch may stay in flight: delivery + its command timeout + grace. */
  leaseMs(timeoutMs: number): number {
    return this.#limits.deliveryTimeoutMs + timeoutMs + this.#limits.runnerGraceMs;
  }

  static actionFor(plan: ExecutionPlan, resources: Resources | null): RunnerAction | null {
    if (plan.kind === 'terminal')
      return {
        type: 'terminal',
        command: plan.command,
        cwd: plan.cwd,
        timeoutMs: plan.timeoutMs,
        approval: plan.approval,
      };
    if (plan.kind === 'container')
      return { type: plan.actionType, ...(resources ? { resources: { ...resources } } : {}) };
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
    // The port pushes synchronously when a runner is connected; without one nothing is sent.
    const sent = this.#runners.isConnected(claim.projectId);
    try {
      return this.#runners.execute(claim.projectId, execute).then(
        (delivery) => ({ delivery, sent }),
        (thrown: unknown) => ({ thrown, sent }),
      );
    } catch (thrown) {
      return Promise.resolve({ thrown, sent: false }); // refused before anything went out
    }
  }

  /** Settles the delivery of a pushed, committed claim (state `sent`): resolves on the ack, not the command. */
  async deliver(
    dispatch: Dispatch,
    actionType: ProposedAction['actionType'],
    pushed: Pushed,
    previousContainerId: string | null,
  ): Promise<void> {
    this.#armLease(dispatch.id, dispatch.attempt, dispatch.projectId, dispatch.leaseUntil);
    const answer = await pushed;
    if ('delivery' in answer && answer.delivery.ok) {
      try {
        await this.#store.transaction((tx) =>
          tx.dispatches.advance(dispatch.id, dispatch.attempt, ['sent'], 'accepted', this.#now().toISOString()),
        );
      } catch (error) {
        // The runner has it: a store fault here must not turn into "nothing ran". The dispatch
        // stays `sent`; the runner's result (or its lease) settles it.
        this.#logger.warn(
          { code: 'dispatch_accept_unrecorded', err: error, dispatchId: dispatch.id },
          'the runner acknowledged the dispatch but the store could not record it; its result still settles it',
        );
      }
      return;
    }
    let outcome: ExecutionOutcome;
    const { projectId } = dispatch;
    if ('thrown' in answer) {
      this.#logger.error(
        { code: 'execution_port_failed', err: answer.thrown, dispatchId: dispatch.id, sent: answer.sent },
        'the runner gateway threw while delivering',
      );
      outcome = answer.sent
        ? outcomeUnknown(projectId, dispatch.attempt, 'dispatcher_failed_after_send', String(answer.thrown))
        : portFailed('runner gateway', answer.thrown);
    } else if (!answer.delivery.ok) {
      const { code, message } = answer.delivery;
      const cause: UnknownCause = code === 'delivery_timeout' ? 'delivery_timeout' : 'runner_disconnected_before_ack';
      outcome = answer.sent
        ? outcomeUnknown(projectId, dispatch.attempt, cause, message)
        : deliveryFailed(projectId, code, message);
    } else {
      return;
    }
    this.#forget(dispatch.id);
    const action = { id: dispatch.actionId, projectId, actionType };
    await this.#recorder.recordDerivingLifecycle(
      { dispatch, fence: inFlightFence(dispatch.attempt), action, outcome: { ...outcome, origin: 'gateway' } },
      previousContainerId,
    );
  }

  async onResult(projectId: string, result: Result): Promise<SinkAnswer> {
    await this.#claims.get(result.dispatchId)?.catch(() => {}); // read the claim, not the row before it
    const dispatch = await this.#store.read.dispatches.get(result.dispatchId);
    if (!dispatch)
      return refuse('unknown_dispatch', `dispatch ${result.dispatchId} is not known; the result was not recorded`);
    if (dispatch.projectId !== projectId) return this.#forbidden(projectId, dispatch, 'result');
    if (dispatch.state === 'executed' || dispatch.state === 'failed')
      return this.#afterSettled(projectId, dispatch, result);
    if (dispatch.state === 'queued') return this.#beforeClaimCommitted(projectId, dispatch, result);
    if (result.attempt !== dispatch.attempt) {
      return this.#lateReport(
        dispatch,
        result,
        'stale_attempt',
        `attempt ${result.attempt} of dispatch ${result.dispatchId} is stale (current attempt ${dispatch.attempt}); it is kept as action.late_result`,
      );
    }
    if (!(await this.#settle(dispatch, inFlightFence(dispatch.attempt), outcomeOf(projectId, result))))
      return this.onResult(projectId, result); // settled meanwhile: judge it against that
    return { ok: true };
  }

  /**
   * A result whose frame was over the socket's limit: the command ran (or failed) on the runner,
   * so it is recorded like any result, as `failed` `result_too_large` with its exit code and its
   * output cut to what fits; the runner is answered result_too_large and stops re-sending it.
   */
  async onOversizedResult(projectId: string, result: Result, bytes: number): Promise<SinkAnswer> {
    const keep = Math.min(this.#limits.outputCapBytes, OVERSIZED_KEEP_BYTES);
    const stdout = capText(result.stdout ?? '', keep).text;
    const stderr = capText(result.stderr ?? '', keep).text;
    const message =
      `The runner's result was ${bytes} bytes, over the gateway's frame limit, so it was recorded with its output cut to ${keep} bytes per stream ` +
      `(the command ${result.status === 'executed' ? `ran and exited with ${String(result.exitCode ?? 'no code')}` : `ended ${result.status}${result.reason ? ` (${result.reason.code})` : ''}`}). ` +
      "Lower the runner's --max-output-bytes, or write large output to a file and print its path.";
    const fitted: Result = {
      dispatchId: result.dispatchId,
      attempt: result.attempt,
      status: 'failed',
      ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}),
      stdout,
      stderr,
      truncated: true,
      reason: { code: RESULT_TOO_LARGE, message },
      ...(result.fromJournal ? { fromJournal: true } : {}),
    };
    const answer = await this.onResult(projectId, fitted);
    if (!answer.ok) return answer;
    this.#logger.warn(
      { code: RESULT_TOO_LARGE, dispatchId: result.dispatchId, bytes, keptBytes: keep },
      'a runner result over the frame limit was recorded with its output cut',
    );
    return refuse(RESULT_TOO_LARGE, message);
  }

  /** The first output of an attempt moves it to `running`; output for another project's dispatch is refused. */
  async onOutput(projectId: string, output: Output): Promise<SinkAnswer> {
    if (this.#runningSeen.get(output.dispatchId) === output.attempt) return { ok: true };
    await this.#claims.get(output.dispatchId)?.catch(() => {});
    const dispatch = await this.#store.read.dispatches.get(output.dispatchId);
    if (!dispatch)
      return refuse('unknown_dispatch', `dispatch ${output.dispatchId} is not known; the output was dropped`);
    if (dispatch.projectId !== projectId) return this.#forbidden(projectId, dispatch, 'output');
    if (dispatch.attempt !== output.attempt || !IN_FLIGHT.includes(dispatch.state)) return { ok: true }; // output of a settled or stale attempt: nothing to move
    // Bounded: only known dispatches of this project get here, and the oldest are forgotten first.
    if (this.#runningSeen.size >= RUNNING_SEEN_MAX)
      this.#runningSeen.delete(this.#runningSeen.keys().next().value as string);
    this.#runningSeen.set(output.dispatchId, output.attempt);
    if (dispatch.state !== 'running') {
      await this.#store.transaction((tx) =>
        tx.dispatches.advance(
          output.dispatchId,
          output.attempt,
          ['sent', 'accepted'],
          'running',
          this.#now().toISOString(),
        ),
      );
    }
    return { ok: true };
  }

  #forbidden(projectId: string, dispatch: Dispatch, what: string): SinkAnswer {
    this.#logger.warn(
      { code: FORBIDDEN_DISPATCH, projectId, dispatchId: dispatch.id, dispatchProjectId: dispatch.projectId, what },
      `a runner pushed ${what} for another project's dispatch; refused`,
    );
    return refuse(
      FORBIDDEN_DISPATCH,
      `dispatch ${dispatch.id} does not belong to project ${projectId}; this ${what} was refused and not recorded`,
    );
  }

  /**
   * Start-up: in-flight runner dispatches of the previous process get their lease, and at least one
   * grace window from now however old that lease is (the gateway may have been down longer than
   * it): their runner gets the chance to reconnect and report before anything is called lost.
   */
  async resumeInFlight(dispatches: Dispatch[]): Promise<void> {
    const projects = new Set<string>();
    for (const dispatch of dispatches) {
      this.#armLease(
        dispatch.id,
        dispatch.attempt,
        dispatch.projectId,
        dispatch.leaseUntil,
        this.#limits.runnerGraceMs,
      );
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
  async #settle(dispatch: Dispatch, fence: DispatchFence, outcome: ExecutionOutcome): Promise<boolean> {
    const settled = await this.#recorder.recordForDispatch(dispatch, fence, outcome);
    if (settled) this.#forget(dispatch.id);
    return settled;
  }

  /** The dispatch is settled: its lease and `running` bookkeeping go. */
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
      return refuse(
        'stale_attempt',
        `attempt ${result.attempt} of dispatch ${result.dispatchId} was never sent (it is queued at attempt ${dispatch.attempt}); the result was not recorded`,
      );
    }
    const outcome: ExecutionOutcome = { ...outcomeOf(projectId, result), runnerAttempt: result.attempt };
    if (await this.#settle(dispatch, { attempt: dispatch.attempt, from: ['queued'] }, outcome)) {
      this.#logger.warn(
        {
          code: 'result_before_claim',
          dispatchId: dispatch.id,
          actionId: dispatch.actionId,
          attempt: result.attempt,
          status: result.status,
          runnerCode: result.reason?.code,
        },
        'the runner reported attempt N+1 of a dispatch still queued (its claim was lost with the previous gateway process); recorded, it is not delivered again',
      );
      return { ok: true };
    }
    return this.onResult(projectId, result); // claimed or settled meanwhile: judge it against that
  }

  /**
   * A result for a dispatch already settled. It replaces an `outcome_unknown` of its attempt; the
   * report already recorded, sent again, is fine; any other report is kept as action.late_result.
   */
  async #afterSettled(projectId: string, dispatch: Dispatch, result: Result): Promise<SinkAnswer> {
    const recorded = dispatch.outcome;
    const unknownAttempt = (recorded?.detail as { attempt?: unknown } | undefined)?.attempt;
    if (recorded?.code === OUTCOME_UNKNOWN && unknownAttempt === result.attempt) {
      const outcome: ExecutionOutcome = {
        ...outcomeOf(projectId, result),
        ...(result.attempt !== dispatch.attempt ? { runnerAttempt: result.attempt } : {}),
      };
      if (await this.#recorder.resolveUnknown(dispatch, result.attempt, outcome)) return { ok: true };
      const now = await this.#store.read.dispatches.get(dispatch.id);
      return now
        ? this.#afterSettled(projectId, now, result)
        : refuse('unknown_dispatch', `dispatch ${dispatch.id} is not known`);
    }
    const runnerAttempt = recorded?.runnerAttempt;
    const settledAttempt = typeof runnerAttempt === 'number' ? runnerAttempt : dispatch.attempt;
    if (recorded?.origin === 'runner' && result.attempt === settledAttempt) return { ok: true }; // the recorded report, sent again
    return this.#lateReport(
      dispatch,
      result,
      'dispatch_settled',
      `dispatch ${dispatch.id} was already settled as ${String(recorded?.code ?? dispatch.state)}; this result is kept as action.late_result`,
    );
  }

  /**
   * A truthful report that cannot change the recorded outcome: one action.late_result per
   * dispatch and attempt (re-sends after a lost reply add nothing), then the refusal the runner
   * acts on (it stops re-sending).
   */
  async #lateReport(
    dispatch: Dispatch,
    result: Result,
    code: 'dispatch_settled' | 'stale_attempt',
    message: string,
  ): Promise<SinkAnswer> {
    const at = this.#now().toISOString();
    const recordedAs = dispatch.outcome?.code ?? dispatch.state;
    const first = await keepLateReport(
      this.#store,
      dispatch,
      result.attempt,
      {
        status: result.status,
        exitCode: result.exitCode ?? null,
        ...(result.reason ? { reason: result.reason } : {}),
        ...(result.fromJournal ? { fromJournal: true } : {}),
      },
      at,
    );
    if (first) {
      this.#logger.warn(
        {
          code: 'late_result',
          dispatchId: dispatch.id,
          actionId: dispatch.actionId,
          recordedAs,
          status: result.status,
          exitCode: result.exitCode,
          attempt: result.attempt,
        },
        'a runner result arrived that cannot change the recorded outcome; kept as action.late_result',
      );
    }
    return refuse(code, message);
  }

  #armLease(dispatchId: string, attempt: number, projectId: string, leaseUntil: string | null, minDelayMs = 0): void {
    if (leaseUntil === null) return;
    this.#clearLease(dispatchId);
    const delay = Math.max(minDelayMs, Date.parse(leaseUntil) - this.#now().getTime());
    const timer = setTimeout(
      () => {
        this.#leases.delete(dispatchId);
        void this.#expire(
          [dispatchId],
          attempt,
          projectId,
          'did not report a result before the dispatch lease (command timeout plus grace) ran out',
        );
      },
      Math.min(delay, 2 ** 31 - 1),
    );
    timer.unref();
    this.#leases.set(dispatchId, timer);
  }

  #clearLease(dispatchId: string): void {
    const timer = this.#leases.get(dispatchId);
    if (timer) clearTimeout(timer);
    this.#leases.delete(dispatchId);
  }

  #armGrace(projectId: string, why: string): void {
    if (this.#runners.isConnected(projectId)) return;
    // The window counts from the latest disconnect: a runner that came back and died again gets a
    // full grace period for the commands it had just taken.
    const pending = this.#graceTimers.get(projectId);
    if (pending) clearTimeout(pending);
    const timer = setTimeout(() => {
      this.#graceTimers.delete(projectId);
      if (this.#runners.isConnected(projectId)) return; // back in time: in-flight results arrive through its outbox
      void this.#loseProject(projectId, why);
    }, this.#limits.runnerGraceMs);
    timer.unref();
    this.#graceTimers.set(projectId, timer);
  }

  /** Never rejects (it runs from a timer): a store fault is logged and the grace period armed again, so the sweep is retried. */
  async #loseProject(projectId: string, why: string): Promise<void> {
    let inFlight: Dispatch[];
    try {
      inFlight = (await this.#store.read.dispatches.listInStates(IN_FLIGHT, 10_000)).filter(
        (d) => d.target === runnerTarget(projectId) && this.#owns(d),
      );
    } catch (error) {
      this.#logger.warn(
        { code: 'runner_lost_read_failed', projectId, err: error },
        'could not read the in-flight dispatches of a lost runner; retrying after another grace period',
      );
      this.#armGrace(projectId, why);
      return;
    }
    for (const dispatch of inFlight) await this.#expire([dispatch.id], dispatch.attempt, projectId, why);
  }

  async #expire(dispatchIds: string[], attempt: number, projectId: string, why: string): Promise<void> {
    for (const id of dispatchIds) {
      try {
        const dispatch = await this.#store.read.dispatches.get(id);
        if (!dispatch || dispatch.attempt !== attempt || !IN_FLIGHT.includes(dispatch.state) || !this.#owns(dispatch))
          continue;
        await this.#settle(dispatch, inFlightFence(attempt), {
          ...runnerLost(projectId, this.#limits.runnerGraceMs, why),
          origin: 'gateway',
        });
      } catch (error) {
        this.#logger.error(
          { code: 'runner_lost_record_failed', dispatchId: id, err: error },
          'could not record runner_lost; the dispatch is retried at the next start',
        );
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
    return {
      status: 'executed',
      origin: 'runner',
      exitCode: result.exitCode ?? null,
      stdout: result.stdout ?? '',
      stderr: result.stderr ?? '',
      truncated: result.truncated ?? false,
      ...(result.fromJournal ? { fromJournal: true } : {}),
    };
  }
  const reason = result.reason ?? { code: 'runner_failed', message: 'the runner reported a failure without a reason' };
  if (result.status === 'refused')
    return { ...runnerRefused(projectId, reason.code, reason.message), origin: 'runner', ...output };
  return { status: 'failed', origin: 'runner', code: reason.code, message: reason.message, ...output };
}
