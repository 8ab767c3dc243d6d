// Transition: a broadcast joins the cluster's message log, and every node is nudged. The row is the
// message, read by id (graphile-worker's pattern), so a lost notification costs one poll interval,
// never the message. A batch that fits NOTIFY's 8000-byte payload also travels in the NOTIFY
// itself, so a listening node delivers it without reading the log back (one round trip fewer on
// the way from an approval to the node holding the runner); a larger batch sends an empty nudge.
import type { Queryable } from '../../store/postgres/sql.ts';

export interface OutgoingMessage {
  topic: string;
  event: string;
  payload: unknown;
}

/** Below Postgres's 8000-byte NOTIFY payload limit, with room to spare. */
export const NOTIFY_PAYLOAD_MAX_BYTES = 7_900;

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
       RETURNING id, topic, event, payload),
     note AS (
       SELECT json_build_object('o', $2::text, 'm', json_agg(json_build_array(id, topic, event, payload) ORDER BY id))::text AS body
       FROM m)
     SELECT pg_notify($1, CASE WHEN octet_length(body) <= $4 THEN body ELSE '' END) FROM note`,
    [channel, originNode, JSON.stringify(messages), NOTIFY_PAYLOAD_MAX_BYTES],
  );
}
