// agent_autonomy through the API (maintainer): specific rules and the `*` wildcard ("auto mode").
// "manual" is the card's toggle: it rewrites the rule as require_approval (RN-153).
import type { ActionType, Policy } from '../policy/index.ts';
import type { AutonomyRule, Repositories } from '../store/types.ts';
import { requireProject, requireRole } from './access.ts';
import { type ActionDeps, nowIso } from './deps.ts';
import { ActionError } from './errors.ts';
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
    await requireAgentMember(tx, input.projectId, input.agentId);
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

/**
 * agent_autonomy is what an agent may do on its own: a rule for someone who is not a member, or
 * for a human (whose proposals are their own clicks), would be a rule that governs nobody, or a
 * person's proposals by a setting meant for agents. Refused by name; nothing is written.
 */
async function requireAgentMember(tx: Repositories, projectId: string, agentId: string): Promise<void> {
  const member = await tx.members.get(projectId, agentId);
  if (!member)
    throw new ActionError(
      'invalid',
      'autonomy_agent_not_member',
      `${agentId} is not a member of project ${projectId}: agent autonomy is set for agent members only; add the agent first (PUT /api/projects/${projectId}/members/${agentId} with {"kind": "agent", "role": "developer"}). Nothing was written.`,
      { agentId },
    );
  if (member.kind !== 'agent')
    throw new ActionError(
      'invalid',
      'autonomy_agent_is_human',
      `${agentId} is a ${member.kind} member of project ${projectId}: agent autonomy is set for agents only; a person's proposals follow permissions.json. Nothing was written.`,
      { agentId, kind: member.kind },
    );
}

export async function listAgentAutonomy(deps: ActionDeps, projectId: string): Promise<AutonomyRule[]> {
  await requireProject(deps.store.read, projectId);
  return deps.store.read.autonomy.list(projectId);
}
