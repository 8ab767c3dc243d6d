// Runner joins and leaves go into the project's event log with what the runner reported about
// itself, the sandbox state included (issue 9 B.3): whoever reads the log can tell whether the
// commands of that period ran sandboxed. Best effort: a failed write is logged, never thrown.
import type { RunnerHub } from '../../gateway/index.ts';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/types.ts';

export const RUNNER_EVENTS_LOG = { joined: 'runner.joined', left: 'runner.left' } as const;

export function logRunnerPresence(hub: RunnerHub, store: Store, logger: Logger): () => void {
  const append = (projectId: string, type: string, payload: Record<string, unknown>): void => {
    void store
      .transaction((tx) =>
        tx.events.append({ projectId, type, actorKind: 'system', actorId: null, actionId: null, payload }),
      )
      .catch((error: unknown) =>
        logger.warn(
          { code: 'runner_event_unrecorded', projectId, type, err: error },
          'a runner join/leave could not be written to the event log',
        ),
      );
  };
  const joined = (info: {
    projectId: string;
    tokenId: string;
    hostname: string | null;
    runnerVersion: string | null;
    sandbox: unknown;
  }): void =>
    append(info.projectId, RUNNER_EVENTS_LOG.joined, {
      tokenId: info.tokenId,
      hostname: info.hostname,
      runnerVersion: info.runnerVersion,
      sandbox: info.sandbox ?? null,
    });
  const left = (info: { projectId: string; tokenId: string; hostname: string | null; reason: string }): void =>
    append(info.projectId, RUNNER_EVENTS_LOG.left, {
      tokenId: info.tokenId,
      hostname: info.hostname,
      reason: info.reason,
    });
  hub.on('runnerJoined', joined);
  hub.on('runnerLeft', left);
  return () => {
    hub.off('runnerJoined', joined);
    hub.off('runnerLeft', left);
  };
}
