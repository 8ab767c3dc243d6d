// What is pre-seeded: activating execution (DEV_TERMINAL_ALLOW_PATTERNS into allow, git_commit
// auto_approve for each dev-<module>, RN-689) and accepting the Infra handoff (container_start
// auto_approve for the infra agent, then the server's own container_start with every field
// omitted, RN-671 / RN-683).
import { DEV_TERMINAL_ALLOW_PATTERNS, mergePatterns } from '../policy/index.ts';
import type { ActionType } from '../policy/index.ts';
import type { Repositories } from '../store/types.ts';
import { requireProject, requireRole } from './access.ts';
import { type ActionDeps, nowIso } from './deps.ts';
import { EVENT } from './events.ts';
import { asActionError } from './permissions.ts';
import { permissionsFolder } from './project-root.ts';
import { propose, type ProposeOutcome } from './propose.ts';

export const INFRA_AGENT_ID = 'infra';

export interface ActivationResult {
  patternsAdded: string[];
  devAgents: string[];
}

export async function activateExecution(
  deps: ActionDeps,
  projectId: string,
  userId: string,
): Promise<ActivationResult> {
  const project = await requireProject(deps.store.read, projectId);
  await requireRole(deps.store.read, projectId, userId, 'maintainer', 'activating execution');
  const root = permissionsFolder(project, deps.roots);
  let patternsAdded: string[] = [];
  try {
    await deps.permissionsFile.update(root, (current) => {
      patternsAdded = DEV_TERMINAL_ALLOW_PATTERNS.filter((p) => !current.allow.includes(p));
      return patternsAdded.length === 0 ? null : mergePatterns(current, 'allow', patternsAdded);
    });
  } catch (error) {
    throw asActionError(error);
  }
  const devAgents = Object.keys(project.moduleMap).map((module) => `dev-${module}`);
  await deps.store.transaction(async (tx) => {
    const at = nowIso(deps);
    for (const agentId of devAgents) {
      if (!(await tx.members.get(projectId, agentId))) {
        await tx.members.upsert({ projectId, memberId: agentId, kind: 'agent', role: 'developer', updatedAt: at });
      }
      await seedAutonomy(tx, projectId, agentId, 'git_commit', userId, at);
    }
    await tx.projects.markExecutionActivated(projectId, at);
    await tx.events.append({
      projectId,
      type: EVENT.executionActivated,
      actorKind: 'user',
      actorId: userId,
      actionId: null,
      payload: { patternsAdded, devAgents },
      createdAt: at,
    });
  });
  return { patternsAdded, devAgents };
}

export async function acceptInfraHandoff(deps: ActionDeps, projectId: string, userId: string): Promise<ProposeOutcome> {
  await deps.store.transaction(async (tx) => {
    await requireProject(tx, projectId);
    await requireRole(tx, projectId, userId, 'maintainer', 'accepting the infra handoff');
    const at = nowIso(deps);
    const infra = await tx.members.get(projectId, INFRA_AGENT_ID);
    if (!infra || infra.role === 'developer') {
      // container_start needs maintainer: the infra agent proposes it on the server's behalf.
      await tx.members.upsert({
        projectId,
        memberId: INFRA_AGENT_ID,
        kind: 'agent',
        role: 'maintainer',
        updatedAt: at,
      });
    }
    await seedAutonomy(tx, projectId, INFRA_AGENT_ID, 'container_start', userId, at);
    await tx.events.append({
      projectId,
      type: EVENT.handoffAccepted,
      actorKind: 'user',
      actorId: userId,
      actionId: null,
      payload: { handoff: 'infra', agentId: INFRA_AGENT_ID },
      createdAt: at,
    });
  });
  return propose(deps, { projectId, proposerId: INFRA_AGENT_ID, actionType: 'container_start', payload: {} });
}

/** Pre-seeds only where nothing is configured: an explicit choice (even deny) is kept. */
async function seedAutonomy(
  tx: Repositories,
  projectId: string,
  agentId: string,
  actionType: ActionType,
  userId: string,
  at: string,
): Promise<void> {
  if (await tx.autonomy.get(projectId, agentId, actionType)) return;
  await tx.autonomy.set({ projectId, agentId, actionType, mode: 'auto_approve', updatedBy: userId, updatedAt: at });
}
