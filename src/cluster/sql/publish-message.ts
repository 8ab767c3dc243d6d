// Transition: a broadcast joins the cluster's message log, and every node is nudged. The NOTIFY
// carries nothing but the wake-up: the row is the message, read by id (graphile-worker's pattern),
// so a lost notification costs one poll interval, never the message.
import type { Queryable } from '../../store/postgres/sql.ts';

export interface OutgoingMessage {
  topic: string;
  event: string;
  payload: unknown;
}

export async function publishMessages(
  db: Queryable,
  channel: string,
  originNode: string,
  messages: OutgoingMessage[],
): Promise<void> {
  if (messages.length === 0) return;
  await db.query(
    `WITH m AS (
       INSERT INTO cluster_messages (origin_node, topic, event, payload)
       SELECT $2, x.topic, x.event, x.payload FROM jsonb_to_recordset($3::jsonb) AS x(topic text, event text, payload jsonb)
       RETURNING id)
     SELECT pg_notify($1, '') FROM (SELECT 1 FROM m LIMIT 1) AS any_row`,
    [channel, originNode, JSON.stringify(messages)],
  );
}
