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
import { num } from '../records.ts';
import type { EventRepository, NewSessionEvent, SessionEvent } from '../types.ts';
import { LOCK_CLASS } from './locks.ts';
import { jsonParam, records, type Sql } from './sql.ts';

const { toEvent } = records;

export class PostgresEvents implements EventRepository {
  readonly #sql: Sql;
  /** Projects whose cursor lock this transaction already holds (held until COMMIT/ROLLBACK). */
  readonly #locked = new Set<string>();

  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async append(e: NewSessionEvent): Promise<SessionEvent> {
    const createdAt = e.createdAt ?? new Date().toISOString();
    if (!this.#locked.has(e.projectId)) {
      await this.#sql.run(
        "SELECT pg_advisory_xact_lock($1, hashtext(current_schema() || ':' || $2))",
        LOCK_CLASS.eventCursor,
        e.projectId,
      );
      this.#locked.add(e.projectId);
    }
    const row = await this.#sql.one(
      `INSERT INTO session_events (project_id, type, actor_kind, actor_id, action_id, payload, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      e.projectId,
      e.type,
      e.actorKind,
      e.actorId,
      e.actionId,
      jsonParam(e.payload),
      createdAt,
    );
    return { ...e, id: num(row?.id), createdAt };
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
