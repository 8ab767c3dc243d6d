// What the console shows for an action awaiting a decision: the reason sentence exactly as
// decide() rendered it at proposal time (stored with the action, RN-614), the fragment table
// `brabo check` prints (decide() run again now, against the project's current permissions.json,
// autonomy and container state, like `brabo check` does), and what "Always allow" would write —
// or why it is not offered (teto_do_sempre_permitir types, external effects, privileged...).
import { isModuleDevAgent } from '../actions/approve-always.ts';
import type { ProjectRoots } from '../actions/deps.ts';
import { deriveScopeRoot, permissionsFolder } from '../actions/project-root.ts';
import { decide, explainFragments, patternsForAction, TIPOS_SEM_SEMPRE_PERMITIR } from '../policy/index.ts';
import type { FragmentVerdict, Policy } from '../policy/index.ts';
import type { PermissionsFile } from '../store/permissions-file.ts';
import type { Project, ProposedAction, Store } from '../store/types.ts';

export interface FragmentRow extends FragmentVerdict {
  /** The external effect the fragment has (git push, deploy...), when any. */
  effect: string | null;
}

export type AlwaysAllowPreview =
  | {
      offered: true;
      writes:
        | { kind: 'patterns'; patterns: string[] }
        | { kind: 'autonomy'; agentId: string; actionType: string; mode: 'auto_approve' };
    }
  | { offered: false; reason: string; message: string };

export interface ReviewEntry {
  action: ProposedAction;
  project: { id: string; name: string; executionMode: Project['executionMode'] };
  /** decide() now, for the fragment table (the stored reason is what decided at proposal time). */
  now: { policy: Policy; reasonCode: string; reason: string } | null;
  fragments: FragmentRow[];
  /** Shell constructs the tokenizer could not represent faithfully (never auto-approved). */
  findings: string[];
  alwaysAllow: AlwaysAllowPreview;
}

export interface ReviewDeps {
  store: Pick<Store, 'read'>;
  permissionsFile: PermissionsFile;
  roots: ProjectRoots;
}

export function alwaysAllowPreview(action: ProposedAction, project: Project): AlwaysAllowPreview {
  if (TIPOS_SEM_SEMPRE_PERMITIR.includes(action.actionType)) {
    return {
      offered: false,
      reason: 'teto_do_sempre_permitir',
      message: `${action.actionType} is always decided one instance at a time`,
    };
  }
  const plan = patternsForAction(action.actionType, action.payload);
  if (plan.kind === 'refused') return { offered: false, reason: plan.reason, message: plan.message };
  if (isModuleDevAgent(action.proposerId, project.moduleMap)) {
    return {
      offered: true,
      writes: { kind: 'autonomy', agentId: action.proposerId, actionType: action.actionType, mode: 'auto_approve' },
    };
  }
  return { offered: true, writes: { kind: 'patterns', patterns: plan.patterns } };
}

/**
 * An entry without the fragment table (no decide(), no file read): enough for a viewer to see an
 * action that is no longer pending leave the queue or change state.
 */
export async function briefEntry(deps: ReviewDeps, action: ProposedAction): Promise<ReviewEntry | null> {
  return (await briefEntries(deps, [action]))[0] ?? null;
}

/** briefEntry for many actions, each project read once. */
export async function briefEntries(deps: ReviewDeps, actions: ProposedAction[]): Promise<ReviewEntry[]> {
  const projects = new Map<string, Project | null>();
  const entries: ReviewEntry[] = [];
  for (const action of actions) {
    if (!projects.has(action.projectId))
      projects.set(action.projectId, await deps.store.read.projects.get(action.projectId));
    const project = projects.get(action.projectId);
    if (!project) continue;
    entries.push({
      action,
      project: { id: project.id, name: project.name, executionMode: project.executionMode },
      now: null,
      fragments: [],
      findings: [],
      alwaysAllow: alwaysAllowPreview(action, project),
    });
  }
  return entries;
}

