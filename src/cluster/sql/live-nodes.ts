// Read: nodes whose lease has not run out (database clock).
import type { Queryable } from '../../store/postgres/sql.ts';
import type { NodeInfo } from '../membership.ts';

interface NodeRow {
  node_id: string;
  epoch: string | number;
  address: string | null;
  started_at: Date;
  heartbeat_at: Date;
  lease_until: Date;
}

export async function liveNodes(db: Queryable): Promise<NodeInfo[]> {
  const result = await db.query('SELECT * FROM cluster_nodes WHERE lease_until >= now() ORDER BY node_id');
  return (result.rows as NodeRow[]).map((row) => ({
    nodeId: row.node_id,
    epoch: Number(row.epoch),
    address: row.address,
    startedAt: new Date(row.started_at).toISOString(),
    heartbeatAt: new Date(row.heartbeat_at).toISOString(),
    leaseUntil: new Date(row.lease_until).toISOString(),
  }));
}
