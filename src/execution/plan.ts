// What an approved action asks execution to do, read from its payload once. Only `terminal` and
// the container lifecycle are executed here; other types (git, PRs, plans) stay queued for their
// own executor.
import { isContainerActionType } from '../policy/index.ts';
import type { ContainerActionType, GatewayExecutedType } from '../policy/index.ts';
import type { RunnerAction } from '../../runner-protocol/index.ts';
import type { ProposedAction } from '../store/types.ts';
import { invalidPayload } from './failures.ts';
import type { FailedOutcome } from './outcome.ts';

export type { ContainerActionType };

export type ExecutionPlan =
  /** approval: `auto` when decide() auto-approved it (the runner sandboxes those), `human` otherwise. */
  | { kind: 'terminal'; command: string; cwd: string; timeoutMs: number; approval: 'auto' | 'human' }
  | { kind: 'container'; actionType: ContainerActionType; requested: Record<string, unknown> }
  | { kind: 'elsewhere' };

export const isContainerAction = isContainerActionType;

// The runner protocol (a package of its own, importing nothing from src/) keeps its own enum of
// the actions a runner executes; it must be exactly the types the table says the gateway runs.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const protocolMatchesTable: Same<RunnerAction['type'], GatewayExecutedType> = true;
void protocolMatchesTable;

const MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;

export function planOf(
  action: ProposedAction,
  scopeRoot: string,
  defaultTimeoutMs: number,
): ExecutionPlan | FailedOutcome {
  const { payload } = action;
  if (action.actionType === 'terminal') {
    const { command, cwd, timeoutMs } = payload;
    if (typeof command !== 'string' || command.trim() === '')
      return invalidPayload('terminal', 'payload.command is not a non-empty string');
    if (cwd !== undefined && (typeof cwd !== 'string' || !cwd.startsWith('/')))
      return invalidPayload('terminal', 'payload.cwd is not an absolute path');
    if (
      timeoutMs !== undefined &&
      !(typeof timeoutMs === 'number' && Number.isInteger(timeoutMs) && timeoutMs > 0 && timeoutMs <= MAX_TIMEOUT_MS)
    ) {
      return invalidPayload(
        'terminal',
        `payload.timeoutMs is not a whole number of milliseconds between 1 and ${MAX_TIMEOUT_MS}`,
      );
    }
    return {
      kind: 'terminal',
      command,
      cwd: (cwd as string | undefined) ?? scopeRoot,
      timeoutMs: (timeoutMs as number | undefined) ?? defaultTimeoutMs,
      approval: action.status === 'approved' ? 'human' : 'auto',
    };
  }
  if (isContainerAction(action.actionType)) {
    const nested = payload.resources;
    const requested = nested !== null && typeof nested === 'object' ? (nested as Record<string, unknown>) : payload;
    return { kind: 'container', actionType: action.actionType, requested };
  }
  return { kind: 'elsewhere' };
}

export const isFailure = (value: unknown): value is FailedOutcome =>
  typeof value === 'object' && value !== null && (value as { status?: unknown }).status === 'failed';