/**
 * Review entries for `actions`, in their order. Per project the permissions file, container and
 * members are read once, so a queue of a thousand actions costs a handful of reads.
 */
export async function reviewEntries(deps: ReviewDeps, actions: ProposedAction[]): Promise<ReviewEntry[]> {
  const contexts = new Map<string, Promise<ProjectContext | null>>();
  const contextOf = (projectId: string): Promise<ProjectContext | null> => {
    let ctx = contexts.get(projectId);
    if (!ctx) contexts.set(projectId, (ctx = loadContext(deps, projectId)));
    return ctx;
  };
  const entries: ReviewEntry[] = [];
  for (const action of actions) {
    const ctx = await contextOf(action.projectId);
    if (!ctx) continue;
    entries.push(await entryOf(deps, ctx, action));
  }
  return entries;
}

interface ProjectContext {
  project: Project;
  scopeRoot: string | null;
  permissions: Awaited<ReturnType<PermissionsFile['read']>> | null;
  containerRunning: boolean;
  /** `<proposer>\0<type>` -> its role and resolved autonomy (a queue repeats the same few). */
  proposers: Map<
    string,
    Promise<
      [Awaited<ReturnType<Store['read']['members']['get']>>, Awaited<ReturnType<Store['read']['autonomy']['resolve']>>]
    >
  >;
}

async function loadContext(deps: ReviewDeps, projectId: string): Promise<ProjectContext | null> {
  const { read } = deps.store;
  const project = await read.projects.get(projectId);
  if (!project) return null;
  let scopeRoot: string | null = null;
  let permissions: ProjectContext['permissions'] = null;
  try {
    const scope = deriveScopeRoot(project, deps.roots);
    scopeRoot = scope.root;
    permissions = await deps.permissionsFile.read(permissionsFolder(project, deps.roots, scope));
  } catch {
    // A root that no longer derives: the table is left out, the stored reason still shows.
  }
  const container = await read.containers.get(projectId);
  return {
    project,
    scopeRoot,
    permissions,
    containerRunning: project.executionMode === 'container' && container?.state === 'running',
    proposers: new Map(),
  };
}

async function entryOf(deps: ReviewDeps, ctx: ProjectContext, action: ProposedAction): Promise<ReviewEntry> {
  const { project } = ctx;
  const base = {
    action,
    project: { id: project.id, name: project.name, executionMode: project.executionMode },
    alwaysAllow: alwaysAllowPreview(action, project),
  };
  const command =
    action.actionType === 'terminal' && typeof action.payload['command'] === 'string'
      ? action.payload['command']
      : null;
  const explained = command === null ? null : explainFragments(command);
  const findings = explained ? explained.findings.map((f) => f.what) : [];
  if (ctx.scopeRoot === null || ctx.permissions === null) return { ...base, now: null, fragments: [], findings };
  const key = `${action.proposerId}\0${action.actionType}`;
  let proposer = ctx.proposers.get(key);
  if (!proposer) {
    proposer = Promise.all([
      deps.store.read.members.get(project.id, action.proposerId),
      deps.store.read.autonomy.resolve(project.id, action.proposerId, action.actionType),
    ]);
    ctx.proposers.set(key, proposer);
  }
  const [member, autonomy] = await proposer;
  const decision = decide({
    actionType: action.actionType,
    payload: action.payload,
    role: member?.role ?? 'developer',
    autonomy,
    permissions: ctx.permissions.permissions,
    scopeRoot: ctx.scopeRoot,
    containerRunning: ctx.containerRunning,
    permissionsBroken: ctx.permissions.broken,
  });
  const effects = new Map(
    (explained?.fragments ?? []).map((f) => [f.text, f.effect ? `${f.effect.kind}: ${f.effect.what}` : null] as const),
  );
  return {
    ...base,
    now: { policy: decision.policy, reasonCode: decision.reasonCode, reason: decision.reason },
    fragments: (decision.fragments ?? []).map((f) => ({ ...f, effect: effects.get(f.text) ?? null })),
    findings,
  };
}
