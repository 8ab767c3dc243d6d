// Transition: a runner's join takes its project's session, the cluster-wide lock that keeps one
// runner per project. Owner = node id + epoch + socket; the lease is the owning node's. The lock
// is free when nobody holds it, when the holder's node lease ran out (killed node), or when it is
// this very node's (a row its own local check already found stale).
import type { Queryable } from '../../store/postgres/sql.ts';

export interface SessionClaim {
  projectId: string;
  nodeId: string;
  epoch: number;
  socketId: string;
  tokenId: string;
  hostname: string | null;
  runnerVersion: string | null;
}

export interface SessionHolder {
  nodeId: string;
  hostname: string | null;
  joinedAt: string;
}

export async function claimRunnerSession(
  db: Queryable,
  claim: SessionClaim,
): Promise<{ ok: true } | { ok: false; holder: SessionHolder }> {
  const taken = await db.query(
    `INSERT INTO runner_sessions AS s (project_id, node_id, epoch, socket_id, token_id, hostname, runner_version, joined_at, last_seen_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now())
     ON CONFLICT (project_id) DO UPDATE SET node_id = excluded.node_id, epoch = excluded.epoch, socket_id = excluded.socket_id,
       token_id = excluded.token_id, hostname = excluded.hostname, runner_version = excluded.runner_version,
       joined_at = excluded.joined_at, last_seen_at = excluded.last_seen_at
     WHERE s.node_id IS NULL OR s.node_id = excluded.node_id
        OR NOT EXISTS (SELECT 1 FROM cluster_nodes n WHERE n.node_id = s.node_id AND n.epoch = s.epoch AND n.lease_until >= now())
     RETURNING project_id`,
    [claim.projectId, claim.nodeId, claim.epoch, claim.socketId, claim.tokenId, claim.hostname, claim.runnerVersion],
  );
  if (taken.rowCount === 1) return { ok: true };
  const held = await db.query('SELECT node_id, hostname, joined_at FROM runner_sessions WHERE project_id = $1', [
    claim.projectId,
  ]);
  const row = held.rows[0] as { node_id: string | null; hostname: string | null; joined_at: Date | null } | undefined;
  return {
    ok: false,
    holder: {
      nodeId: row?.node_id ?? 'unknown',
      hostname: row?.hostname ?? null,
      joinedAt: row?.joined_at ? new Date(row.joined_at).toISOString() : 'unknown',
    },
  };
}

/** Transition: the holding socket left; the lock is free and the project's runner was last seen now. */
export async function releaseRunnerSession(
  db: Queryable,
  projectId: string,
  nodeId: string,
  socketId: string,
): Promise<void> {
  await db.query(
    'UPDATE runner_sessions SET node_id = NULL, epoch = NULL, socket_id = NULL, last_seen_at = now() WHERE project_id = $1 AND node_id = $2 AND socket_id = $3',
    [projectId, nodeId, socketId],
  );
}

/** Read: when the project's runner was last connected anywhere (now while it is). */
export async function runnerLastSeen(db: Queryable, projectId: string): Promise<Date | null> {
  const result = await db.query('SELECT node_id, last_seen_at FROM runner_sessions WHERE project_id = $1', [projectId]);
  const row = result.rows[0] as { node_id: string | null; last_seen_at: Date } | undefined;
  if (!row) return null;
  return row.node_id ? new Date() : new Date(row.last_seen_at);
}
