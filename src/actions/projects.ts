// Projects and members. The root and workspace_dir_name are fixed at creation (RN-109, RN-170).
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import { giveToContainerUser } from '../execution/workspace-path.ts';
import { isAbsolute, join, relative } from 'node:path';
import { validateLocalRoot } from '../policy/index.ts';
import { stripTrailingSlashes } from '../policy/index.ts';
import type { Role } from '../policy/index.ts';
import type { ExecutionMode, Member, MemberKind, ModuleMap, Project } from '../store/types.ts';
import { requireProject, requireRole } from './access.ts';
import { type ActionDeps, nowIso } from './deps.ts';
import { ActionError } from './errors.ts';
import { EVENT } from './events.ts';
import { isSafeSegment } from './project-root.ts';
import { checkRealRoot, overlappingProject, realPathOrNull } from './root-checks.ts';

export interface CreateProjectInput {
  name: string;
  executionMode: ExecutionMode;
  root?: string | undefined;
  ownerId: string;
  moduleMap?: ModuleMap | undefined;
  /** Auto-approved commands only go to a runner that sandboxes them (issue 9 B.3). */
  sandboxRequired?: boolean | undefined;
}

/** ASCII, lowercase, dashes; never empty. */
export function slugify(name: string): string {
  let slug = '';
  let dash = false;
  for (const ch of name.normalize('NFKD').toLowerCase()) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
      if (dash && slug.length > 0) slug += '-';
      slug += ch;
      dash = false;
    } else if (ch.charCodeAt(0) < 0x300 || ch.charCodeAt(0) > 0x36f) {
      dash = true; // combining accents vanish, everything else separates
    }
    if (slug.length >= 40) break;
  }
  return slug.length > 0 ? slug : 'project';
}

export async function createProject(deps: ActionDeps, input: CreateProjectInput): Promise<Project> {
  const id = randomUUID();
  const slug = slugify(input.name);
  const generatedDir = `${slug}-${id.slice(0, 8)}`;
  const { root, workspaceDirName, realRoot } = await placeProject(deps, input, generatedDir);
  const at = nowIso(deps);
  const project: Project = {
    id,
    name: input.name,
    slug,
    executionMode: input.executionMode,
    root,
    workspaceDirName,
    ownerId: input.ownerId,
    moduleMap: input.moduleMap ?? {},
    executionActivatedAt: null,
    createdAt: at,
    sandboxRequired: input.sandboxRequired ?? false,
  };
  await deps.store.transaction(async (tx) => {
    if (project.executionMode !== 'container') {
      // Inside the creating transaction, under the roots lock: two concurrent creations of the
      // same folder cannot both pass (issue 9 A.8). Otherwise one project could rewrite another's
      // permissions.json, or run its agents' commands in the other's tree.
      const clash = overlappingProject(root, realRoot, await tx.projects.lockedRoots());
      if (clash !== null) {
        const how = clash.root === root ? 'is already the root of' : 'overlaps the root of';
        throw new ActionError(
          'conflict',
          'root_overlaps_project',
          `${root} ${how} project ${clash.id} (${clash.root}); two projects may not share a folder or nest one inside the other: choose another folder`,
          { projectId: clash.id },
        );
      }
    }
    await tx.projects.insert(project);
    if (project.sandboxRequired === true) await tx.projects.setSandboxRequired(id, true);
    await tx.members.upsert({ projectId: id, memberId: input.ownerId, kind: 'human', role: 'owner', updatedAt: at });
    await tx.events.append({
      projectId: id,
      type: EVENT.projectCreated,
      actorKind: 'user',
      actorId: input.ownerId,
      actionId: null,
      payload: {
        executionMode: project.executionMode,
        workspaceDirName,
        sandboxRequired: project.sandboxRequired === true,
      },
      createdAt: at,
    });
  });
  return project;
}

