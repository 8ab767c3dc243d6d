// Cluster membership (Phoenix's node list, graphile-worker's lock owners): which node this process
// is, and which in-flight dispatches it must settle. A node settles only its own rows, unowned
// ones, and those of nodes whose lease expired (adopted atomically, so exactly one node takes a
// dead node's work); a live node's work is never touched.
import type { Dispatch } from '../store/types.ts';

export interface ClusterMembership {
  /** Stable across restarts when configured (BRABO_NODE_ID), so a restarted node finds its own rows. */
  readonly nodeId: string;
  /** Incremented at every registration of `nodeId`: fences a stale incarnation's heartbeats. */
  readonly epoch: number;
  /** Whether rows owned by `ownerNode` are this node's to time out and settle. */
  owns(ownerNode: string | null): boolean;
  /**
   * Start-up: the in-flight dispatches this node settles now (its own from a previous incarnation,
   * unowned ones, and those adopted from nodes whose lease expired).
   */
  inFlightToSettle(): Promise<Dispatch[]>;
  /** Called with dispatches adopted later from a node that died (lease expired). */
  onAdopted(listener: (dispatches: Dispatch[]) => void): () => void;
  /** Live nodes, this one included (diagnostics, /api/cluster). */
  liveNodes(): Promise<NodeInfo[]>;
  close(): Promise<void>;
}

export interface NodeInfo {
  nodeId: string;
  epoch: number;
  address: string | null;
  startedAt: string;
  heartbeatAt: string;
  leaseUntil: string;
}

export const IN_FLIGHT_STATES = ['sent', 'accepted', 'running'] as const;
