// Presence rows: each node writes its own entries (owner = node id) and removes them on untrack;
// entries of a node whose lease ran out are ignored by every reader and deleted when it is reaped.
import type { Queryable } from '../../store/postgres/sql.ts';

export interface PresenceRow {
  topic: string;
  key: string;
  ref: string;
  nodeId: string;
  meta: Record<string, unknown>;
}

export async function insertPresence(db: Queryable, row: PresenceRow): Promise<void> {
  await db.query(
    'INSERT INTO cluster_presence (topic, key, ref, node_id, meta) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
    [row.topic, row.key, row.ref, row.nodeId, JSON.stringify(row.meta)],
  );
}

export async function deletePresence(db: Queryable, topic: string, ref: string): Promise<void> {
  await db.query('DELETE FROM cluster_presence WHERE topic = $1 AND ref = $2', [topic, ref]);
}

/** A node starting again drops what its previous incarnation left. */
export async function deleteNodePresence(db: Queryable, nodeId: string): Promise<void> {
  await db.query('DELETE FROM cluster_presence WHERE node_id = $1', [nodeId]);
}

/** Every entry of a live node (lease not run out), other than `exceptNode`'s. */
export async function livePresence(db: Queryable, exceptNode: string): Promise<PresenceRow[]> {
  const result = await db.query(
    `SELECT p.topic, p.key, p.ref, p.node_id, p.meta FROM cluster_presence p
     JOIN cluster_nodes n ON n.node_id = p.node_id AND n.lease_until >= now()
     WHERE p.node_id <> $1`,
    [exceptNode],
  );
  return (
    result.rows as Array<{ topic: string; key: string; ref: string; node_id: string; meta: Record<string, unknown> }>
  ).map((r) => ({
    topic: r.topic,
    key: r.key,
    ref: r.ref,
    nodeId: r.node_id,
    meta: r.meta,
  }));
}
