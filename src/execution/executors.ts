// External executors: the action types the gateway does not run itself (git, PRs, plans:
// external-types.ts) wait `queued` until an executor with its own credential (kind `executor`)
// claims them (HTTP long-poll, or the socket topic executor:<type>). A claim is like a runner's:
// queued -> sent, attempt + 1, a lease, target `executor:<type>:<credentialId>` (only that
// credential may report the attempt). The report settles the dispatch through the
// OutcomeRecorder (fenced on the attempt; the agent is woken with task.action_settled), and a
// git_merge's report records the merge (RN-628) in the same transaction.
//
// Outcomes stay true (issue 10): an executor that does not report before its lease ends may have
// acted, so the dispatch becomes `outcome_unknown`, never "not run", and is never offered again;
// its later report replaces that outcome. A report that cannot change the recorded outcome is
// kept as one action.late_result per attempt; the same report sent twice adds nothing.
import { ActionError } from '../actions/errors.ts';
import type { Logger } from '../logger.ts';
import { type Dispatch, OUTCOME_UNKNOWN, type ProposedAction, type Store } from '../store/types.ts';
import { EXECUTION_EVENTS } from './events.ts';
import {
  type ExecutorIdentity,
  type ExecutorReport,
  mergeEffect,
  outcomeOfReport,
  requireExternalType,
  sameReport,
} from './executor-report.ts';
import { executorLeaseExpired } from './failures.ts';
import { keepLateReport } from './late-report.ts';
import type { ExecutionOutcome } from './outcome.ts';
import type { OutcomeRecorder, RecordInput } from './recorder.ts';

export type { ExecutorIdentity, ExecutorReport };
import { IN_FLIGHT } from './runner-route.ts';

/** What an executor receives: the action, and whose provider credential to act with (RN-082). */
export interface ClaimedAction {
  dispatchId: string;
  attempt: number;
  leaseUntil: string;
  actionId: string;
  projectId: string;
  actionType: string;
  payload: Record<string, unknown>;
  /** `owner:<ownerId>`: the workspace owner's credential, never the approver's (null: the type needs none). */
  credentialRef: string | null;
  proposerId: string;
  /** Who approved (null when auto-approved); for the record only, never whose credential is used. */
  decidedBy: string | null;
}

export type ReportAnswer =
  | { recorded: 'settled' | 'replaced_outcome_unknown' | 'duplicate'; state: 'executed' | 'failed' }
  | {
      recorded: 'late_result';
      state: 'executed' | 'failed';
      code: 'dispatch_settled' | 'stale_attempt';
      message: string;
    };

export const executorTarget = (type: string, credentialId: string): string => `executor:${type}:${credentialId}`;
export const EXECUTOR_TARGET_PREFIX = 'executor:';
export const isExecutorTarget = (target: string | null): boolean =>
  target !== null && target.startsWith(EXECUTOR_TARGET_PREFIX);

export interface ExecutorOptions {
  store: Store;
  recorder: OutcomeRecorder;
  logger: Logger;
  /** The node recorded as the claim's owner (src/cluster). */
  nodeId: string;
  /** Default and largest lease a claim may ask for. */
  leaseMs: { default: number; max: number };
  /** After a (re)start, leases are expired only after this window: executors get time to report. */
  graceMs: number;
  /** How often expired leases are looked for, and how often a long-poll looks again without a wake-up. */
  pollIntervalMs: number;
  now?: () => Date;
}

const CLAIM_BATCH = 10;
/**
 * Long-polls one executor credential may hold waiting at once. Each holds a request and looks at
 * the store on every offer and poll interval, so without a bound one token could open thousands
 * and exhaust the gateway (attacked: 200 concurrent waits were all accepted). Beyond it the claim
 * answers 429 too_many_waiting_claims at once; claims that find an action are not limited.
 */
export const MAX_WAITING_CLAIMS_PER_CREDENTIAL = 8;

export class ExecutorService {
  readonly #o: ExecutorOptions;
  readonly #now: () => Date;
  readonly #startedAt: number;
  readonly #wakers = new Set<() => void>();
  readonly #waitingBy = new Map<string, number>();
  readonly #offerListeners = new Set<(actionType: string | null) => void>();
  #sweep: NodeJS.Timeout | null = null;
  #sweeping = false;
  #closed = false;

  constructor(options: ExecutorOptions) {
    this.#o = options;
    this.#now = options.now ?? (() => new Date());
    this.#startedAt = this.#now().getTime();
  }

