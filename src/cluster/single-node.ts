// The single-node membership (SQLite, or Postgres without clustering): this process owns every row.
import type { Dispatch, Store } from '../store/types.ts';
import { type ClusterMembership, IN_FLIGHT_STATES, type NodeInfo } from './membership.ts';

export class SingleNode implements ClusterMembership {
  readonly nodeId: string;
  readonly epoch = 1;
  readonly #store: Store;
  readonly #startedAt = new Date().toISOString();

  constructor(store: Store, nodeId = 'local') {
    this.#store = store;
    this.nodeId = nodeId;
  }

  owns(): boolean {
    return true;
  }

  inFlightToSettle(): Promise<Dispatch[]> {
    return this.#store.read.dispatches.listInStates(IN_FLIGHT_STATES, 100_000);
  }

  onAdopted(): () => void {
    return () => {};
  }

  async liveNodes(): Promise<NodeInfo[]> {
    const now = new Date().toISOString();
    return [
      {
        nodeId: this.nodeId,
        epoch: this.epoch,
        address: null,
        startedAt: this.#startedAt,
        heartbeatAt: now,
        leaseUntil: now,
      },
    ];
  }

  async close(): Promise<void> {}
}
