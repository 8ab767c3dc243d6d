export {
  AgentTurns,
  describeTurn,
  TURN_EVENTS,
  TURN_LOST_NO_TASK_REASON,
  TURN_LOST_REASON,
  turnLostReason,
} from './turns.ts';
export type { ActionSettlementView, AgentNotifierPort, TurnView } from './turns.ts';
export { settlementOf } from './settlement.ts';
export type { SettlementState } from './settlement.ts';
export { SettlementWaiters } from './waiters.ts';
