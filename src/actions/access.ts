// Membership and role checks shared by the use cases.
import { roleAtLeast } from '../policy/index.ts';
import type { Role } from '../policy/types.ts';
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
    throw new ActionError('forbidden', 'not_a_member', `${memberId} is not a member of project ${projectId}; add them with PUT /api/projects/${projectId}/members/${memberId}`);
  }
  return member;
}

export async function requireRole(repos: Repositories, projectId: string, memberId: string, minimum: Role, doing: string): Promise<Member> {
  const member = await requireMember(repos, projectId, memberId);
  if (!roleAtLeast(member.role, minimum)) {
    throw new ActionError('forbidden', 'role_below_minimum', `${doing} needs the role ${minimum} or above; ${memberId} is ${member.role}`, {
      required: minimum,
      role: member.role,
    });
  }
  return member;
}
