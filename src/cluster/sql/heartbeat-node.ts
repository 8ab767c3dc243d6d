// Transition: a live node renews its lease. Fenced by epoch: false means this incarnation was
// superseded (same node id registered again) or reaped after its lease ran out.
import type { Queryable } from '../../store/postgres/sql.ts';

export async function heartbeatNode(db: Queryable, nodeId: string, epoch: number, leaseMs: number): Promise<boolean> {
  const result = await db.query(
    `UPDATE cluster_nodes SET heartbeat_at = now(), lease_until = now() + make_interval(secs => $3::double precision / 1000)
     WHERE node_id = $1 AND epoch = $2`,
    [nodeId, epoch, leaseMs],
  );
  return result.rowCount === 1;
}
