// The container lifecycle an outcome makes true, kept true: only what actually happened is
// written (a failed stop leaves the container as it was).
import type { ContainerLifecycle, Repositories } from '../store/types.ts';
import type { ExecutionOutcome } from './outcome.ts';
import { isContainerAction } from './plan.ts';

export function lifecycleAfter(
  actionType: string,
  outcome: ExecutionOutcome,
  previousContainerId: string | null,
): { state: ContainerLifecycle; containerId: string | null } | undefined {
  if (!isContainerAction(actionType)) return undefined;
  if (outcome.status === 'failed')
    return actionType === 'container_start' ? { state: 'failed', containerId: previousContainerId } : undefined;
  const containerId = outcome.container?.containerId ?? previousContainerId;
  if (actionType === 'container_start') return { state: 'running', containerId };
  if (actionType === 'container_stop') return { state: 'stopped', containerId };
  return { state: 'absent', containerId: null };
}

/**
 * Writes the lifecycle an outcome leaves. A container_start that ends `running` has passed the
 * start's write probe (the broker writes and removes a file in the mounted folder as the container
 * user, on the gateway's Docker or the runner's), so the folder is proven writable: RN-501's
 * `workspace_verified_at` is stamped in the same transaction.
 */
export async function writeLifecycle(
  tx: Repositories,
  projectId: string,
  actionType: string,
  lifecycle: { state: ContainerLifecycle; containerId: string | null },
  at: string,
): Promise<void> {
  await tx.containers.setState(projectId, lifecycle.state, lifecycle.containerId, at);
  if (actionType === 'container_start' && lifecycle.state === 'running')
    await tx.projects.markWorkspaceVerified(projectId, at);
}
