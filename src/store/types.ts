// Records and repository interfaces. Use cases depend on these only; the SQLite adapter
// (src/store/sqlite) implements them, a Postgres adapter can follow. Every method is async so a
// networked database fits the same shape.
import type { ActionType, Policy, ReasonCode, ResolvedAutonomy, Role } from '../policy/index.ts';

export type ExecutionMode = 'container' | 'mounted' | 'runner';
export type MemberKind = 'human' | 'agent';
export type ActionStatus = 'pending' | 'auto_approved' | 'approved' | 'denied';
export type ContainerLifecycle = 'absent' | 'provisioning' | 'running' | 'stopped' | 'failed';
export type HandoffStatus = 'queued' | 'dispatched' | 'executed' | 'failed';
export type TaskStatus = 'todo' | 'in_progress' | 'blocked' | 'done';
export type ActorKind = 'agent' | 'user' | 'system';
/** Module name -> what the module declares (resources...). Free-form beyond the keys. */
export type ModuleMap = Record<string, Record<string, unknown>>;

export interface Project {
  id: string;
  name: string;
  slug: string;
  executionMode: ExecutionMode;
  /** The absolute root computed or given at creation (display; derive the scope root anew). */
  root: string;
  /** Frozen at creation: `<slug>-<8 chars of id>` (container/runner) or the segment under BRABO_PROJECTS_BASE (mounted). */
  workspaceDirName: string;
  ownerId: string;
  moduleMap: ModuleMap;
  executionActivatedAt: string | null;
  createdAt: string;
  /** Mounted projects: when container_start last proved the folder writable (RN-501). */
  workspaceVerifiedAt?: string | null;
  /** Auto-approved commands may only go to a runner that sandboxes them (issue 9 B.3). */
  sandboxRequired?: boolean;
}

/** A project's place on disk, for the root overlap check (issue 9 A.8). */
export interface ProjectRootRow {
  id: string;
  executionMode: ExecutionMode;
  root: string;
}

export interface Member {
  projectId: string;
  memberId: string;
  kind: MemberKind;
  role: Role;
  updatedAt: string;
}

export interface AutonomyRule {
  projectId: string;
  agentId: string;
  /** An action type or the wildcard `*` ("auto mode"). */
  actionType: ActionType | '*';
  mode: Policy;
  updatedBy: string | null;
  updatedAt: string;
}

export interface ProposedAction {
  id: string;
  projectId: string;
  /** The proposer: an agent, or a human for container stop/remove from the containers page. */
  proposerId: string;
  proposerKind: MemberKind;
  actionType: ActionType;
  payload: Record<string, unknown>;
  status: ActionStatus;
  reasonCode: ReasonCode;
  /** The decide() sentence that produced the creation status (RN-567). */
  reason: string;
  scopeRoot: string | null;
  /** NULL for auto_approved (nobody decided) and pending. */
  decidedBy: string | null;
  decidedAt: string | null;
  /** What the human wrote when denying. */
  denialReason: string | null;
  createdAt: string;
}

/** A row to insert: nobody has decided yet (decided_by NULL); decidedAt is set for denied-at-creation. */
export type NewProposedAction = Omit<ProposedAction, 'decidedBy' | 'denialReason'> & {
  /** git_merge: `<projectId>:<prNumber>` while the proposal is live; unique. */
  liveMergeKey: string | null;
};

export interface SessionEvent {
  /** The cursor: strictly increasing per store. */
  id: number;
  projectId: string;
  type: string;
  actorKind: ActorKind;
  actorId: string | null;
  actionId: string | null;
  payload: Record<string, unknown>;
  createdAt: string;
}
export type NewSessionEvent = Omit<SessionEvent, 'id' | 'createdAt'> & { createdAt?: string };

export interface ContainerRecord {
  projectId: string;
  state: ContainerLifecycle;
  containerId: string | null;
  updatedAt: string;
}

export interface Handoff {
  id: string;
  actionId: string;
  projectId: string;
  status: HandoffStatus;
  /** Whose provider credential the executor uses: the project owner's (RN-082), never decided_by. */
  credentialRef: string | null;
  outcome: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
}

