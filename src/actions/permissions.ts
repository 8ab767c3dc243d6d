// Reading and replacing a project's permissions.json through the API (maintainer to write).
import { describeIssue } from '../policy/index.ts';
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
  /** Entries kept but matching nothing (`GitPush(algo)`), each as one sentence. */
  warnings: string[];
}

/** PUT permissions: what was written, and the entries in it that match nothing. */
export interface PermissionsWritten {
  permissions: Permissions;
  warnings: string[];
}

export async function getPermissions(deps: ActionDeps, projectId: string): Promise<PermissionsView> {
  const project = await requireProject(deps.store.read, projectId);
  const snapshot = await deps.permissionsFile.read(permissionsFolder(project, deps.roots));
  return {
    permissions: snapshot.permissions,
    broken: snapshot.broken,
    problem: snapshot.problem,
    exists: snapshot.exists,
    warnings: snapshot.warnings.map(describeIssue),
  };
}

export async function putPermissions(
  deps: ActionDeps,
  projectId: string,
  userId: string,
  raw: unknown,
): Promise<PermissionsWritten> {
  const project = await requireProject(deps.store.read, projectId);
  await requireRole(deps.store.read, project.id, userId, 'maintainer', 'editing permissions.json');
  const root = permissionsFolder(project, deps.roots);
  let written: Permissions;
  let warnings: string[];
  try {
    const replaced = await deps.permissionsFile.replace(root, raw);
    written = replaced.permissions;
    warnings = replaced.warnings.map(describeIssue);
  } catch (error) {
    throw asActionError(error);
  }
  // Spec "Pattern format": `GitPush(algo)` matches nothing. Kept as written, and said so.
  if (warnings.length > 0) deps.logger.warn({ projectId, warnings }, 'permissions.json has entries that match nothing');
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
  return { permissions: written, warnings };
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
