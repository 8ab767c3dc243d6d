// ExecuteContainerStart's preparation, before anything is claimed or any lifecycle transition:
// in mounted mode the folder is materialized under BRABO_PROJECTS_BASE and proven writable
// (RN-501); then the resources are resolved from the current module_map (RN-683). Either failure
// is a named `failed` and leaves project_containers untouched.
import type { Project } from '../store/types.ts';
import { materializeWorkspace } from './materialize.ts';
import { giveToContainerUser } from './workspace-path.ts';
import { failedOutcome, type FailedOutcome } from './outcome.ts';
import { type ModuleMap, type ResourceLimits, type Resources, resolveResources } from './resources.ts';

export type PreparedStart =
  { ok: true; resources: Resources; verifiedAt: string | null } | { ok: false; outcome: FailedOutcome };

export async function prepareContainerStart(
  project: Project,
  requested: Record<string, unknown>,
  context: {
    projectsBase: string;
    scopeRoot: string;
    limits: ResourceLimits;
    now: () => Date;
    containerUser?: string | undefined;
  },
): Promise<PreparedStart> {
  let verifiedAt: string | null = null;
  if (project.executionMode === 'mounted') {
    const made = await materializeWorkspace({
      base: context.projectsBase,
      folder: context.scopeRoot,
      now: context.now,
      imageUser: context.containerUser ?? '1000:1000',
    });
    if (!made.ok)
      return {
        ok: false,
        outcome: failedOutcome(made.code, made.message, {
          ...made.detail,
          variable: 'BRABO_PROJECTS_BASE',
          base: context.projectsBase,
        }),
      };
    // The container edits this folder as BRABO_CONTAINER_USER (issue 11.5); the broker's write
    // probe then proves it from inside the container.
    await giveToContainerUser(context.scopeRoot, context.containerUser).catch(() => undefined);
    verifiedAt = made.verifiedAt.toISOString();
  }
  const resolved = resolveResources(
    { cpus: requested.cpus, memoryMb: requested.memoryMb, pids: requested.pids },
    project.moduleMap as ModuleMap,
    context.limits,
  );
  if (!resolved.ok)
    return { ok: false, outcome: failedOutcome(resolved.code, resolved.message, { minimum: resolved.minimum }) };
  return { ok: true, resources: resolved.resources, verifiedAt };
}
