// Records the end of one execution in one transaction: the dispatch's final state and outcome
// (fenced: the write names the state and attempt it expects, so a second writer on any node, a
// pre-claim failure racing a claim, or a stale attempt changes nothing), action.executed /
// action.failed with the payload, the container lifecycle, and the waiting agent turn. After the
// commit the outcome is logged and the waiting agent (socket, long-poll) is woken.
import type { AgentTurns } from '../agents/turns.ts';
import type { Logger } from '../logger.ts';
import type {
  ContainerLifecycle,
  Dispatch,
  DispatchFence,
  ProposedAction,
  Repositories,
  Store,
} from '../store/types.ts';
import { EXECUTION_EVENTS } from './events.ts';
import { lifecycleAfter, writeLifecycle } from './lifecycle.ts';
import { capOutcome, type ExecutionOutcome } from './outcome.ts';
import { isContainerAction } from './plan.ts';

export interface RecordInput {
  dispatch: Pick<Dispatch, 'id' | 'target'>;
  /** The state and attempt the dispatch must still be in: `queued` at its queued attempt before a claim, the in-flight states of the claimed attempt after. */
  fence: DispatchFence;
  action: Pick<ProposedAction, 'id' | 'projectId' | 'actionType'>;
  outcome: ExecutionOutcome;
  /** The container lifecycle this outcome makes true (container actions only). */
  lifecycle?: { state: ContainerLifecycle; containerId: string | null };
  /** What else the outcome makes true, in the same transaction once the fenced write won (a merge's result). */
  within?: (tx: Repositories, at: string) => Promise<void>;
}

export class OutcomeRecorder {
  readonly #store: Store;
  readonly #logger: Logger;
  readonly #turns: AgentTurns;
  readonly #capBytes: number;
  readonly #now: () => Date;
  readonly #onSettled: ((actionId: string, status: 'executed' | 'failed', code: string | null) => void) | undefined;

  /** `onSettled`: after a recorded outcome's commit (live output viewers end their stream). */
  constructor(options: {
    store: Store;
    logger: Logger;
    turns: AgentTurns;
    outputCapBytes: number;
    now?: () => Date;
    onSettled?: (actionId: string, status: 'executed' | 'failed', code: string | null) => void;
  }) {
    this.#onSettled = options.onSettled;
    this.#store = options.store;
    this.#logger = options.logger;
    this.#turns = options.turns;
    this.#capBytes = options.outputCapBytes;
    this.#now = options.now ?? (() => new Date());
  }

