// Accepting the Infra handoff (RN-671 / RN-683): container_start is pre-seeded auto_approve for the
// Infra agent, and the Infra agent proposes the server's start with every field omitted. IAM
// still applies before the pre-seed: the Infra agent must already be an agent member at or above
// container_start's minimum role (nothing here creates it or changes its role or kind), and the
// execution precondition (409 no_broker) is checked before anything is written. The pre-seed, the
// `handoff.accepted` event and the proposal are one transaction: all of them land, or none.
import { MIN_ROLE, roleAtLeast } from '../policy/index.ts';
import type { ResolvedAutonomy } from '../policy/index.ts';
import type { Member, Project } from '../store/types.ts';
import { requireProject, requireRole } from './access.ts';
import type { ActionDeps } from './deps.ts';
import { ActionError } from './errors.ts';
import { EVENT } from './events.ts';
import { seedAutonomy } from './presets.ts';
import { propose, refuseIfNotExecutable, type ProposeOutcome } from './propose.ts';

export const INFRA_AGENT_ID = 'infra';

const START = 'container_start' as const;

export async function acceptInfraHandoff(deps: ActionDeps, projectId: string, userId: string): Promise<ProposeOutcome> {
  const { read } = deps.store;
  const project = await requireProject(read, projectId);
  await requireRole(read, projectId, userId, 'maintainer', 'accepting the infra handoff');
  requireInfraAgent(project, await read.members.get(projectId, INFRA_AGENT_ID));
  refuseIfNotExecutable(deps, project, START);
  // The autonomy the proposal is decided with is the one the pre-seed leaves: an explicit rule for
  // container_start (even deny) is kept, otherwise the seeded auto_approve applies.
  const explicit = await read.autonomy.get(projectId, INFRA_AGENT_ID, START);
  const autonomy: ResolvedAutonomy = explicit
    ? { mode: explicit.mode, origin: 'especifica' }
    : { mode: 'auto_approve', origin: 'especifica' };
  return propose(
    deps,
    { projectId, proposerId: INFRA_AGENT_ID, actionType: START, payload: {} },
    {
      autonomy,
      within: async (tx, at) => {
        // Re-read inside the transaction: a member changed since the check above fails closed.
        requireInfraAgent(project, await tx.members.get(projectId, INFRA_AGENT_ID));
        await seedAutonomy(tx, projectId, INFRA_AGENT_ID, START, userId, at);
        await tx.events.append({
          projectId,
          type: EVENT.handoffAccepted,
          actorKind: 'user',
          actorId: userId,
          actionId: null,
          payload: { handoff: 'infra', agentId: INFRA_AGENT_ID },
          createdAt: at,
        });
      },
    },
  );
}

/** RN-671: the Infra agent proposes the start, so it must exist, be an agent, and hold the minimum. */
function requireInfraAgent(project: Project, infra: Member | null | undefined): void {
  const minimum = MIN_ROLE[START];
  const add = `PUT /api/projects/${project.id}/members/${INFRA_AGENT_ID} with {"kind": "agent", "role": "${minimum}"}`;
  if (!infra)
    throw new ActionError(
      'conflict',
      'infra_agent_missing',
      `The Infra handoff is proposed by the agent "${INFRA_AGENT_ID}", which is not a member of project ${project.id}; add it (${add}) and accept again. Nothing was written.`,
    );
  if (infra.kind !== 'agent')
    throw new ActionError(
      'conflict',
      'infra_agent_not_an_agent',
      `The member "${INFRA_AGENT_ID}" of project ${project.id} is a ${infra.kind}, not the Infra agent; the handoff never changes a member's kind. Nothing was written.`,
      { kind: infra.kind },
    );
  if (!roleAtLeast(infra.role, minimum))
    throw new ActionError(
      'conflict',
      'infra_agent_below_minimum',
      `The Infra agent of project ${project.id} is ${infra.role}, below ${minimum}, the minimum to propose ${START} (RN-671); a maintainer raises its role (${add}) and accepts again. Nothing was written.`,
      { role: infra.role, required: minimum },
    );
}
