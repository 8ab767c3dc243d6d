// Labels, minimum roles and the fixed lists of the specification ("Pattern format", "Ceilings",
// "Always allow"). Data only, so every other file and the console share one copy.
import { ACTION_TYPES, ROLES } from './types.ts';
import type { ActionType, Role } from './types.ts';

/** PascalCase label of each action type, as written in permissions.json patterns. */
export const LABELS: Readonly<Record<ActionType, string>> = Object.freeze({
  terminal: 'Terminal',
  git_commit: 'GitCommit',
  write_file: 'WriteFile',
  git_push: 'GitPush',
  pr_open: 'PrOpen',
  git_repo_create: 'GitRepoCreate',
  git_branch_create: 'GitBranchCreate',
  git_branch_protect: 'GitBranchProtect',
  open_adr_pr: 'OpenAdrPr',
  open_infra_pr: 'OpenInfraPr',
  git_merge: 'GitMerge',
  instruction_patch: 'InstructionPatch',
  parallelize: 'Parallelize',
  raise_max_parallel: 'RaiseMaxParallel',
  propose_execution_plan: 'ProposeExecutionPlan',
  assess_implementability: 'AssessImplementability',
  container_start: 'ContainerStart',
  container_stop: 'ContainerStop',
  container_remove: 'ContainerRemove',
  spend: 'Spend',
});

/** The minimum proposer role per type (RN-005/RN-083); checked before permissions.json. */
export const MIN_ROLE: Readonly<Record<ActionType, Role>> = Object.freeze({
  terminal: 'developer',
  git_commit: 'developer',
  write_file: 'developer',
  git_push: 'maintainer',
  pr_open: 'maintainer',
  git_repo_create: 'maintainer',
  git_branch_create: 'maintainer',
  git_branch_protect: 'maintainer',
  open_adr_pr: 'maintainer',
  open_infra_pr: 'maintainer',
  git_merge: 'maintainer',
  instruction_patch: 'maintainer',
  parallelize: 'maintainer',
  raise_max_parallel: 'maintainer',
  propose_execution_plan: 'maintainer',
  assess_implementability: 'maintainer',
  container_start: 'maintainer',
  container_stop: 'maintainer',
  container_remove: 'maintainer',
  spend: 'owner',
});

const LABEL_TO_TYPE: ReadonlyMap<string, ActionType> = new Map(
  ACTION_TYPES.map((type) => [LABELS[type], type] as const),
);

/** The action type a pattern label names, or undefined for an unknown label. */
export function actionTypeForLabel(label: string): ActionType | undefined {
  return LABEL_TO_TYPE.get(label);
}

export function isActionType(x: unknown): x is ActionType {
  return typeof x === 'string' && (ACTION_TYPES as readonly string[]).includes(x);
}

export function isRole(x: unknown): x is Role {
  return typeof x === 'string' && (ROLES as readonly string[]).includes(x);
}

/** developer < maintainer < owner. */
export function roleAtLeast(role: Role, min: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(min);
}

/**
 * Types whose "Always allow" click never writes anything (RN-689, `teto_do_sempre_permitir`).
 * The approval card hides the button for exactly this list.
 */
export const TIPOS_SEM_SEMPRE_PERMITIR: readonly ActionType[] = Object.freeze([
  'git_push',
  'pr_open',
  'git_merge',
  'container_remove',
  'instruction_patch',
  'parallelize',
  'raise_max_parallel',
] as const);

/**
 * Merge targets that are always a human decision (RN-006). `rc` stays although the tier was
 * removed: old repositories still have it, and unprotecting a live branch is the costly mistake.
 */
export const PROTECTED_BRANCHES: readonly string[] = Object.freeze(['dev', 'qa', 'rc', 'main']);

/**
 * Whether a merge target is protected. Spellings git accepts for the same branch
 * (`refs/heads/main`, surrounding blanks, other letter case on case-insensitive disks) count too:
 * protecting too much costs a click, protecting too little costs production.
 */
export function isProtectedBranch(branch: string): boolean {
  let name = branch.trim();
  const refsPrefix = 'refs/heads/';
  if (name.startsWith(refsPrefix)) name = name.slice(refsPrefix.length);
  return PROTECTED_BRANCHES.includes(name.toLowerCase());
}
