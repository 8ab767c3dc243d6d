// One table of the 20 action types (issue 13.6): every per-type fact the gateway uses lives in
// ACTION_TYPE_FACTS, and labels, minimum roles, "Always allow" refusals, typed ceilings, credential
// references, who may propose, and who executes are derived from it. The table `satisfies`
// Record<ActionType, ActionTypeFacts>: a type added to ACTION_TYPES without its facts, or a fact
// left out of a row, is a compile error instead of a silent `default` somewhere else.
import type { ActionType, Role } from './types.ts';

/** The typed ceiling (step 6 f) a type meets; `null` when none applies to the type. */
export type TypedCeilingKind =
  'external_effect' | 'protected_branch_merge' | 'instruction_patch' | 'parallelism' | 'container_remove';

/**
 * Who executes an approved action of the type:
 * - `gateway_terminal`: the gateway's execution targets run the command (the project's runner, or
 *   the Docker broker in container mode);
 * - `gateway_container`: the gateway's execution targets run the container lifecycle;
 * - `external_executor`: nothing in the gateway runs it; an external executor (issue 15.1, the
 *   upstream api or a git bot) claims the dispatch with the action's credential reference.
 */
export type ExecutedBy = 'gateway_terminal' | 'gateway_container' | 'external_executor';

export interface ActionTypeFacts {
  /** PascalCase label written in permissions.json patterns ("Pattern format"). */
  label: string;
  /** Minimum proposer role (RN-005/RN-083), checked before permissions.json. */
  minRole: Role;
  /** "Always allow" writes `Label()` (or terminal fragments), or is refused (RN-689). */
  alwaysAllow: 'writes_pattern' | 'refused';
  /** The typed ceiling of step 6 f (RN-006/007/086/495/689). */
  typedCeiling: TypedCeilingKind | null;
  /** Which credential the executor runs with (RN-082): the workspace owner's, never the clicker's. */
  credential: 'owner' | 'none';
  /** RN-495: `human_only` types are refused when an agent proposes them, on every route. */
  proposer: 'anyone' | 'human_only';
  executedBy: ExecutedBy;
}

