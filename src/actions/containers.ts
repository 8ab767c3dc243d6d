// The containers page (RN-495): a human clicks Stop or Remove on a project's row; that proposes
// container_stop / container_remove with the human as proposer. decide() and the ceilings apply.
import type { ContainerRecord, Project } from '../store/types.ts';
import { requireHuman, requireProject } from './access.ts';
import type { ActionDeps } from './deps.ts';
import { ActionError } from './errors.ts';
import { propose, type ProposeOutcome } from './propose.ts';

export interface ContainerRow extends ContainerRecord {
  projectName: string;
  executionMode: Project['executionMode'];
}

export async function listContainers(deps: ActionDeps): Promise<ContainerRow[]> {
  const rows = await deps.store.read.containers.list();
  const out: ContainerRow[] = [];
  for (const row of rows) {
    const project = await deps.store.read.projects.get(row.projectId);
    if (project) out.push({ ...row, projectName: project.name, executionMode: project.executionMode });
  }
  return out;
}

export async function proposeContainerChange(
  deps: ActionDeps,
  projectId: string,
  userId: string,
  change: 'stop' | 'remove',
): Promise<ProposeOutcome> {
  await requireProject(deps.store.read, projectId);
  // RN-495: the containers page's clicks are always a human's, never an agent's.
  await requireHuman(deps.store.read, projectId, userId, `proposing container_${change} from the containers page`);
  const container = await deps.store.read.containers.get(projectId);
  if (!container || container.state === 'absent') {
    throw new ActionError('conflict', 'container_not_found', `project ${projectId} has no container to ${change}`);
  }
  return propose(deps, {
    projectId,
    proposerId: userId,
    actionType: change === 'stop' ? 'container_stop' : 'container_remove',
    payload: {},
  });
}
