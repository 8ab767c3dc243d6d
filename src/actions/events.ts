// Event types of the session log (spec "What each decision records") and actor helpers.
import type { ActorKind, MemberKind } from '../store/types.ts';

export const EVENT = {
  projectCreated: 'project.created',
  memberChanged: 'member.role_changed',
  actionCreated: 'proposed_action.created',
  actionApproved: 'proposed_action.approved',
  actionDenied: 'proposed_action.denied',
  permissionGranted: 'permission.granted',
  permissionsReplaced: 'permissions.replaced',
  autonomyChanged: 'agent_autonomy.changed',
  executionActivated: 'execution.activated',
  handoffAccepted: 'handoff.accepted',
  taskStatusChanged: 'backlog.task_status_changed',
  sandboxRequirementChanged: 'project.sandbox_requirement_changed',
} as const;

export const actorKindOf = (kind: MemberKind): ActorKind => (kind === 'agent' ? 'agent' : 'user');
