// What an agent waiting on an action gets back (`task.action_settled`): the real result of the
// execution, the failure with its code, or the denial reason as the answer. Derived from the
// committed rows only, so the socket push, the long-poll and GET /api/actions/:id agree.
import type { ActionSettled } from '../../runner-protocol/index.ts';
import type { Dispatch, ProposedAction } from '../store/types.ts';

export type SettlementState = 'pending' | 'executing' | 'settled';

export function settlementOf(
  action: ProposedAction,
  dispatch: Dispatch | null,
): { state: SettlementState; settlement: ActionSettled | null } {
  if (action.status === 'denied') {
    const reason = action.denialReason ?? action.reason;
    const code = action.decidedBy === null ? 'denied_by_policy' : 'denied';
    return {
      state: 'settled',
      settlement: { actionId: action.id, status: 'denied', reason: { code, message: reason.slice(0, 4000) } },
    };
  }
  if (action.status === 'pending') return { state: 'pending', settlement: null };
  if (!dispatch || (dispatch.state !== 'executed' && dispatch.state !== 'failed'))
    return { state: 'executing', settlement: null };
  const outcome = dispatch.outcome ?? {};
  const result = resultOf(outcome);
  if (dispatch.state === 'executed')
    return { state: 'settled', settlement: { actionId: action.id, status: 'executed', result } };
  const code = typeof outcome.code === 'string' ? outcome.code : 'failed';
  const message = typeof outcome.message === 'string' ? outcome.message : 'the execution failed';
  return {
    state: 'settled',
    settlement: {
      actionId: action.id,
      status: 'failed',
      reason: { code, message: message.slice(0, 4000) },
      ...(hasOutput(outcome) ? { result } : {}),
    },
  };
}

function resultOf(outcome: Record<string, unknown>): NonNullable<ActionSettled['result']> {
  const result: NonNullable<ActionSettled['result']> = {};
  if (typeof outcome.exitCode === 'number' && Number.isInteger(outcome.exitCode)) result.exitCode = outcome.exitCode;
  else if (outcome.exitCode === null) result.exitCode = null;
  if (typeof outcome.stdout === 'string') result.stdout = outcome.stdout;
  if (typeof outcome.stderr === 'string') result.stderr = outcome.stderr;
  return result;
}

const hasOutput = (outcome: Record<string, unknown>): boolean =>
  typeof outcome.stdout === 'string' || typeof outcome.stderr === 'string';
