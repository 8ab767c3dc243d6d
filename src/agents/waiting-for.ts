// What an approved action that has not settled is waiting for, in a sentence the agent (and the
// operator reading GET /api/actions/:id/settlement) can act on. Only the types the gateway does
// not run need it: they wait for an external executor, and with none attached they never run.
import { factsOf } from '../policy/index.ts';
import type { Dispatch, ProposedAction } from '../store/types.ts';

export interface WaitingFor {
  /** `external_executor`: queued, no executor has claimed it; `executor_report`: claimed, not reported yet. */
  for: 'external_executor' | 'executor_report';
  message: string;
}

export function waitingFor(action: ProposedAction, dispatch: Dispatch | null): WaitingFor | null {
  if (!dispatch || factsOf(action.actionType).executedBy !== 'external_executor') return null;
  const type = action.actionType;
  if (dispatch.state === 'queued')
    return {
      for: 'external_executor',
      message:
        `approved; the gateway does not run ${type} itself, so it waits until an external executor of ${type} claims it ` +
        `(POST /api/executors/${type}/claim or the socket topic executor:${type}). With no executor attached it never runs.`,
    };
  if (dispatch.state === 'executed' || dispatch.state === 'failed') return null;
  return {
    for: 'executor_report',
    message: `claimed by an external executor (attempt ${dispatch.attempt}); its report is due before ${dispatch.leaseUntil ?? 'its lease ends'}, else the outcome is recorded as outcome_unknown.`,
  };
}
