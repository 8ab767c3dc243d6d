// Approve and deny by a human: role at or above the type's minimum, a conditional transition out
// of `pending` (exactly one winner among concurrent clicks), the event with the real user.
import { MIN_ROLE } from '../policy/index.ts';
import type { Project, ProposedAction, Repositories } from '../store/types.ts';
import { requireProject, requireRole } from './access.ts';
import { type ActionDeps, nowIso } from './deps.ts';
import { ActionError, notFound } from './errors.ts';
import { EVENT } from './events.ts';
import { enqueueHandoff } from './handoff.ts';
import { prAlreadyMerged, prNumberOf } from './merge.ts';
import { refuseIfNotExecutable } from './propose.ts';

/** `aprovada`: this call approved it; `ja_aprovada`: it had already left pending by approval. */
export type ApprovalOutcome = 'aprovada' | 'ja_aprovada';

export interface ReviewContext {
  action: ProposedAction;
  project: Project;
}

/** Loads the action and checks the reviewer's role, inside the transaction. */
export async function loadForReview(tx: Repositories, actionId: string, userId: string): Promise<ReviewContext> {
  const action = await tx.actions.get(actionId);
  if (!action) throw notFound('action', actionId);
  const project = await requireProject(tx, action.projectId);
  await requireRole(tx, project.id, userId, MIN_ROLE[action.actionType], `deciding a ${action.actionType}`);
  return { action, project };
}

export const alreadyDenied = (action: ProposedAction): ActionError =>
  new ActionError(
    'conflict',
    'acao_ja_recusada',
    `action ${action.id} was already denied${action.decidedBy ? ` by ${action.decidedBy}` : ''}; nothing was written`,
    {
      reason: 'acao_ja_recusada',
    },
  );

/**
 * Moves a pending action to approved (in `tx`), writes proposed_action.approved and the hand-off.
 * Returns `ja_aprovada` for an action already approved or auto-approved (no event).
 */
export async function approveInTransaction(
  deps: ActionDeps,
  tx: Repositories,
  ctx: ReviewContext,
  userId: string,
): Promise<ApprovalOutcome> {
  const { action, project } = ctx;
  if (action.status === 'denied') throw alreadyDenied(action);
  if (action.status !== 'pending') return 'ja_aprovada';
  refuseIfNotExecutable(deps, project, action.actionType);
  if (action.actionType === 'git_merge') {
    const prNumber = prNumberOf(action.payload);
    if (await tx.merges.isMerged(project.id, prNumber)) throw prAlreadyMerged(prNumber);
  }
  const at = nowIso(deps);
  if (!(await tx.actions.decideIfPending(action.id, 'approved', userId, at, null))) {
    // Only reachable with several writers (Postgres nodes): someone else decided first.
    const now = await tx.actions.get(action.id);
    if (now?.status === 'denied') throw alreadyDenied(now);
    return 'ja_aprovada';
  }
  await tx.events.append({
    projectId: project.id,
    type: EVENT.actionApproved,
    actorKind: 'user',
    actorId: userId,
    actionId: action.id,
    payload: { actionType: action.actionType },
    createdAt: at,
  });
  await enqueueHandoff(tx, project, action, at);
  return 'aprovada';
}

/** After the commit of an approval this call made: count it and wake execution. */
export function announceApproval(deps: ActionDeps, actionId: string, desfecho: ApprovalOutcome): void {
  if (desfecho !== 'aprovada') return;
  deps.observer.decided({ by: 'human', outcome: 'approved' });
  deps.execution.notify(actionId);
}

export interface ReviewResult {
  action: ProposedAction;
  desfecho: ApprovalOutcome | 'recusada' | 'ja_recusada';
}

export async function approve(deps: ActionDeps, actionId: string, userId: string): Promise<ReviewResult> {
  const result = await deps.store.transaction(async (tx) => {
    const ctx = await loadForReview(tx, actionId, userId);
    const desfecho = await approveInTransaction(deps, tx, ctx, userId);
    return { desfecho, action: (await tx.actions.get(actionId)) as ProposedAction };
  });
  announceApproval(deps, actionId, result.desfecho);
  return result;
}

export async function deny(deps: ActionDeps, actionId: string, userId: string, reason: string): Promise<ReviewResult> {
  const result = await deps.store.transaction(async (tx): Promise<ReviewResult & { turnEnded?: boolean }> => {
    const { action, project } = await loadForReview(tx, actionId, userId);
    if (action.status === 'denied') return { action, desfecho: 'ja_recusada' };
    const at = nowIso(deps);
    if (action.status !== 'pending' || !(await tx.actions.decideIfPending(action.id, 'denied', userId, at, reason))) {
      throw new ActionError(
        'conflict',
        'acao_ja_aprovada',
        `action ${action.id} was already approved; it can no longer be denied`,
      );
    }
    await tx.actions.releaseMergeKey(action.id);
    await tx.events.append({
      projectId: project.id,
      type: EVENT.actionDenied,
      actorKind: 'user',
      actorId: userId,
      actionId: action.id,
      payload: { actionType: action.actionType, reason },
      createdAt: at,
    });
    const turnEnded = (await deps.proposalHook?.withinDeny?.(tx, action, at)) ?? false;
    return { action: (await tx.actions.get(actionId)) as ProposedAction, desfecho: 'recusada', turnEnded };
  });
  if (result.desfecho !== 'recusada') return result;
  deps.observer.decided({ by: 'human', outcome: 'denied' });
  await deps.proposalHook?.denied?.(actionId, result.turnEnded === true);
  const { turnEnded: _ended, ...answer } = result;
  return answer;
}