/** Fine-grained execution state of a hand-off (the dispatcher's view of execution_handoffs). */
export type DispatchState = 'queued' | 'sent' | 'accepted' | 'running' | 'executed' | 'failed';

/** A hand-off as the dispatcher sees it. `id` is the idempotency key sent to the runner. */
export interface Dispatch extends Handoff {
  state: DispatchState;
  /** 0 while queued; each delivery increments it, and results of other attempts are stale. */
  attempt: number;
  /** Until when the current attempt may stay in flight before it is resolved as lost. */
  leaseUntil: string | null;
  /** `broker` or `runner:<projectId>`, written when the dispatch is claimed. */
  target: string | null;
  /** The gateway node that claimed it (src/cluster); its start-up or death settles it, no other live node. */
  ownerNode: string | null;
  sentAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface DispatchRepository {
  get(id: string): Promise<Dispatch | null>;
  getByAction(actionId: string): Promise<Dispatch | null>;
  listInStates(states: readonly DispatchState[], limit: number): Promise<Dispatch[]>;
  /** Queued dispatches whose action is of `actionType` (of `projectId` when given), oldest first: what an external executor may claim. */
  listQueuedOfType(actionType: string, projectId: string | null, limit: number): Promise<Dispatch[]>;
  /** In-flight dispatches whose target starts with `targetPrefix` and whose lease ended before `before`. */
  listLeaseExpired(targetPrefix: string, before: string, limit: number): Promise<Dispatch[]>;
  /**
   * queued -> `to`, attempt + 1, owned by node `owner` (src/cluster). Null when it was no longer
   * queued (someone else claimed it).
   */
  claim(
    id: string,
    to: 'sent' | 'running',
    target: string,
    leaseUntil: string | null,
    at: string,
    owner?: string | null,
  ): Promise<Dispatch | null>;
  /** Conditional move between in-flight states for one attempt; false when it did not apply. */
  advance(
    id: string,
    attempt: number,
    from: readonly DispatchState[],
    to: DispatchState,
    at: string,
    leaseUntil?: string | null,
  ): Promise<boolean>;
  /**
   * Final state, only when the row is still in one of `fence.from` at `fence.attempt` (a pre-claim
   * failure expects `queued` at the queued attempt, a result the in-flight states of its attempt):
   * a writer that lost a race, on any node, changes nothing.
   */
  finish(
    id: string,
    fence: DispatchFence,
    state: 'executed' | 'failed',
    outcome: Record<string, unknown>,
    at: string,
  ): Promise<boolean>;
  /**
   * Replaces a recorded `outcome_unknown` of `attempt` with the real outcome a runner reported
   * later (its journal). False when the row is not (or no longer) that unknown outcome.
   */
  resolveUnknown(
    id: string,
    attempt: number,
    state: 'executed' | 'failed',
    outcome: Record<string, unknown>,
    at: string,
  ): Promise<boolean>;
  /**
   * Remembers that the runner's report of `attempt` was recorded (as a late result): true for the
   * first call per dispatch and attempt, false for every repeat, so one report is one event.
   */
  noteReport(id: string, attempt: number, at: string): Promise<boolean>;
}

/** What a settling write expects to find: the states it may settle from, and the attempt. */
export interface DispatchFence {
  attempt: number;
  from: readonly DispatchState[];
}

/** The code of an outcome the gateway could not know: a later report may replace it (resolveUnknown). */
export const OUTCOME_UNKNOWN = 'outcome_unknown';

export type TurnState = 'awaiting_approval' | 'settled' | 'lost';

/** An agent's turn suspended on a pending action (spec "What happens to the agent..."). */
export interface AgentTurn {
  actionId: string;
  projectId: string;
  agentId: string;
  taskId: string | null;
  state: TurnState;
  createdAt: string;
  updatedAt: string;
}

export interface TurnRepository {
  suspend(turn: Omit<AgentTurn, 'state' | 'updatedAt'>): Promise<void>;
  get(actionId: string): Promise<AgentTurn | null>;
  /** awaiting_approval -> `to`; false when the turn was not waiting. */
  end(actionId: string, to: 'settled' | 'lost', at: string): Promise<boolean>;
  listAwaiting(limit: number): Promise<AgentTurn[]>;
}

export interface Task {
  id: string;
  projectId: string;
  title: string;
  status: TaskStatus;
  prNumber: number | null;
  blockedReason: string | null;
  blockedSource: string | null;
  updatedAt: string;
}

export interface RunnerTokenGrant {
  tokenId: string;
  projectId: string;
  /** Shown once; only its sha256 is stored. */
  token: string;
}

export interface ProjectRepository {
  insert(project: Project): Promise<void>;
  get(id: string): Promise<Project | null>;
  /** Oldest first, at most `limit` (the console's project list; admin sees all). */
  list(limit: number): Promise<Project[]>;
  markExecutionActivated(id: string, at: string): Promise<void>;
  markWorkspaceVerified(id: string, at: string): Promise<void>;
  /**
   * Every project's mode and root, read under a lock held until the transaction commits
   * (Postgres: an advisory lock; SQLite: units of work run one at a time), so two creations
   * cannot both see the other's root as free.
   */
  lockedRoots(): Promise<ProjectRootRow[]>;
  setSandboxRequired(id: string, required: boolean): Promise<void>;
}

export interface MemberRepository {
  upsert(member: Member): Promise<void>;
  get(projectId: string, memberId: string): Promise<Member | null>;
  list(projectId: string): Promise<Member[]>;
  /** Every membership of one member id, across projects (the console: "my projects"). */
  listByMember(memberId: string, limit: number): Promise<Member[]>;
}

export interface AgentAutonomyRepository {
  set(rule: AutonomyRule): Promise<void>;
  get(projectId: string, agentId: string, actionType: ActionType | '*'): Promise<AutonomyRule | null>;
  /** Specific rule and wildcard in one query; the specific one wins; origin says which (RN-603). */
  resolve(projectId: string, agentId: string, actionType: ActionType): Promise<ResolvedAutonomy | null>;
  list(projectId: string): Promise<AutonomyRule[]>;
}

export interface ActionListFilter {
  status?: ActionStatus;
  limit: number;
}

export interface ActionRepository {
  insert(action: NewProposedAction): Promise<void>;
  get(id: string): Promise<ProposedAction | null>;
  list(projectId: string, filter: ActionListFilter): Promise<ProposedAction[]>;
  /** Pending actions of every project, counted by action type (the pending-approvals gauge). */
  countPendingByType(): Promise<Array<{ actionType: string; count: number }>>;
  /** `UPDATE ... WHERE status = 'pending'`: true only for the one caller that moved it. */
  decideIfPending(
    id: string,
    to: 'approved' | 'denied',
    decidedBy: string,
    at: string,
    denialReason: string | null,
  ): Promise<boolean>;
  /** Is a git_merge for this PR live (holds the merge key)? */
  liveMergeExists(mergeKey: string): Promise<boolean>;
  /** A rejected or failed proposal no longer blocks a retry. */
  releaseMergeKey(actionId: string): Promise<void>;
}

export interface EventRepository {
  /**
   * Appends to the project's log. Inside a transaction the event becomes visible at COMMIT, with an
   * id greater than every id of the project already visible (readers never skip one).
   */
  append(event: NewSessionEvent): Promise<void>;
  listAfter(projectId: string, after: number, limit: number): Promise<SessionEvent[]>;
  count(projectId: string, type: string): Promise<number>;
}

export interface ContainerRepository {
  get(projectId: string): Promise<ContainerRecord | null>;
  setState(projectId: string, state: ContainerLifecycle, containerId: string | null, at: string): Promise<void>;
  list(): Promise<ContainerRecord[]>;
}

export interface HandoffRepository {
  /** Written in the same transaction as the approval or auto-approval; status `queued`. */
  enqueue(handoff: Omit<Handoff, 'outcome' | 'updatedAt' | 'status'>): Promise<void>;
  getByAction(actionId: string): Promise<Handoff | null>;
  listQueued(limit: number): Promise<Handoff[]>;
  setStatus(
    actionId: string,
    status: HandoffStatus,
    outcome: Record<string, unknown> | null,
    at: string,
  ): Promise<void>;
}

export interface MergeRepository {
  isMerged(projectId: string, prNumber: number): Promise<boolean>;
  /** True when this call recorded it (first merge of that PR). */
  recordMerged(projectId: string, prNumber: number, actionId: string, at: string): Promise<boolean>;
}

export interface TaskRepository {
  insert(task: Omit<Task, 'blockedReason' | 'blockedSource'>): Promise<void>;
  get(id: string): Promise<Task | null>;
  findByPr(projectId: string, prNumber: number): Promise<Task | null>;
  /** Conditional: false when the task already had that status. */
  transition(id: string, to: TaskStatus, at: string, blocked?: { reason: string; source: string }): Promise<boolean>;
  listBlocked(projectId: string): Promise<Task[]>;
}

export interface RunnerTokenRepository {
  create(projectId: string): Promise<RunnerTokenGrant>;
  verify(token: string): Promise<{ projectId: string; tokenId: string } | null>;
  /** True when a live token was revoked. */
  revoke(tokenId: string): Promise<boolean>;
  /** Project of a token (revoked or not), for scoped revocation. */
  projectOf(tokenId: string): Promise<string | null>;
}

/** Kinds of credential kept in the store: every kind (hashes only). */
export type StoredCredentialKind = 'admin' | 'agent' | 'human' | 'runner' | 'service' | 'executor';

/**
 * A credential as listed and checked: never its secret, never its hash. `subject` is the agent id
 * (agent), the member id (human), the name (service, executor, admin); null for runner tokens.
 */
export interface CredentialRecord {
  id: string;
  kind: StoredCredentialKind;
  projectId: string | null;
  subject: string | null;
  label: string | null;
  createdBy: string | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface CredentialFilter {
  kind?: StoredCredentialKind;
  projectId?: string;
  subject?: string;
  includeRevoked?: boolean;
  limit: number;
}

/**
 * Agent, human and service credentials (table `credentials`) and the runner tokens (table
 * `runner_tokens`, whose wire format and verification stay as they were) under one view.
 */
export interface CredentialRepository {
  insert(record: CredentialRecord & { tokenHash: string }): Promise<void>;
  /**
   * Inserts unless a credential with this id or this hash exists; true when it inserted. Several
   * nodes starting at once register BRABO_ADMIN_TOKEN and bootstrap the first admin through it.
   */
  insertIfAbsent(record: CredentialRecord & { tokenHash: string }): Promise<boolean>;
  /**
   * Inside a transaction: held until commit, so admin bootstraps and admin revocations on every
   * node of a shared store run one at a time (the last live admin credential is never revoked).
   */
  lockAdminCredentials(): Promise<void>;
  /** Any credential (runner tokens included) whose secret hashes to `tokenHash`, revoked or not. */
  findByHash(tokenHash: string): Promise<CredentialRecord | null>;
  get(id: string): Promise<CredentialRecord | null>;
  list(filter: CredentialFilter): Promise<CredentialRecord[]>;
  /** True when a live credential was revoked by this call. */
  revoke(id: string, at: string): Promise<boolean>;
  /** Records a use (callers throttle it: it is a write). */
  touch(id: string, at: string): Promise<void>;
}

export interface Repositories {
  projects: ProjectRepository;
  members: MemberRepository;
  autonomy: AgentAutonomyRepository;
  actions: ActionRepository;
  events: EventRepository;
  containers: ContainerRepository;
  handoffs: HandoffRepository;
  dispatches: DispatchRepository;
  turns: TurnRepository;
  merges: MergeRepository;
  tasks: TaskRepository;
  runnerTokens: RunnerTokenRepository;
  credentials: CredentialRepository;
}

/**
 * `read` answers from committed data and never writes. Every write goes through `transaction`,
 * which is serialized and durable when it resolves.
 */
export interface Store {
  read: Repositories;
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
  /** The gateway's view: verify on committed data, create/revoke in their own transaction. */
  runnerTokens: RunnerTokenRepository;
  close(): Promise<void>;
}
