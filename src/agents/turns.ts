// Suspended agent turns (spec "What happens to the agent while the decision has not arrived"): a
// pending action proposed by an agent suspends its turn (awaiting_approval, keeping its task);
// the decision settles it and wakes the agent on `agent:<agentId>` with `task.action_settled`.
// A restart kills the in-memory loop: the turn is marked lost, its task goes back to the blocked
// queue with source `infra`, and a later decision is recorded with nobody left to wake.
import { AGENT_EVENTS, type ActionSettled } from '../../runner-protocol/index.ts';
import { EVENT } from '../actions/events.ts';
import { INFRA_AGENT_ID } from '../actions/infra-handoff.ts';
import type { Logger } from '../logger.ts';
import type { AgentTurn, Dispatch, ProposedAction, Repositories, Store } from '../store/types.ts';
import { settlementOf, type SettlementState } from './settlement.ts';
import type { SettlementWaiters } from './waiters.ts';
import { type WaitingFor, waitingFor } from './waiting-for.ts';

/** Where `task.action_settled` goes (the gateway's AgentNotifier). */
export interface AgentNotifierPort {
  notifyAgent(agentId: string, event: string, payload: unknown, projectId: string): number;
}

export const TURN_EVENTS = {
  suspended: 'agent.turn_suspended',
  settled: 'agent.turn_settled',
  lost: 'agent.turn_lost',
} as const;

export const TURN_LOST_REASON =
  'the gateway restarted while this agent turn was waiting for a decision; the suspended loop died with the process, so the task went back to the blocked queue';

/**
 * A turn with no task (the Dev Lead's, RN-284: conversational, no worktree, no task) has no queue
 * to go back to; saying "the task went back" would name a task that does not exist.
 */
export const TURN_LOST_NO_TASK_REASON =
  'the gateway restarted while this agent turn was waiting for a decision; the suspended turn died with the process. The decision is still recorded and shown in the approval queue, but this agent has no task to go back to and will not report the result by itself (RN-284)';

/** The turn_lost sentence: the blocked-queue one only when a task really went back to it. */
export const turnLostReason = (taskBlocked: boolean): string =>
  taskBlocked ? TURN_LOST_REASON : TURN_LOST_NO_TASK_REASON;

export interface TurnView {
  agentId: string;
  taskId: string | null;
  state: AgentTurn['state'];
  /** An operator sentence: who is (or is no longer) waiting. */
  message: string;
}

export interface ActionSettlementView {
  actionId: string;
  state: SettlementState;
  settlement: ActionSettled | null;
  turn: TurnView | null;
  /** While executing: what it waits for (an external executor's claim or report); null otherwise. */
  waiting: WaitingFor | null;
}

export class AgentTurns {
  readonly #store: Store;
  readonly #logger: Logger;
  readonly #waiters: SettlementWaiters;
  #notifier: AgentNotifierPort | null = null;
  readonly #now: () => Date;

  constructor(options: { store: Store; logger: Logger; waiters: SettlementWaiters; now?: () => Date }) {
    this.#store = options.store;
    this.#logger = options.logger;
    this.#waiters = options.waiters;
    this.#now = options.now ?? (() => new Date());
  }

  attachNotifier(notifier: AgentNotifierPort): void {
    this.#notifier = notifier;
  }

  /**
   * In the proposal's own transaction: an agent whose action is pending suspends its turn
   * (awaiting_approval), so the proposal and the waiting turn commit together.
   */
  async withinProposal(tx: Repositories, action: ProposedAction, at: string): Promise<void> {
    if (action.status !== 'pending' || action.proposerKind !== 'agent') return;
    const taskId = typeof action.payload.taskId === 'string' ? action.payload.taskId : null;
    await tx.turns.suspend({
      actionId: action.id,
      projectId: action.projectId,
      agentId: action.proposerId,
      taskId,
      createdAt: at,
    });
    await tx.events.append({
      projectId: action.projectId,
      type: TURN_EVENTS.suspended,
      actorKind: 'agent',
      actorId: action.proposerId,
      actionId: action.id,
      payload: { agentId: action.proposerId, state: 'awaiting_approval', taskId },
      createdAt: at,
    });
  }

  /**
   * A denial is an answer too: in the deny's own transaction the waiting turn ends (settled), so
   * the denial and the end of the turn commit together; the reason goes in place of the result.
   */
  withinDeny(tx: Repositories, action: ProposedAction, at: string): Promise<boolean> {
    return tx.turns.end(action.id, 'settled', at);
  }

