// The durable hand-off to execution, written in the approval's own transaction.
import { randomUUID } from 'node:crypto';
import { factsOf } from '../policy/index.ts';
import type { ActionType } from '../policy/index.ts';
import type { Project, ProposedAction, Repositories } from '../store/types.ts';

/**
 * Git actions run with the workspace owner's provider credential (RN-082): an auto-approved
 * action has no decider, and resolving by decided_by would make every auto-approved PR fail with
 * "Requires authentication". A reference only; the secret never leaves the credential store.
 */
export function credentialRefFor(project: Project, actionType: ActionType): string | null {
  return factsOf(actionType).credential === 'owner' ? `owner:${project.ownerId}` : null;
}

export async function enqueueHandoff(
  tx: Repositories,
  project: Project,
  action: Pick<ProposedAction, 'id' | 'actionType'>,
  at: string,
): Promise<void> {
  await tx.handoffs.enqueue({
    id: randomUUID(),
    actionId: action.id,
    projectId: project.id,
    credentialRef: credentialRefFor(project, action.actionType),
    createdAt: at,
  });
}
