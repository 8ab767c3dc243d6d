// What the use cases ask of the outside world. Adapters live elsewhere (the dispatcher, metrics).
import type { ActionType, ReasonCode } from '../policy/index.ts';
import type { ActionStatus, Project, ProposedAction, Repositories } from '../store/types.ts';

/**
 * Hands an approved or auto-approved action to execution. The use case has already written a
 * `queued` row in execution_handoffs in the same transaction as the approval; `notify` is called
 * after the commit so a dispatcher can pick it up now instead of at its next poll. It must not
 * throw (a lost notification is recovered by the queue).
 */
export interface ActionExecutionPort {
  notify(actionId: string): void;
  /**
   * Refuses up front what execution cannot do at all (e.g. 409 `no_broker` for a container_*
   * action of a container project on a gateway without a Docker broker). Checked before a
   * proposal is stored and before an approval; nothing is written when it refuses.
   */
  precondition?(project: Project, actionType: ActionType): { code: string; message: string } | null;
}

/**
 * Work that must commit with a new proposal, in its transaction (e.g. suspending the proposing
 * agent's turn while its action is pending): one commit, and never a proposal without it.
 */
export interface ProposalHook {
  withinProposal(tx: Repositories, action: ProposedAction, at: string): Promise<void>;
  /**
   * In the deny's own transaction: the denial is the answer the waiting agent gets, so its turn
   * ends with the deny (a crash between two transactions would otherwise mark it lost). True when
   * a waiting turn ended.
   */
  withinDeny?(tx: Repositories, action: ProposedAction, at: string): Promise<boolean>;
  /** After the deny's commit: wake whoever waits (the agent, long-polls). Never throws. */
  denied?(actionId: string, turnEnded: boolean): Promise<void>;
}

/** Measurements (Prometheus adapter in src/http/metrics.ts). */
export interface ActionObserver {
  proposed(event: {
    actionType: ActionType;
    status: ActionStatus;
    reasonCode: ReasonCode;
    decideSeconds: number;
  }): void;
  /** human = a click (approve / approve-always / deny); policy = auto-approved or denied at creation. */
  decided(event: { by: 'human' | 'policy'; outcome: 'approved' | 'denied' }): void;
}

export const NO_OBSERVER: ActionObserver = { proposed() {}, decided() {} };
