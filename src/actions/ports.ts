// What the use cases ask of the outside world. Adapters live elsewhere (the dispatcher, metrics).
import type { ActionType, ReasonCode } from '../policy/types.ts';
import type { ActionStatus } from '../store/types.ts';

/**
 * Hands an approved or auto-approved action to execution. The use case has already written a
 * `queued` row in execution_handoffs in the same transaction as the approval; `notify` is called
 * after the commit so a dispatcher can pick it up now instead of at its next poll. It must not
 * throw (a lost notification is recovered by the queue).
 */
export interface ActionExecutionPort {
  notify(actionId: string): void;
}

/** Measurements (Prometheus adapter in src/http/metrics.ts). */
export interface ActionObserver {
  proposed(event: { actionType: ActionType; status: ActionStatus; reasonCode: ReasonCode; decideSeconds: number }): void;
  /** human = a click (approve / approve-always / deny); policy = auto-approved or denied at creation. */
  decided(event: { by: 'human' | 'policy'; outcome: 'approved' | 'denied' }): void;
}

export const NO_OBSERVER: ActionObserver = { proposed() {}, decided() {} };
