// What is pre-seeded when execution is activated: DEV_TERMINAL_ALLOW_PATTERNS into allow and
// git_commit auto_approve for each dev-<module> (RN-689). The Infra handoff's pre-seed is in
// infra-handoff.ts.
import { DEV_TERMINAL_ALLOW_PATTERNS, mergePatterns } from '../policy/index.ts';
import type { ActionType } from '../policy/index.ts';
import type { Repositories } from '../store/types.ts';
import { requireProject, requireRole } from './access.ts';
import { type ActionDeps, nowIso } from './deps.ts';
import { EVENT } from './events.ts';
import { asActionError } from './permissions.ts';
import { permissionsFolder } from './project-root.ts';

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

/** Pre-seeds only where nothing is configured: an explicit choice (even deny) is kept. */
export async function seedAutonomy(
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
