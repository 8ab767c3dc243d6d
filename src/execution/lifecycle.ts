// The container lifecycle an outcome makes true, kept true: only what actually happened is
// written (a failed stop leaves the container as it was).
import type { ContainerLifecycle } from '../store/types.ts';
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
