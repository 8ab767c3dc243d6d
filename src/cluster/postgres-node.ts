// A gateway node in a Postgres cluster: a row in cluster_nodes with an epoch and a lease renewed by
// heartbeats (database clock). Each heartbeat also reaps nodes whose lease ran out and adopts their
// in-flight dispatches, so a node killed with -9 has its work settled by exactly one survivor.
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import type { Logger } from '../logger.ts';
import { records } from '../store/postgres/sql.ts';
import type { Queryable } from '../store/postgres/sql.ts';
import type { Dispatch } from '../store/types.ts';
import type { ClusterMembership, NodeInfo } from './membership.ts';
import { adoptOrphans } from './sql/adopt-orphans.ts';
import { heartbeatNode } from './sql/heartbeat-node.ts';
import { liveNodes } from './sql/live-nodes.ts';
import { ownInFlight } from './sql/own-in-flight.ts';
import { registerNode } from './sql/register-node.ts';

export interface NodeTimings {
  /** How often the lease is renewed and dead nodes are looked for. */
  heartbeatMs: number;
  /** How long a node counts as alive after its last heartbeat. */
  leaseMs: number;
}

export const DEFAULT_NODE_TIMINGS: NodeTimings = { heartbeatMs: 2_000, leaseMs: 10_000 };

export class PostgresNode implements ClusterMembership {
  readonly nodeId: string;
  #epoch = 0;
  readonly #pool: pg.Pool;
  readonly #logger: Logger;
  readonly #timings: NodeTimings;
  readonly #address: string | null;
  readonly #events = new EventEmitter<{ adopted: [Dispatch[]]; leaseLost: [] }>();
  #timer: NodeJS.Timeout | null = null;
  #beating: Promise<void> | null = null;
  #closed = false;

  constructor(options: {
    pool: pg.Pool;
    nodeId: string;
    address?: string | null;
    logger: Logger;
    timings?: Partial<NodeTimings>;
  }) {
    this.#pool = options.pool;
    this.nodeId = options.nodeId;
    this.#address = options.address ?? null;
    this.#logger = options.logger;
    this.#timings = { ...DEFAULT_NODE_TIMINGS, ...options.timings };
  }

  get epoch(): number {
    return this.#epoch;
  }

  /** Registers (epoch + 1) and starts heartbeating. */
  async join(): Promise<void> {
    this.#epoch = await registerNode(this.#pool, this.nodeId, this.#address, this.#timings.leaseMs);
    this.#logger.info(
      { code: 'node_joined', nodeId: this.nodeId, epoch: this.#epoch, leaseMs: this.#timings.leaseMs },
      'gateway node joined the cluster',
    );
    this.#timer = setInterval(() => {
      if (!this.#beating) this.#beating = this.#beat().finally(() => (this.#beating = null));
    }, this.#timings.heartbeatMs);
    this.#timer.unref();
  }

  owns(ownerNode: string | null): boolean {
    return ownerNode === null || ownerNode === this.nodeId;
  }

  async inFlightToSettle(): Promise<Dispatch[]> {
    const adopted = await this.#adopt();
    const own = (await ownInFlight(this.#pool, this.nodeId)).map(records.toDispatch);
    const seen = new Set(own.map((d) => d.id));
    return [...own, ...adopted.filter((d) => !seen.has(d.id))];
  }

  /** After this node lost its lease and registered again (new epoch). */
  onLeaseLost(listener: () => void): () => void {
    this.#events.on('leaseLost', listener);
    return () => this.#events.off('leaseLost', listener);
  }

  onAdopted(listener: (dispatches: Dispatch[]) => void): () => void {
    this.#events.on('adopted', listener);
    return () => this.#events.off('adopted', listener);
  }

  liveNodes(): Promise<NodeInfo[]> {
    return liveNodes(this.#pool);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#beating;
    // A clean stop gives its lease up at once: its rows (none in flight after a drain, normally)
    // become adoptable without waiting for the lease to run out.
    await this.#pool
      .query(
        "UPDATE cluster_nodes SET lease_until = now() - interval '1 millisecond' WHERE node_id = $1 AND epoch = $2",
        [this.nodeId, this.#epoch],
      )
      .catch((err: unknown) =>
        this.#logger.warn(
          { code: 'node_leave_failed', err },
          'could not give the node lease up; it expires on its own',
        ),
      );
  }

  async #beat(): Promise<void> {
    if (this.#closed) return;
    try {
      if (!(await heartbeatNode(this.#pool, this.nodeId, this.#epoch, this.#timings.leaseMs))) {
        // Our row was reaped (we stalled past the lease) or another process took the node id.
        this.#logger.error(
          { code: 'node_lease_lost', nodeId: this.nodeId, epoch: this.#epoch },
          'this node lost its cluster lease (stalled longer than the lease, or another process registered the same BRABO_NODE_ID); its in-flight work may have been adopted by another node. Re-registering with a new epoch',
        );
        this.#epoch = await registerNode(this.#pool, this.nodeId, this.#address, this.#timings.leaseMs);
        // Other nodes may have reaped this one meanwhile (its presence rows deleted, its runner
        // locks released): whoever holds this node's local state re-asserts it.
        this.#events.emit('leaseLost');
      }
      const adopted = await this.#adopt();
      if (adopted.length > 0) this.#events.emit('adopted', adopted);
    } catch (err) {
      this.#logger.warn(
        { code: 'node_heartbeat_failed', nodeId: this.nodeId, err },
        'cluster heartbeat failed (Postgres unreachable?); retrying at the next beat',
      );
    }
  }

  async #adopt(): Promise<Dispatch[]> {
    const client = await this.#pool.connect();
    // A backend terminated while checked out emits 'error' on the client: never leave it unhandled
    // (issue 10.5); the failing query rejects as well and the heartbeat retries.
    let broken = false;
    const onError = (): void => {
      broken = true;
    };
    client.on('error', onError);
    let reusable = false;
    try {
      await client.query('BEGIN');
      const { reaped, rows } = await adoptOrphans(client as Queryable, this.nodeId);
      await client.query('COMMIT');
      reusable = true;
      const adopted = rows.map(records.toDispatch);
      if (reaped.length > 0 || adopted.length > 0) {
        this.#logger.warn(
          { code: 'node_reaped', nodeId: this.nodeId, reaped, adopted: adopted.map((d) => d.id) },
          'nodes whose lease expired were reaped; their in-flight dispatches are now settled by this node',
        );
      }
      return adopted;
    } catch (error) {
      reusable =
        !broken &&
        (await client.query('ROLLBACK').then(
          () => true,
          () => false,
        ));
      throw error;
    } finally {
      client.removeListener('error', onError);
      client.release(reusable ? undefined : true);
    }
  }
}
