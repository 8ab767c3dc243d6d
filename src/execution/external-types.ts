// Which action types the gateway runs itself and which wait for an external executor (a git bot,
// the upstream api's worker: src/execution/executors.ts). The one place this is decided; when the
// table of action types (src/policy) gains its "who executes" fact, this reads it.
import { ACTION_TYPES, type ActionType } from '../policy/index.ts';

/** Run in the gateway: terminal commands (runner or broker) and the container lifecycle (broker). */
const RUN_BY_GATEWAY: ReadonlySet<ActionType> = new Set<ActionType>([
  'terminal',
  'container_start',
  'container_stop',
  'container_remove',
]);

/** Every other type: approved, it stays `queued` until an executor of that type claims it. */
export const EXTERNAL_ACTION_TYPES: readonly ActionType[] = ACTION_TYPES.filter((type) => !RUN_BY_GATEWAY.has(type));

export const isExternallyExecuted = (type: string): type is ActionType =>
  (EXTERNAL_ACTION_TYPES as readonly string[]).includes(type);
