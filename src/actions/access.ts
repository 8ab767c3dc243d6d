// Membership and role checks shared by the use cases.
import { roleAtLeast } from '../policy/index.ts';
import type { Role } from '../policy/index.ts';
import type { Member, Project, Repositories } from '../store/types.ts';
import { ActionError, notFound } from './errors.ts';

export async function requireProject(repos: Repositories, projectId: string): Promise<Project> {
  const project = await repos.projects.get(projectId);
  if (!project) throw notFound('project', projectId);
  return project;
}

export async function requireMember(repos: Repositories, projectId: string, memberId: string): Promise<Member> {
  const member = await repos.members.get(projectId, memberId);
  if (!member) {
    throw new ActionError(
      'forbidden',
      'not_a_member',
      `${memberId} is not a member of project ${projectId}; add them with PUT /api/projects/${projectId}/members/${memberId}`,
    );
  }
  return member;
}

/** A human member: agents propose, they never decide (approve, deny, grant, configure). */
export async function requireHuman(
  repos: Repositories,
  projectId: string,
  memberId: string,
  doing: string,
): Promise<Member> {
  const member = await requireMember(repos, projectId, memberId);
  if (member.kind !== 'human') {
    throw new ActionError(
      'forbidden',
      'agent_cannot_decide',
      `${doing} is a human decision; ${memberId} is an agent of project ${projectId}`,
      { kind: member.kind },
    );
  }
  return member;
}

/** A human member at or above `minimum`: every decision and every change to what agents may do. */
export async function requireRole(
  repos: Repositories,
  projectId: string,
  memberId: string,
  minimum: Role,
  doing: string,
): Promise<Member> {
  const member = await requireHuman(repos, projectId, memberId, doing);
  if (!roleAtLeast(member.role, minimum)) {
    throw new ActionError(
      'forbidden',
      'role_below_minimum',
      `${doing} needs the role ${minimum} or above; ${memberId} is ${member.role}`,
      {
        required: minimum,
        role: member.role,
      },
    );
  }
  return member;
}
