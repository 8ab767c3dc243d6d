// The durable hand-off to execution, written in the approval's own transaction.
import { randomUUID } from 'node:crypto';
import type { ActionType } from '../policy/index.ts';
import type { Project, ProposedAction, Repositories } from '../store/types.ts';

const GIT_ACTION_TYPES: ReadonlySet<ActionType> = new Set<ActionType>([
  'git_commit',
  'git_push',
  'pr_open',
  'git_repo_create',
  'git_branch_create',
  'git_branch_protect',
  'open_adr_pr',
  'open_infra_pr',
  'git_merge',
]);

/**
 * Git actions run with the workspace owner's provider credential (RN-082): an auto-approved
 * action has no decider, and resolving by decided_by would make every auto-approved PR fail with
 * "Requires authentication". A reference only; the secret never leaves the credential store.
 */
export function credentialRefFor(project: Project, actionType: ActionType): string | null {
  return GIT_ACTION_TYPES.has(actionType) ? `owner:${project.ownerId}` : null;
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
