// Where a project's scope root is, derived anew every time (a tampered row never widens it):
// container -> PROJECT_WORKSPACES_ROOT/<workspace_dir_name>; mounted -> BRABO_PROJECTS_BASE/<segment>;
// runner -> the stored absolute root, re-validated lexically (RN-170).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { scopeRootLabel, validateLocalRoot } from '../policy/index.ts';
import type { Project } from '../store/types.ts';
import type { ProjectRoots } from './deps.ts';
import { ActionError } from './errors.ts';
import { checkRealRoot } from './root-checks.ts';

export interface ScopeRoot {
  /** Absolute host path decide() compares against. */
  root: string;
  /** `mode:relative-id` for events (RN-609); never absolute. */
  label: string;
}

export function isSafeSegment(segment: string): boolean {
  if (segment.length === 0 || segment.length > 255) return false;
  // Control characters (NUL, newline...) make a path the filesystem refuses or a log line lie.
  for (let i = 0; i < segment.length; i++) {
    const code = segment.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return segment.split('/').every((part) => part.length > 0 && part !== '.' && part !== '..');
}

export function deriveScopeRoot(project: Project, roots: ProjectRoots): ScopeRoot {
  const label = scopeRootLabel(project.executionMode, project.workspaceDirName);
  if (project.executionMode !== 'runner' && !isSafeSegment(project.workspaceDirName)) {
    throw invalidRoot(
      project,
      `workspace_dir_name ${JSON.stringify(project.workspaceDirName)} is not a plain relative folder name`,
    );
  }
  if (project.executionMode === 'container')
    return { root: join(roots.projectWorkspacesRoot, project.workspaceDirName), label };
  if (project.executionMode === 'mounted') return { root: join(roots.projectsBase, project.workspaceDirName), label };
  const checked = validateLocalRoot(project.root, { gatewayCheckout: roots.gatewayCheckout });
  if (!checked.ok) throw invalidRoot(project, checked.message);
  // Again on the real path, where it exists here: a folder swapped for a symlink to / after
  // creation never becomes a scope either.
  const real = checkRealRoot(checked.root, roots.gatewayCheckout);
  if (!real.ok) throw invalidRoot(project, real.message);
  return { root: checked.root, label };
}

/**
 * The folder whose permissions.json governs the project: the scope root for container/mounted
 * projects (the file lives in the workspace); for runner projects a gateway-side folder, because
 * their root is a path on the user's machine, not on this disk.
 */
export function permissionsFolder(
  project: Project,
  roots: ProjectRoots,
  scope: ScopeRoot = deriveScopeRoot(project, roots),
): string {
  if (project.executionMode !== 'runner') return scope.root;
  if (!roots.runnerProjectsDir) {
    throw new ActionError(
      'unavailable',
      'runner_permissions_unconfigured',
      "this gateway has no folder for runner projects' permissions.json (runnerProjectsDir); configure the data dir",
    );
  }
  if (!isSafeSegment(project.workspaceDirName) || project.workspaceDirName.includes('/'))
    throw invalidRoot(project, 'workspace_dir_name is not a plain folder name');
  const folder = join(roots.runnerProjectsDir, project.workspaceDirName);
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new ActionError(
      'unavailable',
      'runner_permissions_unavailable',
      `could not create ${folder} for the project's permissions.json (${(error as NodeJS.ErrnoException).code ?? String(error)}); check that the data dir is writable by the gateway's user`,
    );
  }
  return folder;
}

const invalidRoot = (project: Project, why: string): ActionError =>
  new ActionError(
    'conflict',
    'project_root_invalid',
    `project ${project.id} has an unusable root (${why}); nothing is decided for it until the row is fixed`,
  );
