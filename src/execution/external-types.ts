// Which action types wait for an external executor (a git bot, the upstream api's worker:
// src/execution/executors.ts) instead of running in the gateway. The fact itself is the
// `executedBy` column of the action-type table (src/policy/action-types.ts); this is the
// execution side's view of it.
import { EXTERNAL_EXECUTOR_TYPES, type ExternalExecutedType } from '../policy/index.ts';

/** Approved, these stay `queued` until an executor of that type claims them. */
export const EXTERNAL_ACTION_TYPES: readonly ExternalExecutedType[] = EXTERNAL_EXECUTOR_TYPES;

export const isExternallyExecuted = (type: string): type is ExternalExecutedType =>
  (EXTERNAL_ACTION_TYPES as readonly string[]).includes(type);
