// ProposeAction: IAM role of the proposer, the container floor, autonomy and permissions.json go
// into decide(); the proposal and its proposed_action.created event are stored in one
// transaction; an auto-approved action is handed to execution before the call returns.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { decide, describeIssue, factsOf } from '../policy/index.ts';
import type { ActionType, Decision, ResolvedAutonomy } from '../policy/index.ts';
import type { ActionStatus, Member, MemberKind, Project, ProposedAction, Repositories } from '../store/types.ts';
import { requireMember, requireProject } from './access.ts';
import { type ActionDeps, nowIso } from './deps.ts';
import { actorKindOf, EVENT } from './events.ts';
import { ActionError } from './errors.ts';
import { enqueueHandoff } from './handoff.ts';
import { guardNewMerge, mergeKeyOf, prNumberOf } from './merge.ts';
import { deriveScopeRoot, permissionsFolder } from './project-root.ts';

export interface ProposeInput {
  projectId: string;
  /** The agent (or, for container stop/remove, the human) proposing. Must be a member. */
  proposerId: string;
  actionType: ActionType;
  payload: Record<string, unknown>;
}

export interface ProposeOutcome {
  action: ProposedAction;
  decision: Decision;
  /** Set when permissions.json on disk is broken (decisions then never auto-approve). */
  permissionsProblem: { code: string; message: string } | null;
}

/**
 * For a proposal that ships with a write of its own (the Infra handoff's pre-seed, RN-671):
 * `within` runs in the proposal's transaction, before the insert, so both land or neither does;
 * `autonomy` is what the agent's autonomy will be once `within` has run, decided on up front.
 */
export interface ProposeAlongside {
  autonomy: ResolvedAutonomy | null;
  within: (tx: Repositories, at: string) => Promise<void>;
}

const STATUS_OF: Record<Decision['policy'], ActionStatus> = {
  auto_approve: 'auto_approved',
  require_approval: 'pending',
  deny: 'denied',
};

/** The execution side's precondition (409, nothing written) for an action that could never run. */
export function refuseIfNotExecutable(deps: ActionDeps, project: Project, actionType: ActionType): void {
  const refusal = deps.execution.precondition?.(project, actionType);
  if (refusal) throw new ActionError('conflict', refusal.code, refusal.message);
}

/**
 * RN-495: container_stop and container_remove are "always proposed by a human, never by an
 * agent". The table of action types marks them `human_only`; every route that proposes comes
 * through here, so the generic actions route and the socket refuse them as the containers page does.
 */
function refuseAgentForHumanOnly(project: Project, proposer: Member, actionType: ActionType): void {
  if (proposer.kind === 'human' || factsOf(actionType).proposer !== 'human_only') return;
  throw new ActionError(
    'forbidden',
    'agent_cannot_propose',
    `${actionType} is always proposed by a human, never by an agent (RN-495); ${proposer.memberId} is an agent of project ${project.id}. A person proposes it from the containers page (POST /api/containers/${project.id}/${actionType === 'container_stop' ? 'stop' : 'remove'} with {"userId": "<member>"}).`,
    { actionType, kind: proposer.kind },
  );
}

export async function propose(
  deps: ActionDeps,
  input: ProposeInput,
  alongside?: ProposeAlongside,
): Promise<ProposeOutcome> {
  const { read } = deps.store;
  // The reads go out together (on Postgres each is a round trip, and on a loaded machine round
  // trips are the latency); the answers are judged in order, so an unknown project is still
  // not_found before anything about its members.
  const projectRead = requireProject(read, input.projectId);
  const proposerRead = requireMember(read, input.projectId, input.proposerId);
  const containerRead = read.containers.get(input.projectId);
  const autonomyRead = read.autonomy.resolve(input.projectId, input.proposerId, input.actionType);
  for (const pending of [proposerRead, containerRead, autonomyRead]) pending.catch(() => {}); // awaited below, or moot
  const project = await projectRead;
  const proposer = await proposerRead;
  refuseAgentForHumanOnly(project, proposer, input.actionType);
  const prNumber = input.actionType === 'git_merge' ? prNumberOf(input.payload) : null;
  const scope = deriveScopeRoot(project, deps.roots);

  const [container, resolved, file] = await Promise.all([
    containerRead,
    autonomyRead,
    deps.permissionsFile.read(permissionsFolder(project, deps.roots, scope)),
  ]);
  const autonomy = alongside ? alongside.autonomy : resolved;
  if (file.warnings.length > 0) {
    deps.logger.warn(
      { projectId: project.id, warnings: file.warnings.map(describeIssue) },
      'permissions.json has entries that match nothing',
    );
  }
  if (file.broken) {
    deps.logger.warn(
      { projectId: project.id, code: file.problem?.code, problem: file.problem?.message },
      'permissions.json is broken; deciding with its deny/ask only, nothing auto-approved',
    );
  }
  const started = performance.now();
  const decision = decide({
    actionType: input.actionType,
    payload: input.payload,
    role: proposer.role,
    autonomy,
    permissions: file.permissions,
    scopeRoot: scope.root,
    containerRunning: project.executionMode === 'container' && container?.state === 'running',
    permissionsBroken: file.broken,
  });
  const decideSeconds = (performance.now() - started) / 1000;

  const status = STATUS_OF[decision.policy];
  if (status !== 'denied') refuseIfNotExecutable(deps, project, input.actionType);
  const at = nowIso(deps);
  const action: ProposedAction = {
    id: randomUUID(),
    projectId: project.id,
    proposerId: proposer.memberId,
    proposerKind: proposer.kind,
    actionType: input.actionType,
    payload: input.payload,
    status,
    reasonCode: decision.reasonCode,
    reason: decision.reason,
    scopeRoot: input.actionType === 'terminal' ? scope.label : null,
    decidedBy: null,
    decidedAt: status === 'pending' ? null : at,
    denialReason: null,
    createdAt: at,
  };

  await deps.store.transaction(async (tx) => {
    await alongside?.within(tx, at);
    if (prNumber !== null) await guardNewMerge(tx, project.id, prNumber);
    await tx.actions.insert({
      ...action,
      liveMergeKey: prNumber !== null && status !== 'denied' ? mergeKeyOf(project.id, prNumber) : null,
    });
    await tx.events.append({
      projectId: project.id,
      type: EVENT.actionCreated,
      actorKind: actorKindOf(proposer.kind as MemberKind),
      actorId: proposer.memberId,
      actionId: action.id,
      payload: {
        actionType: action.actionType,
        status,
        reason: decision.reason,
        reasonCode: decision.reasonCode,
        ...(action.scopeRoot ? { scopeRoot: action.scopeRoot } : {}),
      },
      createdAt: at,
    });
    if (status === 'auto_approved') await enqueueHandoff(tx, project, action, at);
    await deps.proposalHook?.withinProposal(tx, action, at);
  });

  deps.observer.proposed({ actionType: action.actionType, status, reasonCode: decision.reasonCode, decideSeconds });
  if (status !== 'pending')
    deps.observer.decided({ by: 'policy', outcome: status === 'denied' ? 'denied' : 'approved' });
  if (status === 'auto_approved') deps.execution.notify(action.id);
  return {
    action,
    decision,
    permissionsProblem: file.problem ? { code: file.problem.code, message: file.problem.message } : null,
  };
}
