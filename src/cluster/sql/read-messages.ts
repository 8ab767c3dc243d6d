// Read: messages after `after`, plus ids that were still being committed the last time (an identity
// is taken at INSERT, so a lower id can become visible after a higher one).
import type { Queryable } from '../../store/postgres/sql.ts';

export interface LoggedMessage {
  id: number;
  originNode: string;
  topic: string;
  event: string;
  payload: unknown;
}

interface MessageRow {
  id: string;
  origin_node: string;
  topic: string;
  event: string;
  payload: unknown;
}

export async function readMessages(
  db: Queryable,
  after: number,
  gaps: number[],
  limit: number,
): Promise<LoggedMessage[]> {
  const result = await db.query(
    `SELECT id, origin_node, topic, event, payload FROM cluster_messages
     WHERE id > $1 OR id = ANY($2::bigint[]) ORDER BY id LIMIT $3`,
    [after, gaps, limit],
  );
  return (result.rows as MessageRow[]).map((row) => ({
    id: Number(row.id),
    originNode: row.origin_node,
    topic: row.topic,
    event: row.event,
    payload: row.payload,
  }));
}

export async function lastMessageId(db: Queryable): Promise<number> {
  const result = await db.query('SELECT COALESCE(MAX(id), 0) AS id FROM cluster_messages');
  return Number((result.rows[0] as { id: string }).id);
}

/** Messages are a short-lived log: every node has read them within seconds. */
export async function pruneMessages(db: Queryable, olderThanMs: number): Promise<number> {
  const result = await db.query(
    'DELETE FROM cluster_messages WHERE created_at < now() - make_interval(secs => $1::double precision / 1000)',
    [olderThanMs],
  );
  return result.rowCount ?? 0;
}