  /** True when this call settled the dispatch. */
  async record(input: RecordInput): Promise<boolean> {
    const outcome = capOutcome(input.outcome, this.#capBytes);
    const at = this.#now().toISOString();
    const { action, dispatch } = input;
    const result = await this.#store.transaction(async (tx) => {
      if (
        !(await tx.dispatches.finish(
          dispatch.id,
          input.fence,
          outcome.status,
          outcome as unknown as Record<string, unknown>,
          at,
        ))
      ) {
        return { applied: false, turnEnded: false };
      }
      const current = await tx.dispatches.get(dispatch.id);
      await tx.events.append({
        projectId: action.projectId,
        type: outcome.status === 'executed' ? EXECUTION_EVENTS.executed : EXECUTION_EVENTS.failed,
        actorKind: 'system',
        actorId: null,
        actionId: action.id,
        payload: {
          actionType: action.actionType,
          dispatchId: dispatch.id,
          attempt: current?.attempt ?? 0,
          target: current?.target ?? dispatch.target,
          ...outcome,
        },
        createdAt: at,
      });
      if (input.lifecycle) await writeLifecycle(tx, action.projectId, action.actionType, input.lifecycle, at);
      await input.within?.(tx, at);
      const turnEnded = await tx.turns.end(action.id, 'settled', at);
      return { applied: true, turnEnded };
    });
    if (!result.applied) return false;
    const fields = {
      actionId: action.id,
      dispatchId: dispatch.id,
      projectId: action.projectId,
      actionType: action.actionType,
    };
    if (outcome.status === 'executed')
      this.#logger.info({ ...fields, code: 'action_executed', exitCode: outcome.exitCode }, 'action executed');
    else this.#logger.warn({ ...fields, code: outcome.code, detail: outcome.detail }, outcome.message);
    try {
      this.#onSettled?.(action.id, outcome.status, outcome.status === 'failed' ? outcome.code : null);
    } catch (error) {
      this.#logger.error(
        { code: 'settled_observer_failed', err: error, actionId: action.id },
        'a settlement observer threw; the outcome is recorded',
      );
    }
    await this.#turns.deliver(action.id, result.turnEnded);
    return true;
  }

  /** record(), with the lifecycle the outcome leaves behind derived from the container before it. */
  recordDerivingLifecycle(input: Omit<RecordInput, 'lifecycle'>, previousContainerId: string | null): Promise<boolean> {
    const lifecycle = lifecycleAfter(input.action.actionType, input.outcome, previousContainerId);
    return this.record(lifecycle ? { ...input, lifecycle } : input);
  }

  /**
   * For a dispatch known by its row alone (a restart, a runner's result, a lost runner): reads its
   * action type and, for container actions only, the project's container before the outcome.
   */
  async recordForDispatch(dispatch: Dispatch, fence: DispatchFence, outcome: ExecutionOutcome): Promise<boolean> {
    const action = await this.#actionOf(dispatch);
    const previous = isContainerAction(action.actionType)
      ? await this.#store.read.containers.get(dispatch.projectId)
      : null;
    return this.recordDerivingLifecycle({ dispatch, fence, action, outcome }, previous?.containerId ?? null);
  }

  /**
   * A runner's report of `attempt` replaces the `outcome_unknown` recorded for it: the dispatch
   * gets the real outcome and the log one action.executed / action.failed naming what it resolves.
   * False when the dispatch no longer holds that unknown outcome (another report won).
   */
  async resolveUnknown(
    dispatch: Dispatch,
    attempt: number,
    input: ExecutionOutcome,
    within?: RecordInput['within'],
  ): Promise<boolean> {
    const outcome = capOutcome(input, this.#capBytes);
    const action = await this.#actionOf(dispatch);
    const previous = isContainerAction(action.actionType)
      ? await this.#store.read.containers.get(dispatch.projectId)
      : null;
    const lifecycle = lifecycleAfter(action.actionType, outcome, previous?.containerId ?? null);
    const at = this.#now().toISOString();
    const applied = await this.#store.transaction(async (tx) => {
      if (
        !(await tx.dispatches.resolveUnknown(
          dispatch.id,
          attempt,
          outcome.status,
          outcome as unknown as Record<string, unknown>,
          at,
        ))
      )
        return false;
      await tx.dispatches.noteReport(dispatch.id, attempt, at);
      await tx.events.append({
        projectId: action.projectId,
        type: outcome.status === 'executed' ? EXECUTION_EVENTS.executed : EXECUTION_EVENTS.failed,
        actorKind: 'system',
        actorId: null,
        actionId: action.id,
        payload: {
          actionType: action.actionType,
          dispatchId: dispatch.id,
          attempt,
          target: dispatch.target,
          resolves: 'outcome_unknown',
          ...outcome,
        },
        createdAt: at,
      });
      if (lifecycle) await writeLifecycle(tx, action.projectId, action.actionType, lifecycle, at);
      await within?.(tx, at);
      return true;
    });
    if (!applied) return false;
    this.#logger.warn(
      {
        actionId: action.id,
        dispatchId: dispatch.id,
        projectId: action.projectId,
        code: 'outcome_resolved',
        status: outcome.status,
        attempt,
      },
      'a late report replaced the outcome_unknown recorded for this action with its real outcome',
    );
    await this.#turns.deliver(action.id, false);
    return true;
  }

  async #actionOf(dispatch: Dispatch): Promise<Pick<ProposedAction, 'id' | 'projectId' | 'actionType'>> {
    const action = await this.#store.read.actions.get(dispatch.actionId);
    return { id: dispatch.actionId, projectId: dispatch.projectId, actionType: action?.actionType ?? 'terminal' };
  }
}
