// A truthful report that cannot change the recorded outcome (the dispatch was settled otherwise,
// or the report is of a stale attempt) is kept, never dropped: one action.late_result per
// dispatch and attempt, so a report re-sent after a lost answer adds nothing. Used for runners'
// results (runner-route.ts) and external executors' reports (executors.ts).
import type { Dispatch, Store } from '../store/types.ts';
import { EXECUTION_EVENTS } from './events.ts';

/** True when this call wrote the event (the first report of that attempt). */
export function keepLateReport(
  store: Store,
  dispatch: Pick<Dispatch, 'id' | 'projectId' | 'actionId' | 'state' | 'outcome'>,
  attempt: number,
  report: Record<string, unknown>,
  at: string,
): Promise<boolean> {
  const recordedAs = dispatch.outcome?.code ?? dispatch.state;
  return store.transaction(async (tx) => {
    if (!(await tx.dispatches.noteReport(dispatch.id, attempt, at))) return false;
    await tx.events.append({
      projectId: dispatch.projectId,
      type: EXECUTION_EVENTS.lateResult,
      actorKind: 'system',
      actorId: null,
      actionId: dispatch.actionId,
      payload: { dispatchId: dispatch.id, attempt, ...report, recordedAs },
      createdAt: at,
    });
    return true;
  });
}
