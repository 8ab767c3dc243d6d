// The cluster seam: a single node (SQLite) keeps everything in memory; on Postgres each node is a
// leased row, and pub/sub, presence, the one-runner lock and wake-ups go through Postgres alone.
import pg from 'pg';
import { LocalPresence, type PresenceTracker } from '../../gateway/presence.ts';
import { LocalPubSub, type PubSub } from '../../gateway/pubsub.ts';
import { SettlementWaiters } from '../agents/waiters.ts';
import type { Logger } from '../logger.ts';
import { guardPoolClients } from '../store/postgres/client-guard.ts';
import type { Store } from '../store/types.ts';
import { clusterConfigFrom, type ClusterConfig } from './config.ts';
import type { ClusterMembership } from './membership.ts';
import { PostgresNode } from './postgres-node.ts';
import { PostgresPresence } from './postgres-presence.ts';
import { PostgresPubSub } from './postgres-pubsub.ts';
import { RunnerDirectory } from './runner-directory.ts';
import { ClusterSettlementWaiters } from './settlement-wakeups.ts';
import { SingleNode } from './single-node.ts';

export type { ClusterMembership, NodeInfo } from './membership.ts';
export { ClusterConfigError, clusterConfigFrom } from './config.ts';
export { RunnerDirectory } from './runner-directory.ts';

export interface Cluster {
  membership: ClusterMembership;
  pubsub: PubSub;
  presence: PresenceTracker;
  waiters: SettlementWaiters;
  /** Null on a single node: the RunnerHub's own map is the whole truth. */
  directory: RunnerDirectory | null;
  /** Null on a single node. */
  config: ClusterConfig | null;
  /**
   * Called when this node lost its lease and registered again: its runner locks may have been
   * released by a reaper, so `reconnectRunners` closes its runner sockets (they rejoin and take
   * their lock again; results in flight come back through their outbox).
   */
  onLeaseLost(reconnectRunners: () => void): void;
  close(): Promise<void>;
}

export async function openCluster(options: {
  store: Store;
  databaseUrl: string | null | undefined;
  port: number;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
}): Promise<Cluster> {
  if (!options.databaseUrl) {
    const membership = new SingleNode(options.store);
    const pubsub = new LocalPubSub();
    return {
      membership,
      pubsub,
      presence: new LocalPresence(pubsub),
      waiters: new SettlementWaiters(),
      directory: null,
      config: null,
      onLeaseLost: () => {},
      close: () => membership.close(),
    };
  }
  const config = clusterConfigFrom(options.env ?? process.env, options.port);
  const logger = options.logger;
  // Its own small pool: coordination must not queue behind the store's writers (pool exhaustion
  // would otherwise stop heartbeats and get a busy node reaped). Plus one LISTEN connection.
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: 3,
    idleTimeoutMillis: 30_000,
    application_name: `brabo-cluster ${config.nodeId}`,
  });
  pool.on('error', (err) =>
    logger.warn(
      { code: 'postgres_connection_lost', err },
      'an idle cluster connection was closed; the pool opens a new one on demand',
    ),
  );
  // pool.query users and the node's own checkouts (postgres-node.ts) share this pool: a session
  // handed from one to the other inside its own socket read has no listener for a moment.
  guardPoolClients(pool, (err) =>
    logger.warn({ code: 'postgres_connection_lost', err }, 'a cluster session was closed by the server or the network'),
  );
  const node = new PostgresNode({ pool, nodeId: config.nodeId, logger, timings: config.timings });
  const pubsub = new PostgresPubSub({
    pool,
    url: options.databaseUrl,
    nodeId: config.nodeId,
    logger,
    pollMs: config.pollMs,
  });
  const presence = new PostgresPresence({
    pubsub,
    pool,
    logger,
    resyncMs: Math.max(config.pollMs, config.timings.heartbeatMs),
  });
  const closeAll = async (): Promise<void> => {
    await presence.close().catch(() => {});
    await pubsub.close().catch(() => {});
    await node.close();
    await pool.end().catch(() => {});
  };
  try {
    await node.join();
    await pubsub.start();
    await presence.start();
  } catch (error) {
    await closeAll();
    throw error;
  }
  const waiters = new ClusterSettlementWaiters(pubsub);
  const directory = new RunnerDirectory({ presence, pubsub, pool, membership: node, logger });
  return {
    membership: node,
    pubsub,
    presence,
    waiters,
    directory,
    config,
    onLeaseLost(reconnectRunners) {
      node.onLeaseLost(() => {
        presence.reassert();
        reconnectRunners();
      });
    },
    async close() {
      waiters.close();
      await closeAll();
    },
  };
}
