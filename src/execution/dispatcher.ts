// The execution dispatcher: every approved or auto-approved action has a durable dispatch row
// (written with the approval). This turns it into exactly one execution in the right place —
// `container` projects on the Docker broker, `mounted` / `runner` projects on the runner
// connected for the project — and every way that can go wrong into a named `failed`.
// decide() never sees the execution mode; only this branches on it.
import type { ContainerBrokerPort } from '../../broker/port.ts';
import type { ProjectRoots } from '../actions/deps.ts';
import type { ActionExecutionPort } from '../actions/ports.ts';
import { actingAs } from '../auth/context.ts';
import { SYSTEM_STAMP } from '../auth/principal.ts';
import { deriveScopeRoot } from '../actions/project-root.ts';
import type { AgentTurns } from '../agents/turns.ts';
import type { ClusterMembership } from '../cluster/membership.ts';
import { SingleNode } from '../cluster/single-node.ts';
import type { Logger } from '../logger.ts';
import { StoreFaultError } from '../store/errors.ts';
import type { Dispatch, Project, ProposedAction, Store } from '../store/types.ts';
import type { ExecutionLimits } from './config.ts';
import { prepareContainerStart } from './container-start.ts';
import { outcomeUnknown, portFailed, serverRestarted } from './failures.ts';
import { failedOutcome, type ExecutionOutcome } from './outcome.ts';
import { type ExecutionPlan, isFailure, planOf } from './plan.ts';
import type { ExecutionObserver, RunnerPort, RunnerResultSink } from './ports.ts';
import { OutcomeRecorder } from './recorder.ts';
import type { Resources } from './resources.ts';
import { IN_FLIGHT, RunnerRoute } from './runner-route.ts';
import { BROKER_TARGET, BrokerTarget } from './broker-target.ts';
import { RunnerTarget } from './runner-target.ts';
import { ExecutorService, isExecutorTarget } from './executors.ts';
import type { ClaimShape, Claimed, ExecutionTarget, TargetControls, TargetJob } from './target.ts';

export { BROKER_TARGET };

/** Test-only fault points (fault-injection suites); never set in production. */
export interface DispatcherFaults {
  /** Called after the approval is committed and before the dispatch is claimed. */
  beforeClaim?(dispatchId: string): void;
}

export interface DispatcherOptions {
  store: Store;
  logger: Logger;
  turns: AgentTurns;
  roots: ProjectRoots;
  limits: ExecutionLimits;
  /** null: this gateway has no Docker broker (container projects' actions wait, container_* get 409). */
  broker: ContainerBrokerPort | null;
  /** null: no runner gateway (runner/mounted actions fail runner_not_connected). */
  runners: RunnerPort | null;
  faults?: DispatcherFaults;
  /** Which node this is and which in-flight rows it settles (default: a single node owning all). */
  cluster?: ClusterMembership;
  now?: () => Date;
  /** Told when an action's dispatch is parked (nothing here can run it), so bounded waits end. */
  onParked?: (actionId: string) => void;
  /** Live output and settlement for viewers (console, SSE, agent topics). */
  observer?: ExecutionObserver;
  /** Leases of external executors' claims (default 5 min, at most 1 h). */
  executorLeaseMs?: { default: number; max: number };
}

const DEFAULT_EXECUTOR_LEASE_MS = { default: 5 * 60_000, max: 60 * 60_000 };

type Mode = 'live' | 'resume';

/** How far #run got: what a crash handler may and may not claim about the command. */
interface Progress {
  /** The committed claim, once there is one. */
  claim: Dispatch | null;
  /** `execute` may have reached the runner (pushed inside the claim transaction). */
  sent: boolean;
  /** Already handed to the node holding the project's runner. */
  forwarded: boolean;
}

