// The cluster's knobs, from the environment (BRABO_NODE_*). Only a Postgres store clusters.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { DEFAULT_NODE_TIMINGS, type NodeTimings } from './postgres-node.ts';

export class ClusterConfigError extends Error {
  override name = 'ClusterConfigError';
  readonly code = 'cluster_config_invalid';
}

export interface ClusterConfig {
  nodeId: string;
  timings: NodeTimings;
  /** How often the pub/sub message log is polled behind LISTEN/NOTIFY (lost notifications). */
  pollMs: number;
}

const NODE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw new ClusterConfigError(
      `${name} must be a positive whole number of milliseconds, got ${JSON.stringify(value)}`,
    );
  return n;
}

/**
 * BRABO_NODE_ID names the node (stable across restarts, so a restarted node settles its own rows at
 * once instead of waiting for its old lease to run out); default `<hostname>:<port>`, or a random
 * id when the port is chosen by the OS.
 */
export function clusterConfigFrom(env: NodeJS.ProcessEnv, port: number): ClusterConfig {
  const nodeId =
    env.BRABO_NODE_ID ||
    (port > 0 ? `${hostname()}:${port}` : `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`);
  if (!NODE_ID.test(nodeId))
    throw new ClusterConfigError(
      `BRABO_NODE_ID ${JSON.stringify(nodeId).slice(0, 120)} must be 1-100 letters, digits, '.', '_', ':' or '-'`,
    );
  const heartbeatMs = positive(
    'BRABO_NODE_HEARTBEAT_MS',
    env.BRABO_NODE_HEARTBEAT_MS,
    DEFAULT_NODE_TIMINGS.heartbeatMs,
  );
  const leaseMs = positive(
    'BRABO_NODE_LEASE_MS',
    env.BRABO_NODE_LEASE_MS,
    Math.max(DEFAULT_NODE_TIMINGS.leaseMs, heartbeatMs * 3),
  );
  if (leaseMs < heartbeatMs * 2)
    throw new ClusterConfigError(
      `BRABO_NODE_LEASE_MS (${leaseMs}) must be at least twice BRABO_NODE_HEARTBEAT_MS (${heartbeatMs}), or one late heartbeat kills the node`,
    );
  return {
    nodeId,
    timings: { heartbeatMs, leaseMs },
    pollMs: positive('BRABO_CLUSTER_POLL_MS', env.BRABO_CLUSTER_POLL_MS, 1_000),
  };
}
