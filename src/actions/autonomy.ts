// agent_autonomy through the API (maintainer): specific rules and the `*` wildcard ("auto mode").
// "manual" is the card's toggle: it rewrites the rule as require_approval (RN-153).
import type { ActionType, Policy } from '../policy/index.ts';
import type { AutonomyRule } from '../store/types.ts';
import { requireProject, requireRole } from './access.ts';
import { type ActionDeps, nowIso } from './deps.ts';
import { EVENT } from './events.ts';

export type AutonomyModeInput = Policy | 'manual';

export interface SetAutonomyInput {
  projectId: string;
  userId: string;
  agentId: string;
  actionType: ActionType | '*';
  mode: AutonomyModeInput;
}

export async function setAgentAutonomy(deps: ActionDeps, input: SetAutonomyInput): Promise<AutonomyRule> {
  return deps.store.transaction(async (tx) => {
    await requireProject(tx, input.projectId);
    await requireRole(tx, input.projectId, input.userId, 'maintainer', 'changing agent autonomy');
    const at = nowIso(deps);
    const rule: AutonomyRule = {
      projectId: input.projectId,
      agentId: input.agentId,
      actionType: input.actionType,
      mode: input.mode === 'manual' ? 'require_approval' : input.mode,
      updatedBy: input.userId,
      updatedAt: at,
    };
    await tx.autonomy.set(rule);
    await tx.events.append({
      projectId: input.projectId,
      type: EVENT.autonomyChanged,
      actorKind: 'user',
      actorId: input.userId,
      actionId: null,
      payload: { agentId: rule.agentId, actionType: rule.actionType, mode: rule.mode },
      createdAt: at,
    });
    return rule;
  });
}

export async function listAgentAutonomy(deps: ActionDeps, projectId: string): Promise<AutonomyRule[]> {
  await requireProject(deps.store.read, projectId);
  return deps.store.read.autonomy.list(projectId);
}
