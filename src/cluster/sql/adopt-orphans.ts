// Transition: dead nodes are reaped and their in-flight dispatches adopted by this node, in one
// statement. A node is dead when its lease ran out (database clock) or it has no row at all.
// Concurrent adopters serialize on the rows: the second re-checks `owner_node` after the first
// commits and finds it changed, so each orphan gets exactly one new owner.
import type { Queryable, Row } from '../../store/postgres/sql.ts';

export interface Adopted {
  /** Node ids whose lease expired and whose rows this call reaped. */
  reaped: string[];
  rows: Row[];
}

export async function adoptOrphans(db: Queryable, nodeId: string): Promise<Adopted> {
  const reaped = await db.query(
    `DELETE FROM cluster_nodes WHERE node_id <> $1 AND lease_until < now() RETURNING node_id`,
    [nodeId],
  );
  const dead = reaped.rows.map((row) => String((row as { node_id: string }).node_id));
  if (dead.length > 0) {
    // Their presence and runner sessions die with them (others already ignore rows of dead nodes).
    await db.query('DELETE FROM cluster_presence WHERE node_id = ANY($1::text[])', [dead]);
    await db.query(
      'UPDATE runner_sessions SET node_id = NULL, epoch = NULL, socket_id = NULL, last_seen_at = now() WHERE node_id = ANY($1::text[])',
      [dead],
    );
  }
  const adopted = await db.query(
    `UPDATE execution_handoffs h SET owner_node = $1
     WHERE h.state IN ('sent', 'accepted', 'running') AND h.owner_node IS DISTINCT FROM $1
       AND (h.owner_node IS NULL OR h.owner_node = ANY($2::text[])
            OR NOT EXISTS (SELECT 1 FROM cluster_nodes n WHERE n.node_id = h.owner_node))
     RETURNING h.*`,
    [nodeId, dead],
  );
  return { reaped: dead, rows: adopted.rows as Row[] };
}
