// The cluster seam: a single node (SQLite) keeps everything in memory; on Postgres each node is a
// leased row, and (see pubsub/presence) coordination goes through Postgres alone.
import pg from 'pg';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/types.ts';
import { clusterConfigFrom, type ClusterConfig } from './config.ts';
import type { ClusterMembership } from './membership.ts';
import { PostgresNode } from './postgres-node.ts';
import { SingleNode } from './single-node.ts';

export type { ClusterMembership, NodeInfo } from './membership.ts';
export { ClusterConfigError, clusterConfigFrom } from './config.ts';

export interface Cluster {
  membership: ClusterMembership;
  /** Null on a single node. */
  config: ClusterConfig | null;
  close(): Promise<void>;
}

export async function openCluster(options: { store: Store; databaseUrl: string | null | undefined; port: number; logger: Logger; env?: NodeJS.ProcessEnv }): Promise<Cluster> {
  if (!options.databaseUrl) {
    const membership = new SingleNode(options.store);
    return { membership, config: null, close: () => membership.close() };
  }
  const config = clusterConfigFrom(options.env ?? process.env, options.port);
  // Its own small pool: coordination must not queue behind the store's writers (pool exhaustion
  // would otherwise stop heartbeats and get a busy node reaped).
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2, idleTimeoutMillis: 30_000, application_name: `brabo-cluster ${config.nodeId}` });
  pool.on('error', (err) => options.logger.warn({ code: 'postgres_connection_lost', err }, 'an idle cluster connection was closed; the pool opens a new one on demand'));
  const node = new PostgresNode({ pool, nodeId: config.nodeId, logger: options.logger, timings: config.timings });
  try {
    await node.join();
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  return {
    membership: node,
    config,
    async close() {
      await node.close();
      await pool.end().catch(() => {});
    },
  };
}
