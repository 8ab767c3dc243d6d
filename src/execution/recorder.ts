// Records the end of one execution in one transaction: the dispatch's final state and outcome
// (conditional: a second writer or a stale attempt changes nothing), action.executed /
// action.failed with the payload, the container lifecycle, and the waiting agent turn. After the
// commit the outcome is logged and the waiting agent (socket, long-poll) is woken.
import type { AgentTurns } from '../agents/turns.ts';
import type { Logger } from '../logger.ts';
import type { ContainerLifecycle, Dispatch, ProposedAction, Store } from '../store/types.ts';
import { EXECUTION_EVENTS } from './events.ts';
import { lifecycleAfter } from './lifecycle.ts';
import { capOutcome, type ExecutionOutcome } from './outcome.ts';
import { isContainerAction } from './plan.ts';

export interface RecordInput {
  dispatch: Pick<Dispatch, 'id' | 'target'>;
  /** The attempt this outcome belongs to; null = whatever attempt (failures before any claim). */
  attempt: number | null;
  action: Pick<ProposedAction, 'id' | 'projectId' | 'actionType'>;
  outcome: ExecutionOutcome;
  /** The container lifecycle this outcome makes true (container actions only). */
  lifecycle?: { state: ContainerLifecycle; containerId: string | null };
}

export class OutcomeRecorder {
  readonly #store: Store;
  readonly #logger: Logger;
  readonly #turns: AgentTurns;
  readonly #capBytes: number;
  readonly #now: () => Date;

  constructor(options: { store: Store; logger: Logger; turns: AgentTurns; outputCapBytes: number; now?: () => Date }) {
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
      if (!(await tx.dispatches.finish(dispatch.id, input.attempt, outcome.status, outcome as unknown as Record<string, unknown>, at))) {
        return { applied: false, turnEnded: false };
      }
      const current = await tx.dispatches.get(dispatch.id);
      await tx.events.append({
        projectId: action.projectId,
        type: outcome.status === 'executed' ? EXECUTION_EVENTS.executed : EXECUTION_EVENTS.failed,
        actorKind: 'system',
        actorId: null,
        actionId: action.id,
        payload: { actionType: action.actionType, dispatchId: dispatch.id, attempt: current?.attempt ?? 0, target: current?.target ?? dispatch.target, ...outcome },
        createdAt: at,
      });
      if (input.lifecycle) await tx.containers.setState(action.projectId, input.lifecycle.state, input.lifecycle.containerId, at);
      const turnEnded = await tx.turns.end(action.id, 'settled', at);
      return { applied: true, turnEnded };
    });
    if (!result.applied) return false;
    const fields = { actionId: action.id, dispatchId: dispatch.id, projectId: action.projectId, actionType: action.actionType };
    if (outcome.status === 'executed') this.#logger.info({ ...fields, code: 'action_executed', exitCode: outcome.exitCode }, 'action executed');
    else this.#logger.warn({ ...fields, code: outcome.code, detail: outcome.detail }, outcome.message);
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
  async recordForDispatch(dispatch: Dispatch, attempt: number, outcome: ExecutionOutcome): Promise<boolean> {
    const action = await this.#store.read.actions.get(dispatch.actionId);
    const actionType = action?.actionType ?? 'terminal';
    const previous = isContainerAction(actionType) ? await this.#store.read.containers.get(dispatch.projectId) : null;
    const input = { dispatch, attempt, action: { id: dispatch.actionId, projectId: dispatch.projectId, actionType }, outcome };
    return this.recordDerivingLifecycle(input, previous?.containerId ?? null);
  }
}