  start(): void {
    this.#sweep = setInterval(() => void this.expireLeases(), this.#o.pollIntervalMs);
    this.#sweep.unref();
  }

  close(): void {
    this.#closed = true;
    if (this.#sweep) clearInterval(this.#sweep);
    for (const wake of [...this.#wakers]) wake();
  }

  /** Until when (epoch ms) no lease is expired: one grace window after this process started. */
  get graceEndsAt(): number {
    return this.#startedAt + this.#o.graceMs;
  }

  /** Claim long-polls waiting for an action now. */
  get waitingClaims(): number {
    return this.#wakers.size;
  }

  /** A queued action nothing in the gateway runs was handed off: waiting long-polls look again, socket executors of its type are told. */
  offer(actionType?: string): void {
    for (const wake of [...this.#wakers]) wake();
    for (const listener of [...this.#offerListeners]) {
      try {
        listener(actionType ?? null);
      } catch (error) {
        this.#o.logger.error({ code: 'executor_offer_listener_failed', err: error }, 'an offer listener threw');
      }
    }
  }

  /** Told of every offer (the action type, or null when unknown); returns the unsubscribe. */
  onOffer(listener: (actionType: string | null) => void): () => void {
    this.#offerListeners.add(listener);
    return () => this.#offerListeners.delete(listener);
  }

  /** Whether an action of `type` waits to be claimed by this executor (a socket executor joining is told at once). */
  async hasQueued(type: string, who: ExecutorIdentity): Promise<boolean> {
    return (await this.#o.store.read.dispatches.listQueuedOfType(type, who.projectId, 1)).length > 0;
  }

  /** Claims the oldest queued dispatch of `type` this executor may take, waiting up to `waitMs`; null when none came. */
  async claim(
    type: string,
    who: ExecutorIdentity,
    options: { waitMs: number; leaseMs?: number | undefined; signal?: AbortSignal | undefined },
  ): Promise<ClaimedAction | null> {
    requireExternalType(type);
    const leaseMs = Math.min(options.leaseMs ?? this.#o.leaseMs.default, this.#o.leaseMs.max);
    const deadline = Date.now() + options.waitMs;
    const { signal } = options;
    const onAbort = () => {
      for (const wake of [...this.#wakers]) wake();
    };
    signal?.addEventListener('abort', onAbort);
    let counted = false;
    try {
      for (;;) {
        // A long-poll whose caller went away claims nothing: no one would receive the action, and
        // its lease would end as outcome_unknown for an action nobody could have run.
        if (signal?.aborted || this.#closed) return null;
        const claimed = await this.#claimOne(type, who, leaseMs);
        if (claimed) return claimed;
        const left = deadline - Date.now();
        if (left <= 0) return null;
        if (!counted) {
          const waiting = this.#waitingBy.get(who.credentialId) ?? 0;
          if (waiting >= MAX_WAITING_CLAIMS_PER_CREDENTIAL)
            throw new ActionError(
              'too_many',
              'too_many_waiting_claims',
              `executor credential ${who.name} already has ${waiting} claims waiting (at most ${MAX_WAITING_CLAIMS_PER_CREDENTIAL}); wait for one to return before opening another`,
            );
          this.#waitingBy.set(who.credentialId, waiting + 1);
          counted = true;
        }
        await this.#waitForOffer(Math.min(left, this.#o.pollIntervalMs));
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (counted) {
        const waiting = (this.#waitingBy.get(who.credentialId) ?? 1) - 1;
        if (waiting > 0) this.#waitingBy.set(who.credentialId, waiting);
        else this.#waitingBy.delete(who.credentialId);
      }
    }
  }

  /** Extends the lease of a claimed attempt (a long push, a slow provider); false once it is settled or stale. */
  async extend(
    type: string,
    dispatchId: string,
    who: ExecutorIdentity,
    attempt: number,
    leaseMs?: number,
  ): Promise<{ dispatchId: string; attempt: number; leaseUntil: string }> {
    requireExternalType(type);
    const dispatch = await this.#claimedBy(type, dispatchId, who);
    const now = this.#now();
    const leaseUntil = new Date(
      now.getTime() + Math.min(leaseMs ?? this.#o.leaseMs.default, this.#o.leaseMs.max),
    ).toISOString();
    const extended = await this.#o.store.transaction((tx) =>
      tx.dispatches.advance(dispatch.id, attempt, IN_FLIGHT, 'running', now.toISOString(), leaseUntil),
    );
    if (!extended) {
      const current = (await this.#o.store.read.dispatches.get(dispatchId)) ?? dispatch;
      throw new ActionError(
        'conflict',
        current.attempt !== attempt ? 'stale_attempt' : 'dispatch_settled',
        current.attempt !== attempt
          ? `attempt ${attempt} of dispatch ${dispatchId} is stale (current attempt ${current.attempt}); stop working on it`
          : `dispatch ${dispatchId} is already settled as ${String(current.outcome?.code ?? current.state)}; report what you did, it is kept`,
        { state: current.state, attempt: current.attempt },
      );
    }
    return { dispatchId, attempt, leaseUntil };
  }

  /** Records an executor's report of one attempt. */
  async report(type: string, dispatchId: string, who: ExecutorIdentity, report: ExecutorReport): Promise<ReportAnswer> {
    requireExternalType(type);
    const outcome = outcomeOfReport(report, who);
    const dispatch = await this.#claimedBy(type, dispatchId, who);
    const action = await this.#o.store.read.actions.get(dispatch.actionId);
    if (!action) throw new ActionError('not_found', 'action_not_found', `no action with id ${dispatch.actionId}`);
    return this.#judge(dispatch, action, report, outcome);
  }

  async #judge(
    dispatch: Dispatch,
    action: ProposedAction,
    report: ExecutorReport,
    outcome: ExecutionOutcome,
  ): Promise<ReportAnswer> {
    const within = mergeEffect(action, outcome);
    if (IN_FLIGHT.includes(dispatch.state)) {
      if (report.attempt !== dispatch.attempt)
        return this.#late(
          dispatch,
          report,
          'stale_attempt',
          `attempt ${report.attempt} is stale (current ${dispatch.attempt})`,
        );
      const input: RecordInput = {
        dispatch,
        fence: { attempt: dispatch.attempt, from: IN_FLIGHT },
        action,
        outcome,
        ...(within ? { within } : {}),
      };
      if (await this.#o.recorder.record(input)) return { recorded: 'settled', state: outcome.status };
      return this.#rejudge(dispatch.id, action, report, outcome); // settled meanwhile (its lease ran out)
    }
    if (dispatch.state === 'queued')
      throw new ActionError(
        'conflict',
        'stale_attempt',
        `dispatch ${dispatch.id} is queued at attempt ${dispatch.attempt}: attempt ${report.attempt} was never claimed; claim it first`,
      );
    const recorded = dispatch.outcome ?? {};
    const unknownAttempt = (recorded.detail as { attempt?: unknown } | undefined)?.attempt;
    if (recorded.code === OUTCOME_UNKNOWN && unknownAttempt === report.attempt) {
      if (await this.#o.recorder.resolveUnknown(dispatch, report.attempt, outcome, within))
        return { recorded: 'replaced_outcome_unknown', state: outcome.status };
      return this.#rejudge(dispatch.id, action, report, outcome);
    }
    if (recorded.origin === 'executor' && report.attempt === dispatch.attempt && sameReport(recorded, outcome))
      return { recorded: 'duplicate', state: dispatch.state as 'executed' | 'failed' };
    return this.#late(
      dispatch,
      report,
      report.attempt === dispatch.attempt ? 'dispatch_settled' : 'stale_attempt',
      `dispatch ${dispatch.id} is already settled as ${String(recorded.code ?? dispatch.state)}`,
    );
  }

  async #rejudge(id: string, action: ProposedAction, report: ExecutorReport, outcome: ExecutionOutcome) {
    const now = await this.#o.store.read.dispatches.get(id);
    if (!now) throw new ActionError('not_found', 'unknown_dispatch', `dispatch ${id} is not known`);
    return this.#judge(now, action, report, outcome);
  }

  /** A truthful report that cannot change the recorded outcome: one action.late_result per attempt, never dropped. */
  async #late(
    dispatch: Dispatch,
    report: ExecutorReport,
    code: 'dispatch_settled' | 'stale_attempt',
    why: string,
  ): Promise<ReportAnswer> {
    await keepLateReport(
      this.#o.store,
      dispatch,
      report.attempt,
      {
        status: report.status,
        origin: 'executor',
        ...(report.code ? { reason: { code: report.code, message: report.message ?? '' } } : {}),
        ...(report.detail ? { detail: report.detail } : {}),
      },
      this.#now().toISOString(),
    );
    const state = dispatch.state === 'executed' ? 'executed' : 'failed';
    return {
      recorded: 'late_result',
      state,
      code,
      message: `${why}; this report is kept as action.late_result and does not change the outcome`,
    };
  }

  /** The dispatch, checked to be this type's and claimed by this credential (or refused with a named code). */
  async #claimedBy(type: string, dispatchId: string, who: ExecutorIdentity): Promise<Dispatch> {
    const dispatch = await this.#o.store.read.dispatches.get(dispatchId);
    if (!dispatch || (who.projectId !== null && dispatch.projectId !== who.projectId))
      throw new ActionError('not_found', 'unknown_dispatch', `dispatch ${dispatchId} is not known to this executor`);
    const action = await this.#o.store.read.actions.get(dispatch.actionId);
    if (action?.actionType !== type)
      throw new ActionError(
        'conflict',
        'dispatch_type_mismatch',
        `dispatch ${dispatchId} is a ${String(action?.actionType)}, not a ${type}; report it on /api/executors/${String(action?.actionType)}/...`,
      );
    if (dispatch.state !== 'queued' && dispatch.target !== executorTarget(type, who.credentialId))
      throw new ActionError(
        'forbidden',
        'not_claimant',
        `dispatch ${dispatchId} was claimed by another executor credential (${dispatch.target ?? 'none'}); only the claimant reports it`,
      );
    return dispatch;
  }

  async #claimOne(type: string, who: ExecutorIdentity, leaseMs: number): Promise<ClaimedAction | null> {
    const queued = await this.#o.store.read.dispatches.listQueuedOfType(type, who.projectId, CLAIM_BATCH);
    for (const candidate of queued) {
      const now = this.#now();
      const at = now.toISOString();
      const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
      const claimed = await this.#o.store.transaction(async (tx) => {
        const claim = await tx.dispatches.claim(
          candidate.id,
          'sent',
          executorTarget(type, who.credentialId),
          leaseUntil,
          at,
          this.#o.nodeId,
        );
        if (!claim) return null;
        const action = await tx.actions.get(claim.actionId);
        if (!action) throw new Error(`dispatch ${claim.id} refers to a missing action`);
        await tx.events.append({
          projectId: claim.projectId,
          type: EXECUTION_EVENTS.claimed,
          actorKind: 'system',
          actorId: null,
          actionId: claim.actionId,
          payload: {
            dispatchId: claim.id,
            attempt: claim.attempt,
            actionType: type,
            executor: who.name,
            credentialId: who.credentialId,
            leaseUntil,
          },
          createdAt: at,
        });
        return { claim, action };
      });
      if (!claimed) continue; // another executor won it
      const { claim, action } = claimed;
      this.#o.logger.info(
        { code: 'executor_claimed', dispatchId: claim.id, actionId: action.id, actionType: type, executor: who.name },
        'an external executor claimed an action',
      );
      return {
        dispatchId: claim.id,
        attempt: claim.attempt,
        leaseUntil,
        actionId: action.id,
        projectId: action.projectId,
        actionType: action.actionType,
        payload: action.payload,
        credentialRef: claim.credentialRef,
        proposerId: action.proposerId,
        decidedBy: action.decidedBy,
      };
    }
    return null;
  }

  #waitForOffer(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#wakers.add(wake);
    });
  }

  /**
   * Claims whose lease ran out without a report become outcome_unknown (the executor may have
   * acted). Fenced on the attempt and the in-flight states, so a report racing it wins or is
   * judged against it; any node may run this. Not before one grace window after start-up.
   */
  async expireLeases(asOf?: Date): Promise<number> {
    if (this.#sweeping || this.#closed) return 0;
    const now = asOf ?? this.#now();
    if (now.getTime() - this.#startedAt < this.#o.graceMs) return 0;
    this.#sweeping = true;
    let expired = 0;
    try {
      const due = await this.#o.store.read.dispatches.listLeaseExpired(EXECUTOR_TARGET_PREFIX, now.toISOString(), 100);
      for (const dispatch of due) {
        const [, type = 'unknown', claimedBy = 'unknown'] = (dispatch.target ?? '').split(':');
        const outcome = {
          ...executorLeaseExpired(dispatch.projectId, dispatch.attempt, { type, claimedBy }, dispatch.leaseUntil ?? ''),
          origin: 'gateway' as const,
        };
        if (await this.#o.recorder.recordForDispatch(dispatch, { attempt: dispatch.attempt, from: IN_FLIGHT }, outcome))
          expired += 1;
      }
    } catch (error) {
      this.#o.logger.warn(
        { code: 'executor_lease_sweep_failed', err: error },
        'could not expire the leases of external executors; retrying on the next sweep',
      );
    } finally {
      this.#sweeping = false;
    }
    return expired;
  }
}
