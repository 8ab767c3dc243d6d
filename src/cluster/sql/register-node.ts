// Transition: a node (re)joins the cluster. Upsert by node id with a new epoch, lease from the
// database clock. The epoch is the database time in ms (and at least the previous epoch + 1), so it
// grows even when a reaper deleted the row in between: a previous incarnation, and the runner
// locks it held, are always fenced out.
import type { Queryable } from '../../store/postgres/sql.ts';

export async function registerNode(
  db: Queryable,
  nodeId: string,
  address: string | null,
  leaseMs: number,
): Promise<number> {
  const result = await db.query(
    `INSERT INTO cluster_nodes (node_id, epoch, address, started_at, heartbeat_at, lease_until)
     VALUES ($1, (extract(epoch FROM clock_timestamp()) * 1000)::bigint, $2, now(), now(), now() + make_interval(secs => $3::double precision / 1000))
     ON CONFLICT (node_id) DO UPDATE SET epoch = GREATEST(cluster_nodes.epoch + 1, excluded.epoch), address = excluded.address,
       started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at, lease_until = excluded.lease_until
     RETURNING epoch`,
    [nodeId, address, leaseMs],
  );
  return Number((result.rows[0] as { epoch: string | number }).epoch);
}
