// Row -> record mappers, written once for both adapters. The rows are the same columns in both
// dialects; what differs is how a JSON column arrives (SQLite: text to parse; Postgres jsonb: an
// already parsed value), so each adapter builds its mappers with its own `json` decoder.
import type { ActionType, Policy, ReasonCode, ResolvedAutonomy, Role } from '../policy/index.ts';
import type {
  ActionStatus,
  ActorKind,
  AgentTurn,
  AutonomyRule,
  ContainerLifecycle,
  ContainerRecord,
  Dispatch,
  DispatchState,
  ExecutionMode,
  Handoff,
  HandoffStatus,
  Member,
  MemberKind,
  ModuleMap,
  Project,
  ProposedAction,
  SessionEvent,
  Task,
  TaskStatus,
  TurnState,
} from './types.ts';

/** A result row as either driver hands it over: column name -> value. */
export type Row = Readonly<Record<string, unknown>>;

export const str = (value: unknown): string => String(value);
export const strOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);
/** Postgres bigint and COUNT(*) arrive as strings (pg keeps int8 exact); our numbers stay below 2^53. */
export const num = (value: unknown): number => Number(value);
export const numOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

/** Decodes a JSON column into the value it holds. */
export type JsonColumn = <T>(value: unknown) => T;

/** `action_type` of the autonomy rule that applies to every action type of an agent. */
export const AUTONOMY_WILDCARD = '*';

export interface RecordMappers {
  toProject(row: Row): Project;
  toMember(row: Row): Member;
  toAutonomyRule(row: Row): AutonomyRule;
  /** A row of `mode, action_type` picked by `resolve` (specific rule first, else the wildcard). */
  toResolvedAutonomy(row: Row): ResolvedAutonomy;
  toAction(row: Row): ProposedAction;
  toEvent(row: Row): SessionEvent;
  toContainer(row: Row): ContainerRecord;
  toHandoff(row: Row): Handoff;
  toDispatch(row: Row): Dispatch;
  toTurn(row: Row): AgentTurn;
  toTask(row: Row): Task;
  /** A row of `id, project_id` of runner_tokens. */
  toRunnerTokenOwner(row: Row): { projectId: string; tokenId: string };
}

export function recordMappers(json: JsonColumn): RecordMappers {
  const jsonOrNull = <T>(value: unknown): T | null => (value === null || value === undefined ? null : json<T>(value));

  // The coarse hand-off columns of an execution_handoffs row; a dispatch is a hand-off plus state.
  const toHandoff = (row: Row): Handoff => ({
    id: str(row.id),
    actionId: str(row.action_id),
    projectId: str(row.project_id),
    status: str(row.status) as HandoffStatus,
    credentialRef: strOrNull(row.credential_ref),
    outcome: jsonOrNull<Record<string, unknown>>(row.outcome),
    createdAt: str(row.created_at),
    updatedAt: str(row.updated_at),
  });

  return {
    toProject: (row) => ({
      id: str(row.id),
      name: str(row.name),
      slug: str(row.slug),
      executionMode: str(row.execution_mode) as ExecutionMode,
      root: str(row.root),
      workspaceDirName: str(row.workspace_dir_name),
      ownerId: str(row.owner_id),
      moduleMap: json<ModuleMap>(row.module_map),
      executionActivatedAt: strOrNull(row.execution_activated_at),
      createdAt: str(row.created_at),
      workspaceVerifiedAt: strOrNull(row.workspace_verified_at),
      sandboxRequired: row.sandbox_required === true || row.sandbox_required === 1 || row.sandbox_required === 1n,
    }),

    toMember: (row) => ({
      projectId: str(row.project_id),
      memberId: str(row.member_id),
      kind: str(row.kind) as MemberKind,
      role: str(row.role) as Role,
      updatedAt: str(row.updated_at),
    }),

    toAutonomyRule: (row) => ({
      projectId: str(row.project_id),
      agentId: str(row.agent_id),
      actionType: str(row.action_type) as ActionType | typeof AUTONOMY_WILDCARD,
      mode: str(row.mode) as Policy,
      updatedBy: strOrNull(row.updated_by),
      updatedAt: str(row.updated_at),
    }),

    toResolvedAutonomy: (row) => ({
      mode: str(row.mode) as Policy,
      origin: str(row.action_type) === AUTONOMY_WILDCARD ? 'curinga' : 'especifica',
    }),

    toAction: (row) => ({
      id: str(row.id),
      projectId: str(row.project_id),
      proposerId: str(row.proposer_id),
      proposerKind: str(row.proposer_kind) as MemberKind,
      actionType: str(row.action_type) as ActionType,
      payload: json<Record<string, unknown>>(row.payload),
      status: str(row.status) as ActionStatus,
      reasonCode: str(row.reason_code) as ReasonCode,
      reason: str(row.reason),
      scopeRoot: strOrNull(row.scope_root),
      decidedBy: strOrNull(row.decided_by),
      decidedAt: strOrNull(row.decided_at),
      denialReason: strOrNull(row.denial_reason),
      createdAt: str(row.created_at),
    }),

    toEvent: (row) => ({
      id: num(row.id),
      projectId: str(row.project_id),
      type: str(row.type),
      actorKind: str(row.actor_kind) as ActorKind,
      actorId: strOrNull(row.actor_id),
      actionId: strOrNull(row.action_id),
      payload: json<Record<string, unknown>>(row.payload),
      createdAt: str(row.created_at),
    }),

    toContainer: (row) => ({
      projectId: str(row.project_id),
      state: str(row.state) as ContainerLifecycle,
      containerId: strOrNull(row.container_id),
      updatedAt: str(row.updated_at),
    }),

    toHandoff,

    toDispatch: (row) => ({
      ...toHandoff(row),
      state: str(row.state) as DispatchState,
      attempt: num(row.attempt),
      leaseUntil: strOrNull(row.lease_until),
      target: strOrNull(row.target),
      ownerNode: strOrNull(row.owner_node),
      sentAt: strOrNull(row.sent_at),
      startedAt: strOrNull(row.started_at),
      finishedAt: strOrNull(row.finished_at),
    }),

    toTurn: (row) => ({
      actionId: str(row.action_id),
      projectId: str(row.project_id),
      agentId: str(row.agent_id),
      taskId: strOrNull(row.task_id),
      state: str(row.state) as TurnState,
      createdAt: str(row.created_at),
      updatedAt: str(row.updated_at),
    }),

    toTask: (row) => ({
      id: str(row.id),
      projectId: str(row.project_id),
      title: str(row.title),
      status: str(row.status) as TaskStatus,
      prNumber: numOrNull(row.pr_number),
      blockedReason: strOrNull(row.blocked_reason),
      blockedSource: strOrNull(row.blocked_source),
      updatedAt: str(row.updated_at),
    }),

    toRunnerTokenOwner: (row) => ({ projectId: str(row.project_id), tokenId: str(row.id) }),
  };
}
