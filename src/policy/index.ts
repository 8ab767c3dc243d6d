// The policy engine's public API. Pure: no I/O, no clock, no randomness.
export * from './types.ts';
export { decide } from './decide.ts';
export { MAX_COMMAND_LENGTH } from './limits.ts';
export { PROTECTED_PATHS, PROTECTED_NAMES } from './protected-paths.ts';
export {
  parsePermissions,
  parsePermissionsText,
  PermissionsError,
  PermissionsFileSchema,
  EMPTY_PERMISSIONS,
  mergePatterns,
  describeIssue,
  PERMISSION_LISTS,
} from './permissions-file.ts';
export type { PermissionsParse, PermissionsIssue, PermissionsErrorCode, PermissionList } from './permissions-file.ts';
export {
  LABELS,
  MIN_ROLE,
  roleAtLeast,
  isActionType,
  isRole,
  actionTypeForLabel,
  TIPOS_SEM_SEMPRE_PERMITIR,
  PROTECTED_BRANCHES,
  isProtectedBranch,
} from './labels.ts';
export {
  ACTION_TYPE_FACTS,
  CONTAINER_ACTION_TYPES,
  EXTERNAL_EXECUTOR_TYPES,
  factsOf,
  isContainerActionType,
  typesWhere,
} from './action-types.ts';
export type {
  ActionTypeFacts,
  ContainerActionType,
  ExecutedBy,
  ExternalExecutedType,
  GatewayExecutedType,
  TypedCeilingKind,
  TypesWhere,
} from './action-types.ts';
export { renderReason } from './reasons.ts';
export type { ReasonDetail } from './reasons.ts';
export { patternsForAction } from './always-allow.ts';
export type { AlwaysAllowPlan, AlwaysAllowRefusal } from './always-allow.ts';
export { DEV_TERMINAL_ALLOW_PATTERNS } from './dev-terminal-patterns.ts';
export { BUILTIN_DENY_PATTERNS } from './deny.ts';
export {
  validateLocalRoot,
  scopeRootLabel,
  resolveLexically,
  isInside,
  STREAM_DEVICES,
  stripTrailingSlashes,
} from './paths.ts';
export type { RootErrorCode, RootValidation } from './paths.ts';
export { tokenizerSelfTest, tokenize } from './tokenizer.ts';
export type { Fragment, Redirect, TokenizedCommand, UnsafeFinding, UnsafeKind } from './tokenizer.ts';
export { parsePattern } from './pattern.ts';
export { explainFragments } from './explain.ts';
export type { CommandExplanation, FragmentExplanation } from './explain.ts';
export { effectOf } from './external-effect.ts';
export type { Effect, EffectKind } from './external-effect.ts';