async function placeProject(
  deps: ActionDeps,
  input: CreateProjectInput,
  generatedDir: string,
): Promise<{ root: string; workspaceDirName: string; realRoot: string | null }> {
  const { roots } = deps;
  if (input.executionMode === 'container') {
    if (input.root !== undefined)
      throw invalidRoot(
        'root_not_allowed',
        "a container project's root is PROJECT_WORKSPACES_ROOT/<workspace_dir_name>; do not send root",
      );
    const root = join(roots.projectWorkspacesRoot, generatedDir);
    try {
      await mkdir(root, { recursive: true, mode: 0o755 });
      // The container runs as BRABO_CONTAINER_USER: its folder must be its own (issue 11.5).
      await giveToContainerUser(root, roots.containerUser);
    } catch (error) {
      throw new ActionError(
        'unavailable',
        'workspace_create_failed',
        `could not create ${root} (${(error as NodeJS.ErrnoException).code ?? String(error)}); check that PROJECT_WORKSPACES_ROOT=${roots.projectWorkspacesRoot} is writable by the gateway's user`,
      );
    }
    return { root, workspaceDirName: generatedDir, realRoot: root };
  }
  if (input.executionMode === 'mounted') {
    // Only the format and the base are checked; the folder is created by container_start (RN-501).
    const segment =
      input.root === undefined
        ? generatedDir
        : isAbsolute(input.root)
          ? relative(roots.projectsBase, input.root)
          : input.root;
    const clean = stripTrailingSlashes(segment);
    if (!isSafeSegment(clean) || isAbsolute(clean)) {
      throw invalidRoot(
        'root_outside_projects_base',
        `a mounted project's root must be a folder under BRABO_PROJECTS_BASE=${roots.projectsBase} (got ${JSON.stringify(input.root)})`,
      );
    }
    const root = join(roots.projectsBase, clean);
    // The folder may not exist yet (RN-501); when it does, its real path must stay under the base.
    const real = realPathOrNull(root);
    if (real !== null) {
      const base = realPathOrNull(roots.projectsBase) ?? roots.projectsBase;
      if (!real.startsWith(base.endsWith('/') ? base : `${base}/`)) {
        throw invalidRoot(
          'root_outside_projects_base',
          `${root} resolves through a symbolic link to ${real}, outside BRABO_PROJECTS_BASE=${roots.projectsBase}; a mounted project's folder must really be under the base`,
        );
      }
      const checked = checkRealRoot(root, roots.gatewayCheckout);
      if (!checked.ok) throw invalidRoot(checked.code, checked.message);
    }
    return { root, workspaceDirName: clean, realRoot: real };
  }
  if (input.root === undefined)
    throw invalidRoot('root_required', "a runner project needs root: the absolute folder on the user's machine");
  const checked = validateLocalRoot(input.root, { gatewayCheckout: roots.gatewayCheckout });
  if (!checked.ok) throw invalidRoot(checked.code, checked.message);
  const real = checkRealRoot(checked.root, roots.gatewayCheckout);
  if (!real.ok) throw invalidRoot(real.code, real.message);
  const info = await stat(checked.root).catch(() => null);
  if (!info?.isDirectory())
    throw invalidRoot('root_not_found', `${checked.root} does not exist or is not a folder; create it first`);
  try {
    await access(checked.root, constants.W_OK);
  } catch {
    throw invalidRoot(
      'root_not_writable',
      `${checked.root} is not writable by the gateway's user; fix its owner or permissions`,
    );
  }
  return { root: checked.root, workspaceDirName: generatedDir, realRoot: real.real };
}

const invalidRoot = (code: string, message: string): ActionError => new ActionError('invalid', code, message);

export async function getProject(deps: ActionDeps, projectId: string): Promise<Project> {
  return requireProject(deps.store.read, projectId);
}

/**
 * Adds a member or changes its role. A member's kind is fixed when it is added: an agent never
 * becomes a human (humans decide, agents only propose). `actorId` is the human doing it when the
 * caller names one (then an owner of the project); without it the call is the upstream api's own
 * administration and is recorded as the system's.
 */
export async function setMember(
  deps: ActionDeps,
  projectId: string,
  memberId: string,
  role: Role,
  kind?: MemberKind,
  actorId?: string,
): Promise<Member> {
  return deps.store.transaction(async (tx) => {
    await requireProject(tx, projectId);
    if (actorId !== undefined) await requireRole(tx, projectId, actorId, 'owner', 'changing members and roles');
    const existing = await tx.members.get(projectId, memberId);
    if (existing && kind !== undefined && kind !== existing.kind) {
      throw new ActionError(
        'conflict',
        'member_kind_immutable',
        `${memberId} is already a member of project ${projectId} as ${existing.kind}; a member's kind never changes (use another id)`,
        {
          kind: existing.kind,
        },
      );
    }
    const at = nowIso(deps);
    const member: Member = { projectId, memberId, kind: existing?.kind ?? kind ?? 'human', role, updatedAt: at };
    await tx.members.upsert(member);
    await tx.events.append({
      projectId,
      type: EVENT.memberChanged,
      actorKind: actorId === undefined ? 'system' : 'user',
      actorId: actorId ?? null,
      actionId: null,
      payload: { memberId, kind: member.kind, role },
      createdAt: at,
    });
    return member;
  });
}

/**
 * Requires (or stops requiring) a sandbox for the project's auto-approved commands: with it, the
 * dispatcher fails them as `sandbox_required` instead of sending them to a runner that reports no
 * sandbox. `actorId`, when given, must be a human owner; without it the upstream api administers.
 */
export async function setSandboxRequirement(
  deps: ActionDeps,
  projectId: string,
  required: boolean,
  actorId?: string,
): Promise<Project> {
  return deps.store.transaction(async (tx) => {
    const project = await requireProject(tx, projectId);
    if (actorId !== undefined)
      await requireRole(tx, projectId, actorId, 'owner', "changing the project's sandbox requirement");
    if ((project.sandboxRequired ?? false) === required) return project;
    await tx.projects.setSandboxRequired(projectId, required);
    await tx.events.append({
      projectId,
      type: EVENT.sandboxRequirementChanged,
      actorKind: actorId === undefined ? 'system' : 'user',
      actorId: actorId ?? null,
      actionId: null,
      payload: { sandboxRequired: required },
      createdAt: nowIso(deps),
    });
    return { ...project, sandboxRequired: required };
  });
}

export async function listMembers(deps: ActionDeps, projectId: string): Promise<Member[]> {
  await requireProject(deps.store.read, projectId);
  return deps.store.read.members.list(projectId);
}
