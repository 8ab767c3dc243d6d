// Where each project's runner is, cluster-wide: the presence replica of `runner:<projectId>` says
// which node holds the socket; the runner_sessions row is the lock that keeps one runner per
// project across nodes; dispatches for a runner on another node are forwarded to that node over
// pub/sub (`node:<id>`), whose dispatcher claims and delivers them on the local socket.
import type pg from 'pg';
import type { BroadcastMessage, Subscriber } from '../../gateway/pubsub.ts';
import type { RunnerInfo, RunnerSessions } from '../../gateway/runner-hub.ts';
import type { RunnerLocation } from '../execution/ports.ts';
import type { Logger } from '../logger.ts';
import type { ClusterMembership } from './membership.ts';
import type { PostgresPresence } from './postgres-presence.ts';
import type { ClusterPubSub } from './postgres-pubsub.ts';
import { claimRunnerSession, releaseRunnerSession, runnerLastSeen } from './sql/claim-runner-session.ts';

const RUNNER_PREFIX = 'runner:';
export const nodeTopic = (nodeId: string): string => `node:${nodeId}`;
export const FORWARD_EVENT = 'dispatch';

export class RunnerDirectory implements RunnerSessions {
  readonly #presence: PostgresPresence;
  readonly #pubsub: ClusterPubSub;
  readonly #pool: pg.Pool;
  readonly #membership: ClusterMembership;
  readonly #logger: Logger;

  constructor(options: {
    presence: PostgresPresence;
    pubsub: ClusterPubSub;
    pool: pg.Pool;
    membership: ClusterMembership;
    logger: Logger;
  }) {
    this.#presence = options.presence;
    this.#pubsub = options.pubsub;
    this.#pool = options.pool;
    this.#membership = options.membership;
    this.#logger = options.logger;
  }

  /** Another node's holder of the project's runner (this node's sockets are the hub's to know). */
  remoteHolder(projectId: string): RunnerLocation | null {
    const me = this.#membership.nodeId;
    const entry = this.#presence.entries(`${RUNNER_PREFIX}${projectId}`).find((e) => e.nodeId !== me);
    return entry ? { at: 'node', nodeId: entry.nodeId } : null;
  }

  onJoined(listener: (projectId: string) => void): () => void {
    const handler = (topic: string): void => {
      if (topic.startsWith(RUNNER_PREFIX)) listener(topic.slice(RUNNER_PREFIX.length));
    };
    this.#presence.on('join', handler);
    return () => this.#presence.off('join', handler);
  }

  lastSeen(projectId: string): Promise<Date | null> {
    return runnerLastSeen(this.#pool, projectId);
  }

  forward(nodeId: string, actionId: string): void {
    this.#pubsub.broadcast({
      topic: nodeTopic(nodeId),
      event: FORWARD_EVENT,
      payload: { actionId, from: this.#membership.nodeId },
    });
  }

  /** Takes the actions other nodes forward to this one. */
  serve(dispatch: (actionId: string) => void): () => void {
    const subscriber: Subscriber = {
      deliver: (message: BroadcastMessage) => {
        const actionId = (message.payload as { actionId?: unknown } | null)?.actionId;
        if (message.event === FORWARD_EVENT && typeof actionId === 'string') dispatch(actionId);
      },
    };
    const topic = nodeTopic(this.#membership.nodeId);
    this.#pubsub.subscribe(topic, subscriber);
    return () => this.#pubsub.unsubscribe(topic, subscriber);
  }

  /** Runners connected anywhere: `{projectId, nodeId, hostname, ...}` (for /api/cluster and metrics). */
  runners(): Array<{ projectId: string; nodeId: string; tokenId: string; hostname: unknown; onlineAt: unknown }> {
    return this.#presence.topics(RUNNER_PREFIX).flatMap((topic) =>
      this.#presence.entries(topic).map((e) => ({
        projectId: topic.slice(RUNNER_PREFIX.length),
        nodeId: e.nodeId,
        tokenId: e.key,
        hostname: e.meta.hostname ?? null,
        onlineAt: e.meta.online_at ?? null,
      })),
    );
  }

  // RunnerSessions: the cluster-wide one-runner lock.
  claim(info: RunnerInfo) {
    return claimRunnerSession(this.#pool, {
      projectId: info.projectId,
      nodeId: this.#membership.nodeId,
      epoch: this.#membership.epoch,
      socketId: info.socketId,
      tokenId: info.tokenId,
      hostname: info.hostname,
      runnerVersion: info.runnerVersion,
    });
  }

  release(info: RunnerInfo): void {
    releaseRunnerSession(this.#pool, info.projectId, this.#membership.nodeId, info.socketId).catch((err: unknown) =>
      this.#logger.warn(
        { code: 'runner_session_release_failed', projectId: info.projectId, err },
        'the runner lock could not be released; it frees itself when this node restarts or its lease runs out',
      ),
    );
  }
}
