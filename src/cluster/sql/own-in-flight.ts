// Read: the in-flight dispatches this node owns (a previous incarnation's, at start-up).
import type { Queryable, Row } from '../../store/postgres/sql.ts';

export async function ownInFlight(db: Queryable, nodeId: string): Promise<Row[]> {
  const result = await db.query(
    `SELECT * FROM execution_handoffs WHERE owner_node = $1 AND state IN ('sent', 'accepted', 'running') ORDER BY created_at, id`,
    [nodeId],
  );
  return result.rows as Row[];
}
