// The structured (pino) side of the runner's events: one record per event, with the codes and ids
// an operator greps for. Commands are logged in full; output is not (it can hold anything).
import type { Logger } from 'pino';
import type { RunnerObserver } from './observer.ts';

export function logObserver(logger: Logger): RunnerObserver {
  return {
    connecting: (url) => logger.info({ event: 'connecting', url }, 'connecting to the gateway'),
    joined: (topic, resent) => logger.info({ event: 'joined', topic, resent }, 'joined the runner channel'),
    disconnected: (reason) => logger.warn({ event: 'disconnected', reason }, 'disconnected from the gateway'),
    joinRefused: (code, message) =>
      logger.error({ event: 'join_refused', code, message }, 'the gateway refused the join'),
    dispatchStarted: (execute) =>
      logger.info(
        { event: 'dispatch_started', dispatchId: execute.dispatchId, attempt: execute.attempt, action: execute.action },
        'running a dispatch',
      ),
    dispatchFinished: (result, durationMs) =>
      logger.info(
        {
          event: 'dispatch_finished',
          dispatchId: result.dispatchId,
          attempt: result.attempt,
          status: result.status,
          exitCode: result.exitCode,
          reason: result.reason,
          truncated: result.truncated,
          durationMs,
        },
        'dispatch finished',
      ),
    dispatchReplayed: (result, source) =>
      logger.info(
        {
          event: 'dispatch_replayed',
          dispatchId: result.dispatchId,
          attempt: result.attempt,
          status: result.status,
          source,
        },
        'answered a re-delivery without running again',
      ),
    invalidExecute: (detail, dispatchId) =>
      logger.warn({ event: 'invalid_execute', dispatchId, detail }, 'received an invalid execute'),
    resultRejected: (result, reason) =>
      logger.warn(
        { event: 'result_rejected', dispatchId: result.dispatchId, attempt: result.attempt, reason },
        'the gateway did not accept a result',
      ),
    warning: (code, message) => logger.warn({ event: 'warning', code }, message),
  };
}