export const ACTION_TYPE_FACTS = Object.freeze({
  terminal: {
    label: 'Terminal',
    minRole: 'developer',
    alwaysAllow: 'writes_pattern',
    typedCeiling: null,
    credential: 'none',
    proposer: 'anyone',
    executedBy: 'gateway_terminal',
  },
  git_commit: {
    label: 'GitCommit',
    minRole: 'developer',
    alwaysAllow: 'writes_pattern',
    typedCeiling: null,
    credential: 'owner',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  write_file: {
    label: 'WriteFile',
    minRole: 'developer',
    alwaysAllow: 'writes_pattern',
    typedCeiling: null,
    credential: 'none',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  git_push: {
    label: 'GitPush',
    minRole: 'maintainer',
    alwaysAllow: 'refused',
    typedCeiling: 'external_effect',
    credential: 'owner',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  pr_open: {
    label: 'PrOpen',
    minRole: 'maintainer',
    alwaysAllow: 'refused',
    typedCeiling: 'external_effect',
    credential: 'owner',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  git_repo_create: {
    label: 'GitRepoCreate',
    minRole: 'maintainer',
    alwaysAllow: 'writes_pattern',
    typedCeiling: null,
    credential: 'owner',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  git_branch_create: {
    label: 'GitBranchCreate',
    minRole: 'maintainer',
    alwaysAllow: 'writes_pattern',
    typedCeiling: null,
    credential: 'owner',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  git_branch_protect: {
    label: 'GitBranchProtect',
    minRole: 'maintainer',
    alwaysAllow: 'writes_pattern',
    typedCeiling: null,
    credential: 'owner',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  open_adr_pr: {
    label: 'OpenAdrPr',
    minRole: 'maintainer',
    alwaysAllow: 'writes_pattern',
    typedCeiling: null,
    credential: 'owner',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  open_infra_pr: {
    label: 'OpenInfraPr',
    minRole: 'maintainer',
    alwaysAllow: 'writes_pattern',
    typedCeiling: null,
    credential: 'owner',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  git_merge: {
    label: 'GitMerge',
    minRole: 'maintainer',
    alwaysAllow: 'refused',
    typedCeiling: 'protected_branch_merge',
    credential: 'owner',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  instruction_patch: {
    label: 'InstructionPatch',
    minRole: 'maintainer',
    alwaysAllow: 'refused',
    typedCeiling: 'instruction_patch',
    credential: 'none',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  parallelize: {
    label: 'Parallelize',
    minRole: 'maintainer',
    alwaysAllow: 'refused',
    typedCeiling: 'parallelism',
    credential: 'none',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  raise_max_parallel: {
    label: 'RaiseMaxParallel',
    minRole: 'maintainer',
    alwaysAllow: 'refused',
    typedCeiling: 'parallelism',
    credential: 'none',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  propose_execution_plan: {
    label: 'ProposeExecutionPlan',
    minRole: 'maintainer',
    alwaysAllow: 'writes_pattern',
    typedCeiling: null,
    credential: 'none',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  assess_implementability: {
    label: 'AssessImplementability',
    minRole: 'maintainer',
    alwaysAllow: 'writes_pattern',
    typedCeiling: null,
    credential: 'none',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
  container_start: {
    label: 'ContainerStart',
    minRole: 'maintainer',
    alwaysAllow: 'writes_pattern',
    typedCeiling: null,
    credential: 'none',
    proposer: 'anyone',
    executedBy: 'gateway_container',
  },
  container_stop: {
    label: 'ContainerStop',
    minRole: 'maintainer',
    alwaysAllow: 'writes_pattern',
    typedCeiling: null,
    credential: 'none',
    proposer: 'human_only',
    executedBy: 'gateway_container',
  },
  container_remove: {
    label: 'ContainerRemove',
    minRole: 'maintainer',
    alwaysAllow: 'refused',
    typedCeiling: 'container_remove',
    credential: 'none',
    proposer: 'human_only',
    executedBy: 'gateway_container',
  },
  spend: {
    label: 'Spend',
    minRole: 'owner',
    alwaysAllow: 'writes_pattern',
    typedCeiling: null,
    credential: 'none',
    proposer: 'anyone',
    executedBy: 'external_executor',
  },
} as const satisfies Record<ActionType, ActionTypeFacts>);

type Facts = typeof ACTION_TYPE_FACTS;

/** The types whose facts have `key` equal to `value`, as a literal union. */
export type TypesWhere<K extends keyof ActionTypeFacts, V> = {
  [T in ActionType]: Facts[T][K] extends V ? T : never;
}[ActionType];

/** container_start | container_stop | container_remove: the types the gateway's container targets run. */
export type ContainerActionType = TypesWhere<'executedBy', 'gateway_container'>;
/** The types the gateway's own execution targets run (the runner protocol's action enum). */
export type GatewayExecutedType = TypesWhere<'executedBy', 'gateway_terminal' | 'gateway_container'>;
/** The types only an external executor runs (issue 15.1). */
export type ExternalExecutedType = TypesWhere<'executedBy', 'external_executor'>;

/** The facts of one type. */
export function factsOf(type: ActionType): ActionTypeFacts {
  return ACTION_TYPE_FACTS[type];
}

/** The types, in table order, whose `key` fact is `value`. */
export function typesWhere<K extends keyof ActionTypeFacts, V extends ActionTypeFacts[K]>(
  key: K,
  value: V,
): TypesWhere<K, V>[] {
  const all = Object.keys(ACTION_TYPE_FACTS) as ActionType[];
  return all.filter((type) => ACTION_TYPE_FACTS[type][key] === value) as TypesWhere<K, V>[];
}

/** The types the gateway's container targets run, in table order. */
export const CONTAINER_ACTION_TYPES: readonly ContainerActionType[] = Object.freeze(
  typesWhere('executedBy', 'gateway_container'),
);

/** The types an external executor claims, in table order (issue 15.1). */
export const EXTERNAL_EXECUTOR_TYPES: readonly ExternalExecutedType[] = Object.freeze(
  typesWhere('executedBy', 'external_executor'),
);

export function isContainerActionType(type: string): type is ContainerActionType {
  return (CONTAINER_ACTION_TYPES as readonly string[]).includes(type);
}
