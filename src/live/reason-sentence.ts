// RN-614: the reason a decision was made and the scope root it compared against, combined into one
// sentence by this one function, for every place that shows them: the API (GET /api/actions/:id
// and the proposal's answer, field `reasonSentence`), the console's event rows and its approval
// card. No imports, so the console bundles just this file.

/** What a proposed_action.created event or a proposed action carries (either may lack both). */
export interface ReasonFacts {
  reason?: unknown;
  scopeRoot?: unknown;
}

/** Events written before RN-567 have no reason: that reads "not recorded", never "no rule". */
export const REASON_NOT_RECORDED = 'reason not recorded';

/**
 * `agent_autonomy: auto_approve (scope: container:shop-1a2b3c4d)`; the reason alone when no scope
 * root was recorded (non-terminal types, events before RN-609); "reason not recorded" when there is
 * no reason, or no facts at all (the event is not among those loaded).
 */
export function reasonSentence(facts: ReasonFacts | null | undefined): string {
  const reason = typeof facts?.reason === 'string' ? facts.reason.trim() : '';
  if (reason === '') return REASON_NOT_RECORDED;
  const scopeRoot = typeof facts?.scopeRoot === 'string' ? facts.scopeRoot.trim() : '';
  return scopeRoot === '' ? reason : `${reason} (scope: ${scopeRoot})`;
}
