// Event types the execution side appends to the session log (actor: system).
export const EXECUTION_EVENTS = {
  executed: 'action.executed',
  failed: 'action.failed',
  /** A runner result that arrived after the dispatch had already been settled otherwise. */
  lateResult: 'action.late_result',
  /** An external executor claimed the action (src/execution/executors.ts). */
  claimed: 'action.claimed',
} as const;
