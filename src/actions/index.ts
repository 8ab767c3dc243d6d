// The use cases, bound to their dependencies. The HTTP layer (and later the dispatcher and the
// gateway) call these; none of them knows about HTTP.
import type { Role } from '../policy/index.ts';
import type { ActionStatus, MemberKind } from '../store/types.ts';
import { approveAlways } from './approve-always.ts';
import { listAgentAutonomy, type SetAutonomyInput, setAgentAutonomy } from './autonomy.ts';
import { listContainers, proposeContainerChange } from './containers.ts';
import type { ActionDeps } from './deps.ts';
import { recordMergeResult } from './merge.ts';
import { getPermissions, putPermissions } from './permissions.ts';
import { acceptInfraHandoff } from './infra-handoff.ts';
import { activateExecution } from './presets.ts';
import {
  type CreateProjectInput,
  createProject,
  getProject,
  listMembers,
  setMember,
  setSandboxRequirement,
} from './projects.ts';
import { type ProposeInput, propose } from './propose.ts';
import { getAction, listActions, listEvents } from './queries.ts';
import { approve, deny } from './review.ts';
import { createTask, getTask } from './tasks.ts';

export { ActionError } from './errors.ts';
export type { ActionDeps, ProjectRoots } from './deps.ts';
export type { ActionExecutionPort, ActionObserver } from './ports.ts';
export { NO_OBSERVER } from './ports.ts';
export { HandoffNotifier } from './execution-handoff.ts';
export { EVENT } from './events.ts';
export { INFRA_AGENT_ID } from './infra-handoff.ts';

export function createActions(deps: ActionDeps) {
  return {
    createProject: (input: CreateProjectInput) => createProject(deps, input),
    getProject: (projectId: string) => getProject(deps, projectId),
    setMember: (projectId: string, memberId: string, role: Role, kind?: MemberKind, actorId?: string) =>
      setMember(deps, projectId, memberId, role, kind, actorId),
    listMembers: (projectId: string) => listMembers(deps, projectId),
    setSandboxRequirement: (projectId: string, required: boolean, actorId?: string) =>
      setSandboxRequirement(deps, projectId, required, actorId),
    getPermissions: (projectId: string) => getPermissions(deps, projectId),
    putPermissions: (projectId: string, userId: string, raw: unknown) => putPermissions(deps, projectId, userId, raw),
    setAgentAutonomy: (input: SetAutonomyInput) => setAgentAutonomy(deps, input),
    listAgentAutonomy: (projectId: string) => listAgentAutonomy(deps, projectId),
    propose: (input: ProposeInput) => propose(deps, input),
    approve: (actionId: string, userId: string) => approve(deps, actionId, userId),
    deny: (actionId: string, userId: string, reason: string) => deny(deps, actionId, userId, reason),
    approveAlways: (actionId: string, userId: string) => approveAlways(deps, actionId, userId),
    recordMergeResult: (actionId: string, merged: boolean) => recordMergeResult(deps, actionId, merged),
    activateExecution: (projectId: string, userId: string) => activateExecution(deps, projectId, userId),
    acceptInfraHandoff: (projectId: string, userId: string) => acceptInfraHandoff(deps, projectId, userId),
    listContainers: () => listContainers(deps),
    proposeContainerChange: (projectId: string, userId: string, change: 'stop' | 'remove') =>
      proposeContainerChange(deps, projectId, userId, change),
    createTask: (projectId: string, title: string, prNumber: number | null) =>
      createTask(deps, projectId, title, prNumber),
    getTask: (taskId: string) => getTask(deps, taskId),
    getAction: (actionId: string) => getAction(deps, actionId),
    listActions: (projectId: string, status: ActionStatus | undefined, limit: number) =>
      listActions(deps, projectId, status, limit),
    listEvents: (projectId: string, after: number, limit: number) => listEvents(deps, projectId, after, limit),
  };
}

export type Actions = ReturnType<typeof createActions>;