export class Dispatcher implements ActionExecutionPort {
  readonly #o: DispatcherOptions;
  readonly #now: () => Date;
  readonly #recorder: OutcomeRecorder;
  readonly #cluster: ClusterMembership;
  readonly #runner: RunnerRoute | null;
  readonly #brokerTarget: BrokerTarget;
  readonly #runnerTarget: RunnerTarget;
  readonly #executors: ExecutorService;
  /** Dispatch ids being handled in this process (a second notify is a no-op). */
  readonly #active = new Set<string>();
  /** Action ids whose queued dispatch this process leaves alone: no executor here (no broker, other action types). */
  readonly #parked = new Set<string>();
  /** projectId -> action ids queued before a restart, waiting for their runner to connect. */
  readonly #awaitingRunner = new Map<string, { actionIds: Set<string>; timer: NodeJS.Timeout }>();
  readonly #work = new Set<Promise<void>>();
  readonly #unsubscribe: Array<() => void> = [];
  #poll: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(options: DispatcherOptions) {
    this.#o = options;
    this.#now = options.now ?? (() => new Date());
    this.#recorder = new OutcomeRecorder({
      store: options.store,
      logger: options.logger,
      turns: options.turns,
      outputCapBytes: options.limits.outputCapBytes,
      now: this.#now,
      ...(options.observer?.settled ? { onSettled: options.observer.settled.bind(options.observer) } : {}),
    });
    this.#cluster = options.cluster ?? new SingleNode(options.store);
    const owns = (dispatch: Dispatch): boolean => this.#cluster.owns(dispatch.ownerNode);
    this.#runner = options.runners
      ? new RunnerRoute({
          store: options.store,
          runners: options.runners,
          recorder: this.#recorder,
          limits: options.limits,
          logger: options.logger,
          now: this.#now,
          owns,
        })
      : null;
    this.#brokerTarget = new BrokerTarget({
      broker: options.broker,
      recorder: this.#recorder,
      limits: options.limits,
      logger: options.logger,
      ...(options.observer ? { observer: options.observer } : {}),
    });
    this.#runnerTarget = new RunnerTarget({
      route: this.#runner,
      runners: options.runners,
      limits: options.limits,
      now: this.#now,
    });
    this.#executors = new ExecutorService({
      store: options.store,
      recorder: this.#recorder,
      logger: options.logger,
      nodeId: this.#cluster.nodeId,
      leaseMs: options.executorLeaseMs ?? DEFAULT_EXECUTOR_LEASE_MS,
      graceMs: options.limits.runnerGraceMs,
      pollIntervalMs: options.limits.pollIntervalMs,
      now: this.#now,
    });
    if (options.runners) this.#unsubscribe.push(options.runners.onJoined((projectId) => this.#runnerJoined(projectId)));
    this.#unsubscribe.push(this.#cluster.onAdopted((dispatches) => this.#track(this.#settleInFlight(dispatches))));
  }

  get hasBroker(): boolean {
    return this.#o.broker !== null;
  }

  /** External executors: claims and reports of the action types the gateway does not run. */
  get executors(): ExecutorService {
    return this.#executors;
  }

  /** What the runner gateway hands results and output to. */
  get sink(): RunnerResultSink | null {
    return this.#runner;
  }

  /** ActionExecutionPort: the approval committed a queued dispatch; run it now. Never throws. */
  notify(actionId: string): void {
    if (this.#closed) return;
    // The dispatcher acts as the system actor (its events say so), not as the credential whose
    // request committed the hand-off; everything it arms (delivery timeout, grace) inherits this.
    actingAs(SYSTEM_STAMP, () => this.#track(this.dispatchAction(actionId, 'live')));
  }

  /** Resolves when this process has finished handling the dispatch (delivery settled, broker done). */
  async dispatchAction(actionId: string, mode: Mode): Promise<void> {
    if (this.#parked.has(actionId)) return;
    const dispatch = await this.#o.store.read.dispatches.getByAction(actionId);
    if (!dispatch || dispatch.state !== 'queued' || this.#active.has(dispatch.id)) return;
    this.#active.add(dispatch.id);
    const progress: Progress = { claim: null, sent: false, forwarded: this.#forwardEarly(dispatch) };
    try {
      await this.#run(dispatch, mode, progress);
    } catch (error) {
      if (error instanceof StoreFaultError && !progress.sent && progress.claim === null) {
        // Nothing went out and the store is away (failover, exhausted pool): the dispatch stays
        // queued and the sweep runs it once the store answers again; no "not run" is recorded.
        this.#o.logger.warn(
          { code: 'dispatch_deferred', err: error, actionId, dispatchId: dispatch.id },
          'the store failed before the action was sent; it stays queued and is retried',
        );
        return;
      }
      // A bug or a store failure must not leave the action silently stuck or crash the server.
      this.#o.logger.error(
        {
          code: 'dispatch_crashed',
          err: error,
          actionId,
          dispatchId: dispatch.id,
          sent: progress.sent,
          claimed: progress.claim !== null,
        },
        'the dispatcher failed while handling an action',
      );
      await this.#recordCrash(dispatch, progress, error).catch((again: unknown) =>
        this.#o.logger.error(
          { code: 'dispatch_record_failed', err: again, actionId },
          'could not record the failure either; it is retried at the next start',
        ),
      );
    } finally {
      this.#active.delete(dispatch.id);
    }
  }

  /**
   * A project's runner held by another node: that node claims the dispatch, so it gets it before
   * this node's own reads and planning (they took half of the cross-node approve -> start time,
   * issue 13.7). This node still plans it, so what only it decides (parking a type no executor
   * here runs, failing a bad plan) is unchanged; both are fenced on `queued`, one claim wins.
   */
  #forwardEarly(dispatch: Dispatch): boolean {
    const runners = this.#o.runners;
    const where = runners?.locate?.(dispatch.projectId) ?? null;
    if (where?.at !== 'node' || !runners?.forward) return false;
    runners.forward(where.nodeId, dispatch.actionId);
    return true;
  }

  /**
   * What a crash leaves true: "not run" only while nothing was sent (fenced on `queued`, so a claim
   * that won meanwhile, on any node, is never overwritten); once `execute` may have gone out or the
   * broker may have started, outcome_unknown, fenced on the state and attempt that claim wrote.
   */
  async #recordCrash(dispatch: Dispatch, progress: Progress, error: unknown): Promise<void> {
    const action = await this.#o.store.read.actions.get(dispatch.actionId);
    const target = {
      id: dispatch.actionId,
      projectId: dispatch.projectId,
      actionType: action?.actionType ?? ('terminal' as const),
    };
    const message = error instanceof Error ? error.message : String(error);
    if (progress.claim) {
      const claim = progress.claim;
      await this.#recorder.record({
        dispatch: claim,
        fence: { attempt: claim.attempt, from: IN_FLIGHT },
        action: target,
        outcome: {
          ...outcomeUnknown(dispatch.projectId, claim.attempt, 'dispatcher_failed_after_send', message),
          origin: 'gateway',
        },
      });
      return;
    }
    if (progress.sent) {
      // The claim transaction pushed attempt N+1 and then failed: its COMMIT may or may not have landed.
      const unknown = {
        ...outcomeUnknown(dispatch.projectId, dispatch.attempt + 1, 'claim_not_committed', message),
        origin: 'gateway' as const,
      };
      if (
        await this.#recorder.record({
          dispatch,
          fence: { attempt: dispatch.attempt, from: ['queued'] },
          action: target,
          outcome: unknown,
        })
      )
        return;
      await this.#recorder.record({
        dispatch,
        fence: { attempt: dispatch.attempt + 1, from: IN_FLIGHT },
        action: target,
        outcome: unknown,
      });
      return;
    }
    await this.#recorder.record({
      dispatch,
      fence: { attempt: dispatch.attempt, from: ['queued'] },
      action: target,
      outcome: { ...portFailed('dispatcher', error), origin: 'gateway' },
    });
  }

  /**
   * Start-up: resume queued dispatches and resolve the in-flight ones of the previous process —
   * this node's own, and those of nodes whose lease expired; never a live node's (src/cluster).
   */
  async start(): Promise<{ queued: number; inFlight: number }> {
    const { store } = this.#o;
    const inFlight = await this.#cluster.inFlightToSettle();
    await this.#settleInFlight(inFlight);
    const queued = await store.read.dispatches.listInStates(['queued'], 100_000);
    for (const dispatch of queued) this.#track(this.dispatchAction(dispatch.actionId, 'resume'));
    this.#poll = setInterval(() => void this.#sweep(), this.#o.limits.pollIntervalMs);
    this.#poll.unref();
    this.#executors.start();
    this.#o.logger.info(
      { code: 'dispatcher_started', queued: queued.length, inFlight: inFlight.length, broker: this.hasBroker },
      'execution dispatcher started',
    );
    return { queued: queued.length, inFlight: inFlight.length };
  }

  /** Waits (bounded) for work already started, then stops every timer. */
  async close(timeoutMs = 2_000): Promise<void> {
    this.#closed = true;
    if (this.#poll) clearInterval(this.#poll);
    for (const off of this.#unsubscribe) off();
    this.#executors.close();
    for (const { timer } of this.#awaitingRunner.values()) clearTimeout(timer);
    this.#awaitingRunner.clear();
    this.#runner?.close();
    await Promise.race([
      Promise.allSettled([...this.#work]),
      new Promise((resolve) => setTimeout(resolve, timeoutMs).unref()),
    ]);
  }

  /** In-flight rows this node now owns without having run them: the broker's are unknown, the runners' get grace. */
  async #settleInFlight(inFlight: Dispatch[]): Promise<void> {
    const onRunners: Dispatch[] = [];
    for (const dispatch of inFlight) {
      if (!IN_FLIGHT.includes(dispatch.state)) continue;
      // An external executor's claim lives on its lease (in the row), not on this process.
      if (isExecutorTarget(dispatch.target)) continue;
      if (dispatch.target === BROKER_TARGET) await this.#brokerInterrupted(dispatch);
      else onRunners.push(dispatch);
    }
    await this.#runner?.resumeInFlight(onRunners);
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) =>
      this.#o.logger.error({ code: 'dispatch_crashed', err: error }, 'unexpected dispatcher error'),
    );
    this.#work.add(tracked);
    void tracked.finally(() => this.#work.delete(tracked));
  }

  async #run(dispatch: Dispatch, mode: Mode, progress: Progress): Promise<void> {
    const { store, logger } = this.#o;
    const [action, project] = await Promise.all([
      store.read.actions.get(dispatch.actionId),
      store.read.projects.get(dispatch.projectId),
    ]);
    if (!action || !project) throw new Error(`dispatch ${dispatch.id} refers to a missing action or project`);
    const fail = (outcome: ExecutionOutcome): Promise<boolean> =>
      this.#recorder.record({
        dispatch,
        fence: { attempt: dispatch.attempt, from: ['queued'] },
        action,
        outcome: { origin: 'gateway', ...outcome },
      });

    let scopeRoot: string;
    try {
      scopeRoot = deriveScopeRoot(project, this.#o.roots).root;
    } catch (error) {
      await fail(failedOutcome('project_root_invalid', (error as Error).message));
      return;
    }
    const plan = planOf(action, scopeRoot, this.#o.limits.commandTimeoutMs);
    if (isFailure(plan)) {
      await fail(plan);
      return;
    }
    if (plan.kind === 'elsewhere') {
      this.#park(action.id);
      this.#executors.offer(action.actionType);
      logger.debug(
        { actionId: action.id, actionType: action.actionType },
        'the gateway does not run this action type; it stays queued until an external executor claims it',
      );
      return;
    }

    let resources: Resources | null = null;
    if (plan.kind === 'container' && plan.actionType === 'container_start') {
      const prepared = await prepareContainerStart(project, plan.requested, {
        projectsBase: this.#o.roots.projectsBase,
        scopeRoot,
        containerUser: this.#o.roots.containerUser,
        limits: this.#o.limits.resources,
        now: this.#now,
      });
      if (!prepared.ok) {
        await fail(prepared.outcome); // before any image decision, delivery or lifecycle transition
        return;
      }
      resources = prepared.resources;
      // RN-501: stamped as soon as the folder is proven writable, before any claim or lifecycle
      // transition; a start that then waits for its runner, or fails later, leaves a true stamp.
      const verifiedAt = prepared.verifiedAt;
      if (verifiedAt)
        await this.#o.store.transaction((tx) => tx.projects.markWorkspaceVerified(project.id, verifiedAt));
    }

    const job: TargetJob = { dispatch, action, project, plan, scopeRoot, resources, mode, progress };
    const target: ExecutionTarget = project.executionMode === 'container' ? this.#brokerTarget : this.#runnerTarget;
    const controls: TargetControls = {
      park: () => this.#park(action.id),
      awaitRunner: () => this.#awaitRunner(project.id, action.id),
      fail,
    };
    if (!(await target.ready(job, controls))) return;
    this.#o.faults?.beforeClaim?.(dispatch.id);
    await target.run(job, (shape, handOff) => this.#claim(dispatch, project, plan, shape, handOff));
  }

  /**
   * queued -> the target's claimed state, with `provisioning` in the same
   * transaction; `handOff` runs inside it once the claim has won, before the commit.
   */
  async #claim<H>(
    dispatch: Dispatch,
    project: Project,
    plan: ExecutionPlan,
    shape: ClaimShape,
    handOff: (claim: Dispatch) => H,
  ): Promise<Claimed<H> | null> {
    const now = this.#now();
    const at = now.toISOString();
    const leaseUntil = shape.leaseMs === null ? null : new Date(now.getTime() + shape.leaseMs).toISOString();
    return this.#o.store.transaction(async (tx) => {
      const previousContainerId = (await tx.containers.get(project.id))?.containerId ?? null;
      const claim = await tx.dispatches.claim(
        dispatch.id,
        shape.to,
        shape.target,
        leaseUntil,
        at,
        this.#cluster.nodeId,
      );
      if (!claim) return null;
      if (plan.kind === 'container' && plan.actionType === 'container_start')
        await tx.containers.setState(project.id, 'provisioning', previousContainerId, at);
      return { claim, previousContainerId, handedOff: handOff(claim) };
    });
  }

  /** The previous process died while the broker ran this: its outcome is unknown; never re-run. */
  async #brokerInterrupted(dispatch: Dispatch): Promise<void> {
    await this.#recorder.recordForDispatch(
      dispatch,
      { attempt: dispatch.attempt, from: IN_FLIGHT },
      { ...serverRestarted(dispatch.projectId, dispatch.attempt), origin: 'gateway' },
    );
  }

  /** Whether this process parked the action's dispatch: it stays queued for another executor. */
  isParked(actionId: string): boolean {
    return this.#parked.has(actionId);
  }

  #park(actionId: string): void {
    this.#parked.add(actionId);
    this.#o.onParked?.(actionId);
  }

  #awaitRunner(projectId: string, actionId: string): void {
    let entry = this.#awaitingRunner.get(projectId);
    if (!entry) {
      const timer = setTimeout(() => void this.#giveUpWaiting(projectId), this.#o.limits.resumeWaitMs);
      timer.unref();
      entry = { actionIds: new Set(), timer };
      this.#awaitingRunner.set(projectId, entry);
      this.#o.logger.info(
        { code: 'awaiting_runner', projectId, waitMs: this.#o.limits.resumeWaitMs },
        'queued dispatches wait for the project runner to connect',
      );
    }
    entry.actionIds.add(actionId);
  }

  #runnerJoined(projectId: string): void {
    const entry = this.#awaitingRunner.get(projectId);
    if (!entry) return;
    this.#awaitingRunner.delete(projectId);
    clearTimeout(entry.timer);
    for (const actionId of entry.actionIds) this.#track(this.dispatchAction(actionId, 'resume'));
  }

  async #giveUpWaiting(projectId: string): Promise<void> {
    const entry = this.#awaitingRunner.get(projectId);
    if (!entry) return;
    this.#awaitingRunner.delete(projectId);
    for (const actionId of entry.actionIds) this.#track(this.dispatchAction(actionId, 'live'));
  }

  /** Recovers queued dispatches whose notification was lost (the queue is the durable source). */
  async #sweep(): Promise<void> {
    if (this.#closed) return;
    const waiting = new Set([...this.#awaitingRunner.values()].flatMap((entry) => [...entry.actionIds]));
    const queued = await this.#o.store.read.dispatches.listInStates(['queued'], 1000).catch(() => []);
    for (const dispatch of queued) {
      if (this.#parked.has(dispatch.actionId) || this.#active.has(dispatch.id) || waiting.has(dispatch.actionId))
        continue;
      if (Date.now() - Date.parse(dispatch.createdAt) < this.#o.limits.pollIntervalMs) continue; // its notify is on the way
      this.#track(this.dispatchAction(dispatch.actionId, 'live'));
    }
  }
}

export type { ProposedAction };
