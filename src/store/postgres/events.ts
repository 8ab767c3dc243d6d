// The session event log. Append-only (a trigger refuses UPDATE, DELETE and TRUNCATE); the cursor
// is a bigint identity.
//
// Why a lock: identity values are handed out when the INSERT runs, but become visible when the
// transaction commits. Two writers can take 10 and 11 and commit 11 first; a reader polling
// `after=9` then gets 11, moves its cursor to 11 and never sees 10. So every append takes a
// transaction-scoped advisory lock keyed by the project before it takes its identity value: the
// events of one project get their ids in commit order, and a reader that sees id N of a project
// also sees every smaller id of that project (the holder of the smaller id committed before the
// lock was released). Projects do not wait on each other, and `listAfter` is per project.
//
// Why deferred: the lock is held until COMMIT, so everything a transaction does after taking it
// serializes every writer of the project. Taken at the first append (often the middle of a unit of
// work), it capped one project at ~60 proposals/s on Postgres. Inside a transaction, appends are
// kept in memory and written by `commit`: ONE simple-protocol round trip carries, per project, a
// statement that takes the lock and inserts that project's events, then the COMMIT. The lock is
// held for the server's own work only, never across a round trip to this process (a busy event
// loop on a loaded machine took tens of ms to send the COMMIT). Nothing reads the event log inside
// a unit of work, so deferring the INSERT changes no answer. Values are inlined as escaped literals
// (pg's escapeLiteral) because the simple protocol, the only one that carries several statements
// in one message, takes no parameters.
import pg from 'pg';
import type { EventRepository, NewSessionEvent, SessionEvent } from '../types.ts';
import { num } from '../records.ts';
import { LOCK_CLASS } from './locks.ts';
import { records, type Sql } from './sql.ts';

const { toEvent } = records;

interface Pending {
  project_id: string;
  type: string;
  actor_kind: string;
  actor_id: string | null;
  action_id: string | null;
  payload: Record<string, unknown>;
  created_at: string;
}

const literal = (value: string): string => pg.escapeLiteral(value);

/** Takes the project's cursor lock, then inserts its events in order (ids in array order). */
function lockAndInsert(projectId: string, rows: Pending[]): string {
  const events = rows.map(({ project_id: _, ...rest }) => rest);
  return `WITH cursor_lock AS MATERIALIZED (
  SELECT pg_advisory_xact_lock(${LOCK_CLASS.eventCursor}, hashtext(current_schema() || ':' || ${literal(projectId)})) AS held
)
INSERT INTO session_events (project_id, type, actor_kind, actor_id, action_id, payload, created_at)
SELECT ${literal(projectId)}, e.type, e.actor_kind, e.actor_id, e.action_id, e.payload, e.created_at
FROM cursor_lock, ROWS FROM (
  jsonb_to_recordset(${literal(JSON.stringify(events))}::jsonb)
    AS (type text, actor_kind text, actor_id text, action_id text, payload jsonb, created_at text)
) WITH ORDINALITY AS e(type, actor_kind, actor_id, action_id, payload, created_at, position)
ORDER BY e.position`;
}

export class PostgresEvents implements EventRepository {
  readonly #sql: Sql;
  /** In a transaction: appends wait here for `commit`; outside one, they run at once. */
  readonly #pending: Pending[] | null;

  constructor(sql: Sql, options: { deferred: boolean } = { deferred: false }) {
    this.#sql = sql;
    this.#pending = options.deferred ? [] : null;
  }

  async append(e: NewSessionEvent): Promise<void> {
    const row: Pending = {
      project_id: e.projectId,
      type: e.type,
      actor_kind: e.actorKind,
      actor_id: e.actorId,
      action_id: e.actionId,
      payload: e.payload,
      created_at: e.createdAt ?? new Date().toISOString(),
    };
    if (this.#pending) this.#pending.push(row);
    else await this.#sql.run(lockAndInsert(row.project_id, [row]));
  }

  /**
   * Ends the transaction: the deferred appends, project by project in a fixed order (two writers
   * never wait on each other's locks in a cycle), then COMMIT, in one round trip.
   */
  async commit(): Promise<void> {
    const rows = this.#pending?.splice(0) ?? [];
    const projects = [...new Set(rows.map((r) => r.project_id))].sort();
    const statements = projects.map((projectId) =>
      lockAndInsert(
        projectId,
        rows.filter((r) => r.project_id === projectId),
      ),
    );
    await this.#sql.run([...statements, 'COMMIT'].join(';\n'));
  }

  async listAfter(projectId: string, after: number, limit: number): Promise<SessionEvent[]> {
    const rows = await this.#sql.all(
      'SELECT * FROM session_events WHERE project_id = $1 AND id > $2 ORDER BY id LIMIT $3',
      projectId,
      after,
      limit,
    );
    return rows.map(toEvent);
  }

  async count(projectId: string, type: string): Promise<number> {
    const row = await this.#sql.one(
      'SELECT COUNT(*) AS n FROM session_events WHERE project_id = $1 AND type = $2',
      projectId,
      type,
    );
    return num(row?.n ?? 0);
  }
}
