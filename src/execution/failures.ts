// The named failures the dispatcher itself produces (the broker and the runner bring their own
// codes, passed through). Each sentence says what happened, where, and what to do next.
import { OUTCOME_UNKNOWN } from '../store/types.ts';
import { type FailedOutcome, failedOutcome } from './outcome.ts';

export const EXECUTION_FAILURES = {
  runnerNotConnected: 'runner_not_connected',
  runnerRefused: 'runner_refused',
  runnerLost: 'runner_lost',
  deliveryTimeout: 'delivery_timeout',
  commandTimeout: 'command_timeout',
  noBroker: 'no_broker',
  workspaceNotWritable: 'workspace_not_writable',
  resourcesBelowMinimum: 'resources_below_minimum',
  invalidPayload: 'invalid_payload',
  portFailed: 'execution_port_failed',
  serverRestarted: 'exec_interrupted',
  outcomeUnknown: OUTCOME_UNKNOWN,
} as const;

/** Why the gateway cannot know whether a command started (detail.cause of outcome_unknown). */
export type UnknownCause =
  | 'runner_disconnected_before_ack'
  | 'delivery_timeout'
  | 'claim_not_committed'
  | 'dispatcher_failed_after_send'
  | 'gateway_restarted_during_broker_exec';

const UNKNOWN_WHY: Record<UnknownCause, string> = {
  runner_disconnected_before_ack: 'the runner disconnected after the command was sent and before it acknowledged it',
  delivery_timeout: 'the runner did not acknowledge the command in time after it was sent',
  claim_not_committed: 'the command was sent to the runner but the gateway could not record that it was sent',
  dispatcher_failed_after_send: 'the gateway failed after the command was sent to the runner',
  gateway_restarted_during_broker_exec: 'the gateway restarted while the Docker broker ran it',
};

/**
 * The gateway sent the command (attempt `attempt`) but cannot know whether the runner started it.
 * Never "not run": the runner may have run it, and its report (from its journal) replaces this
 * outcome when it arrives. Proposing it again could run it twice.
 */
export function outcomeUnknown(
  projectId: string,
  attempt: number,
  cause: UnknownCause,
  message?: string,
): FailedOutcome {
  return failedOutcome(
    EXECUTION_FAILURES.outcomeUnknown,
    `The outcome of this action is unknown: ${UNKNOWN_WHY[cause]}${message ? ` (${message.slice(0, 300)})` : ''}, so the command may have run on the machine of project ${projectId}. ` +
      'If the runner ran it, its report replaces this outcome when it reconnects. Check the machine before proposing the action again: it could run twice.',
    { projectId, attempt, cause },
  );
}

export function runnerNotConnected(projectId: string, lastSeen: Date | null): FailedOutcome {
  // Says only what the gateway knows: with several nodes, "since the gateway started" was false
  // (another node may have held the runner), so the sentence names the whole cluster.
  const seen =
    lastSeen === null
      ? 'the gateway has no record of its runner connecting'
      : `its runner was last seen at ${lastSeen.toISOString()}`;
  return failedOutcome(
    EXECUTION_FAILURES.runnerNotConnected,
    `No runner is connected for project ${projectId} on any gateway node (${seen}), so the approved action was not run. ` +
      `Start \`brabo runner --project ${projectId} ...\` on the project's machine and propose the action again.`,
    { projectId, lastSeen: lastSeen?.toISOString() ?? null },
  );
}

export function runnerRefused(projectId: string, code: string, message: string): FailedOutcome {
  return failedOutcome(
    EXECUTION_FAILURES.runnerRefused,
    `The runner of project ${projectId} refused to run the action (${code}): ${message}`,
    { projectId, runnerCode: code, runnerMessage: message },
  );
}

export function runnerLost(projectId: string, graceMs: number, why: string): FailedOutcome {
  return failedOutcome(
    EXECUTION_FAILURES.runnerLost,
    `The runner of project ${projectId} ${why} and no result arrived within ${graceMs} ms. ` +
      'The command may or may not have finished on that machine; it was not re-run. Check the machine, then propose it again if needed.',
    { projectId, graceMs },
  );
}

export function deliveryFailed(projectId: string, code: string, message: string): FailedOutcome {
  const next =
    code === EXECUTION_FAILURES.deliveryTimeout
      ? 'The runner may be overloaded or its connection stalled; check it (its log) and propose the action again.'
      : `Start or reconnect \`brabo runner --project ${projectId}\` and propose the action again.`;
  return failedOutcome(code, `Dispatch to the runner of project ${projectId} failed: ${message}. ${next}`, {
    projectId,
  });
}

export function noBroker(projectId: string): FailedOutcome {
  return failedOutcome(
    EXECUTION_FAILURES.noBroker,
    `Project ${projectId} runs in container mode but this gateway has no Docker broker configured. ` +
      'Start the gateway with BRABO_DOCKER=1 (and DOCKER_HOST if the engine is not at /var/run/docker.sock).',
    { projectId },
  );
}

export function portFailed(port: string, error: unknown): FailedOutcome {
  const message = error instanceof Error ? error.message : String(error);
  return failedOutcome(
    EXECUTION_FAILURES.portFailed,
    `The ${port} failed unexpectedly while executing the action (${message.slice(0, 500)}); nothing is known to have run. ` +
      'The gateway log has the stack (search for this action id); propose the action again once it is fixed.',
    { port },
  );
}

export function invalidPayload(actionType: string, why: string): FailedOutcome {
  return failedOutcome(
    EXECUTION_FAILURES.invalidPayload,
    `The approved ${actionType} cannot be executed: ${why}. Propose it again with a valid payload.`,
  );
}

/**
 * An external executor claimed the action and did not report before its lease ran out. It may
 * have acted (pushed, opened the PR, merged), so never "not run": its report, whenever it comes,
 * replaces this outcome.
 */
export function executorLeaseExpired(
  projectId: string,
  attempt: number,
  executor: { type: string; claimedBy: string },
  leaseUntil: string,
): FailedOutcome {
  return failedOutcome(
    EXECUTION_FAILURES.outcomeUnknown,
    `The outcome of this action is unknown: the ${executor.type} executor (credential ${executor.claimedBy}) claimed it and did not report before its lease ended at ${leaseUntil}, so it may have acted on project ${projectId}. ` +
      "If the executor reports later, its report replaces this outcome. Check the provider (the branch, the PR) and the executor's log before proposing the action again: it could act twice.",
    { projectId, attempt, cause: 'executor_lease_expired', actionType: executor.type, claimedBy: executor.claimedBy },
  );
}

/** The gateway restarted while the broker ran this: it may have run; no report can come, so it stays outcome_unknown. */
export function serverRestarted(projectId: string, attempt: number): FailedOutcome {
  return failedOutcome(
    EXECUTION_FAILURES.outcomeUnknown,
    `The outcome of this action is unknown: ${UNKNOWN_WHY.gateway_restarted_during_broker_exec}, so the command may have run in the container of project ${projectId}; it was not re-run. ` +
      'Inspect the container, then propose the action again if needed: it could run twice.',
    {
      projectId,
      attempt,
      cause: 'gateway_restarted_during_broker_exec',
      formerCode: EXECUTION_FAILURES.serverRestarted,
    },
  );
}
