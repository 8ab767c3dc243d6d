// What the HTTP layer asks of execution: the dispatch state of an action, a bounded wait for an
// auto-approved action's outcome, the agent long-poll, and closing a revoked runner's sockets.
import type { ActionSettlementView, AgentTurns, TurnView } from '../agents/turns.ts';
import { describeTurn } from '../agents/turns.ts';
import type { Dispatch, Store } from '../store/types.ts';

export interface DispatchView {
  dispatchId: string;
  state: string;
  attempt: number;
  target: string | null;
  outcome: Record<string, unknown> | null;
  updatedAt: string;
}

export interface ExecutionApi {
  /** Waits up to `waitMs` for the action's execution to settle; returns the dispatch as it is then. */
  awaitOutcome(actionId: string, waitMs: number): Promise<DispatchView | null>;
  /** How long POST /actions waits for an auto-approved action (the command's timeout, bounded). */
  proposeWaitMs(payload: Record<string, unknown>): number;
  settlement(actionId: string, waitMs: number): Promise<ActionSettlementView | null>;
  describe(actionId: string): Promise<{ dispatch: DispatchView | null; turn: TurnView | null }>;
  /** Closes live runner sockets of a revoked token; returns how many. */
  disconnectRunnerToken(tokenId: string): number;
}

const viewOf = (d: Dispatch | null): DispatchView | null =>
  d
    ? {
        dispatchId: d.id,
        state: d.state,
        attempt: d.attempt,
        target: d.target,
        outcome: d.outcome,
        updatedAt: d.updatedAt,
      }
    : null;

export function createExecutionApi(options: {
  store: Store;
  turns: AgentTurns;
  maxProposeWaitMs: number;
  disconnectRunnerToken: (tokenId: string) => number;
  /** True when nothing in this process will run the action now (parked): do not hold the request. */
  isParked?: (actionId: string) => boolean;
}): ExecutionApi {
  const { store, turns } = options;
  const dispatchView = async (actionId: string): Promise<DispatchView | null> =>
    viewOf(await store.read.dispatches.getByAction(actionId));
  return {
    async awaitOutcome(actionId, waitMs) {
      return viewOf(await turns.waitForExecution(actionId, waitMs, () => options.isParked?.(actionId) === true));
    },
    proposeWaitMs(payload) {
      const timeout =
        typeof payload.timeoutMs === 'number' && payload.timeoutMs > 0
          ? payload.timeoutMs + 1_000
          : options.maxProposeWaitMs;
      return Math.min(timeout, options.maxProposeWaitMs);
    },
    settlement: (actionId, waitMs) => turns.waitForSettlement(actionId, waitMs),
    async describe(actionId) {
      const [dispatch, turn] = await Promise.all([dispatchView(actionId), store.read.turns.get(actionId)]);
      return { dispatch, turn: turn ? describeTurn(turn) : null };
    },
    disconnectRunnerToken: options.disconnectRunnerToken,
  };
}