  /** After the deny's commit: wake the agent and long-polls (deliver never throws on notify). */
  async denied(actionId: string, turnEnded: boolean): Promise<void> {
    try {
      await this.deliver(actionId, turnEnded);
    } catch (error) {
      this.#logger.error(
        { code: 'agent_notify_failed', actionId, err: error },
        'could not wake the agent after a denial; it can long-poll GET /api/actions/:id/settlement',
      );
    }
  }

  /**
   * Called after the commit that settled `actionId` (the recorder ends the turn in its own
   * transaction and passes whether it did). Wakes long-polls, and the agent if its turn was live.
   */
  async deliver(actionId: string, turnEnded: boolean): Promise<void> {
    this.#waiters.wake(actionId);
    if (!turnEnded) return;
    const found = await this.#read(actionId);
    const view = found?.view;
    if (!found || !view?.settlement || !view.turn) return;
    if (!this.#notifier) {
      this.#logger.warn(
        { code: 'agent_socket_unavailable', actionId },
        'no agent socket is attached; the agent can still long-poll the settlement',
      );
      return;
    }
    try {
      const listening = this.#notifier.notifyAgent(
        view.turn.agentId,
        AGENT_EVENTS.actionSettled,
        view.settlement,
        found.projectId,
      );
      this.#logger.info(
        { code: 'action_settled', actionId, agentId: view.turn.agentId, status: view.settlement.status, listening },
        'agent turn settled',
      );
    } catch (error) {
      this.#logger.error(
        { code: 'agent_notify_failed', actionId, err: error },
        'could not push task.action_settled; the agent can long-poll GET /api/actions/:id/settlement',
      );
    }
  }

  /** Start-up: turns that were waiting died with the previous process. */
  async recoverAfterRestart(): Promise<number> {
    let lost = 0;
    for (;;) {
      const turns = await this.#store.read.turns.listAwaiting(200);
      if (turns.length === 0) return lost;
      for (const turn of turns) {
        await this.#markLost(turn);
        lost += 1;
      }
    }
  }

  async #markLost(turn: AgentTurn): Promise<void> {
    const at = this.#now().toISOString();
    let taskBlocked = false;
    await this.#store.transaction(async (tx) => {
      if (!(await tx.turns.end(turn.actionId, 'lost', at))) return;
      if (turn.taskId) {
        const task = await tx.tasks.get(turn.taskId);
        if (
          task &&
          task.projectId === turn.projectId &&
          (await tx.tasks.transition(task.id, 'blocked', at, { reason: TURN_LOST_REASON, source: 'infra' }))
        ) {
          taskBlocked = true;
          await tx.events.append({
            projectId: turn.projectId,
            type: EVENT.taskStatusChanged,
            actorKind: 'system',
            actorId: INFRA_AGENT_ID,
            actionId: turn.actionId,
            payload: { taskId: task.id, from: task.status, to: 'blocked', reason: TURN_LOST_REASON, source: 'infra' },
            createdAt: at,
          });
        }
      }
      await tx.events.append({
        projectId: turn.projectId,
        type: TURN_EVENTS.lost,
        actorKind: 'system',
        actorId: INFRA_AGENT_ID,
        actionId: turn.actionId,
        payload: {
          agentId: turn.agentId,
          taskId: turn.taskId,
          taskBlocked,
          reason: turnLostReason(taskBlocked),
          source: 'infra',
        },
        createdAt: at,
      });
    });
    this.#logger.warn(
      { code: 'agent_turn_lost', actionId: turn.actionId, agentId: turn.agentId, taskId: turn.taskId, source: 'infra' },
      turnLostReason(taskBlocked),
    );
  }

  async view(actionId: string): Promise<ActionSettlementView | null> {
    return (await this.#read(actionId))?.view ?? null;
  }

  /** The settlement view, with the action's project (agent ids repeat across projects). */
  async #read(actionId: string): Promise<{ view: ActionSettlementView; projectId: string } | null> {
    const { read } = this.#store;
    const action = await read.actions.get(actionId);
    if (!action) return null;
    const [dispatch, turn] = await Promise.all([read.dispatches.getByAction(actionId), read.turns.get(actionId)]);
    const { state, settlement } = settlementOf(action, dispatch);
    const view = {
      actionId,
      state,
      settlement,
      turn: turn ? describeTurn(turn) : null,
      waiting: state === 'executing' ? waitingFor(action, dispatch) : null,
    };
    return { view, projectId: action.projectId };
  }

  /**
   * POST /actions' bounded wait for an auto-approved action: its dispatch row alone says whether
   * it settled (executed or failed), so only that row is read. Returns the dispatch as it is then.
   */
  waitForExecution(actionId: string, waitMs: number, stopEarly: () => boolean): Promise<Dispatch | null> {
    return this.#readUntil(
      actionId,
      waitMs,
      stopEarly,
      () => this.#store.read.dispatches.getByAction(actionId),
      isFinished,
    );
  }

  /** Long-poll: answers at once when settled (or unknown), else waits up to `waitMs` for the settlement. */
  waitForSettlement(actionId: string, waitMs: number): Promise<ActionSettlementView | null> {
    return this.#readUntil(
      actionId,
      waitMs,
      () => false,
      () => this.view(actionId),
      (view) => view === null || view.state === 'settled',
    );
  }

  /**
   * Reads until `done`, for at most `waitMs`: a wake-up only says "read again". `stopEarly` ends the
   * wait without `done` (e.g. the dispatch was parked). Returns the last read.
   */
  async #readUntil<T>(
    actionId: string,
    waitMs: number,
    stopEarly: () => boolean,
    read: () => Promise<T>,
    done: (value: T) => boolean,
  ): Promise<T> {
    const first = await read();
    if (done(first) || waitMs <= 0 || stopEarly()) return first;
    await this.#waiters.wait(actionId, waitMs, async () => stopEarly() || done(await read()));
    return read();
  }
}

const isFinished = (dispatch: Dispatch | null): boolean =>
  dispatch?.state === 'executed' || dispatch?.state === 'failed';

export function describeTurn(turn: AgentTurn): TurnView {
  const message =
    turn.state === 'awaiting_approval'
      ? `agent ${turn.agentId} is waiting for this decision (awaiting_approval)`
      : turn.state === 'settled'
        ? `agent ${turn.agentId} was given the outcome`
        : `no turn is waiting for this decision: ${turnLostReason(turn.taskId !== null)}${turn.taskId ? ` (task ${turn.taskId})` : ''}`;
  return { agentId: turn.agentId, taskId: turn.taskId, state: turn.state, message };
}
