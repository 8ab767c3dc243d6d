// What every use case is built with (the composition root fills it in).
import type { Logger } from '../logger.ts';
import type { PermissionsFile } from '../store/permissions-file.ts';
import type { Store } from '../store/types.ts';
import type { ActionExecutionPort, ActionObserver, ProposalHook } from './ports.ts';

export interface ProjectRoots {
  /** PROJECT_WORKSPACES_ROOT */
  projectWorkspacesRoot: string;
  /** BRABO_PROJECTS_BASE */
  projectsBase: string;
  /** The gateway's own checkout (RN-170 overlap check). */
  gatewayCheckout: string;
  /** BRABO_CONTAINER_USER: container and mounted project folders are created owned by it (issue 11.5). */
  containerUser?: string;
  /**
   * `<dataDir>/runner-projects`: a runner project's root is on the user's machine, so its
   * permissions.json is kept gateway-side at `<runnerProjectsDir>/<workspaceDirName>/`.
   */
  runnerProjectsDir?: string;
}

export interface ActionDeps {
  store: Store;
  permissionsFile: PermissionsFile;
  roots: ProjectRoots;
  execution: ActionExecutionPort;
  observer: ActionObserver;
  logger: Logger;
  now?: () => Date;
  /** Runs inside each proposal's transaction. */
  proposalHook?: ProposalHook;
}

export const nowIso = (deps: ActionDeps): string => (deps.now ? deps.now() : new Date()).toISOString();
