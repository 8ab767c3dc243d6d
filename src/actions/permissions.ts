// Reading and replacing a project's permissions.json through the API (maintainer to write).
import type { Permissions } from '../policy/index.ts';
import { type PermissionsProblem, PermissionsWriteError } from '../store/permissions-file.ts';
import { requireProject, requireRole } from './access.ts';
import { type ActionDeps, nowIso } from './deps.ts';
import { ActionError } from './errors.ts';
import { EVENT } from './events.ts';
import { permissionsFolder } from './project-root.ts';

export interface PermissionsView {
  permissions: Permissions;
  /** The file exists but is invalid: what decisions use is `permissions` (salvaged deny/ask). */
  broken: boolean;
  problem: PermissionsProblem | null;
  exists: boolean;
}

export async function getPermissions(deps: ActionDeps, projectId: string): Promise<PermissionsView> {
  const project = await requireProject(deps.store.read, projectId);
  const snapshot = await deps.permissionsFile.read(permissionsFolder(project, deps.roots));
  return {
    permissions: snapshot.permissions,
    broken: snapshot.broken,
    problem: snapshot.problem,
    exists: snapshot.exists,
  };
}

export async function putPermissions(
  deps: ActionDeps,
  projectId: string,
  userId: string,
  raw: unknown,
): Promise<Permissions> {
  const project = await requireProject(deps.store.read, projectId);
  await requireRole(deps.store.read, project.id, userId, 'maintainer', 'editing permissions.json');
  const root = permissionsFolder(project, deps.roots);
  let written: Permissions;
  try {
    written = await deps.permissionsFile.replace(root, raw);
  } catch (error) {
    throw asActionError(error);
  }
  await deps.store.transaction(async (tx) => {
    await tx.events.append({
      projectId,
      type: EVENT.permissionsReplaced,
      actorKind: 'user',
      actorId: userId,
      actionId: null,
      payload: { allow: written.allow.length, deny: written.deny.length, ask: written.ask.length },
      createdAt: nowIso(deps),
    });
  });
  return written;
}

export function asActionError(error: unknown): unknown {
  if (!(error instanceof PermissionsWriteError)) return error;
  const kind =
    error.code === 'permissions_write_failed'
      ? 'unavailable'
      : error.code === 'project_folder_missing'
        ? 'conflict'
        : 'invalid';
  return new ActionError(kind, error.code, error.message, error.issues ? { issues: error.issues } : undefined);
}
