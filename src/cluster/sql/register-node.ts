// Transition: a node (re)joins the cluster. Upsert by node id, epoch + 1, lease from the database
// clock. A previous incarnation with the same id is fenced out by the new epoch.
import type { Queryable } from '../../store/postgres/sql.ts';

export async function registerNode(db: Queryable, nodeId: string, address: string | null, leaseMs: number): Promise<number> {
  const result = await db.query(
    `INSERT INTO cluster_nodes (node_id, epoch, address, started_at, heartbeat_at, lease_until)
     VALUES ($1, 1, $2, now(), now(), now() + make_interval(secs => $3::double precision / 1000))
     ON CONFLICT (node_id) DO UPDATE SET epoch = cluster_nodes.epoch + 1, address = excluded.address,
       started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at, lease_until = excluded.lease_until
     RETURNING epoch`,
    [nodeId, address, leaseMs],
  );
  return Number((result.rows[0] as { epoch: string | number }).epoch);
}
