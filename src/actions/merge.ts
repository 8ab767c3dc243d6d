// git_merge guards (spec "Auto mode" section, last paragraphs) and the merge result the executor
// reports (RN-628).
import type { ProposedAction, Repositories } from '../store/types.ts';
import { type ActionDeps, nowIso } from './deps.ts';
import { ActionError, notFound } from './errors.ts';
import { EVENT } from './events.ts';

export function prNumberOf(payload: Record<string, unknown>): number {
  const value = payload.prNumber;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw new ActionError(
    'invalid',
    'invalid_payload',
    'git_merge needs payload.prNumber, a positive integer (the PR to merge)',
  );
}

export const mergeKeyOf = (projectId: string, prNumber: number): string => `${projectId}:${prNumber}`;

export const prAlreadyMerged = (prNumber: number): ActionError =>
  new ActionError('conflict', 'pr_ja_mergeado', `PR #${prNumber} has already been merged`, { prNumber });

/** Before creation: merged already -> pr_ja_mergeado; a live proposal -> merge_ja_proposto. */
export async function guardNewMerge(tx: Repositories, projectId: string, prNumber: number): Promise<void> {
  if (await tx.merges.isMerged(projectId, prNumber)) throw prAlreadyMerged(prNumber);
  if (await tx.actions.liveMergeExists(mergeKeyOf(projectId, prNumber))) {
    throw new ActionError(
      'conflict',
      'merge_ja_proposto',
      `a merge of PR #${prNumber} is already proposed (pending, approved or auto-approved)`,
      { prNumber },
    );
  }
}

export interface MergeResult {
  /** This report was the first merge of that PR. */
  firstMerge: boolean;
  /** The task moved to done now (at most once per task). */
  taskDone: string | null;
}

/**
 * The executor reports what the provider said. merged: the PR is recorded as merged, the task it
 * came from becomes done once (one backlog.task_status_changed). Not merged: the proposal stops
 * holding the PR, so a retry can be proposed.
 */
export async function recordMergeResult(deps: ActionDeps, actionId: string, merged: boolean): Promise<MergeResult> {
  return deps.store.transaction(async (tx) => {
    const action = await tx.actions.get(actionId);
    if (!action) throw notFound('action', actionId);
    const at = nowIso(deps);
    const result = await applyMergeResult(tx, action, merged, at);
    await tx.handoffs.setStatus(action.id, merged ? 'executed' : 'failed', { merged }, at);
    return result;
  });
}

/**
 * The merge result inside the caller's transaction: the executor's report settles the dispatch
 * (its outcome carries `merged`) in the same one, so the hand-off row is left to it.
 */
export async function applyMergeResult(
  tx: Repositories,
  action: ProposedAction,
  merged: boolean,
  at: string,
): Promise<MergeResult> {
  requireExecutableMerge(action);
  const prNumber = prNumberOf(action.payload);
  if (!merged) {
    await tx.actions.releaseMergeKey(action.id);
    return { firstMerge: false, taskDone: null };
  }
  const firstMerge = await tx.merges.recordMerged(action.projectId, prNumber, action.id, at);
  const taskId = typeof action.payload.taskId === 'string' ? action.payload.taskId : null;
  const task = taskId ? await tx.tasks.get(taskId) : await tx.tasks.findByPr(action.projectId, prNumber);
  if (!task || task.projectId !== action.projectId) return { firstMerge, taskDone: null };
  if (!(await tx.tasks.transition(task.id, 'done', at))) return { firstMerge, taskDone: null };
  await tx.events.append({
    projectId: action.projectId,
    type: EVENT.taskStatusChanged,
    actorKind: 'system',
    actorId: null,
    actionId: action.id,
    payload: { taskId: task.id, from: task.status, to: 'done', prNumber },
  });
  return { firstMerge, taskDone: task.id };
}

function requireExecutableMerge(action: ProposedAction): void {
  if (action.actionType !== 'git_merge') {
    throw new ActionError('invalid', 'not_a_merge', `action ${action.id} is a ${action.actionType}, not a git_merge`);
  }
  if (action.status !== 'approved' && action.status !== 'auto_approved') {
    throw new ActionError(
      'conflict',
      'merge_not_approved',
      `action ${action.id} is ${action.status}; only an approved merge can have been executed`,
    );
  }
}
