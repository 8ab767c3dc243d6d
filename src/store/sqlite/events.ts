import type { ActorKind, EventRepository, NewSessionEvent, SessionEvent } from '../types.ts';
import { json, type Row, type Statements, str, strOrNull } from './rows.ts';

const toEvent = (row: Row): SessionEvent => ({
  id: Number(row.id),
  projectId: str(row.project_id),
  type: str(row.type),
  actorKind: str(row.actor_kind) as ActorKind,
  actorId: strOrNull(row.actor_id),
  actionId: strOrNull(row.action_id),
  payload: json<Record<string, unknown>>(row.payload),
  createdAt: str(row.created_at),
});

/** Append-only (the schema refuses UPDATE and DELETE); the row id is the cursor. */
export class SqliteEvents implements EventRepository {
  readonly #sql: Statements;
  constructor(sql: Statements) {
    this.#sql = sql;
  }

  async append(e: NewSessionEvent): Promise<SessionEvent> {
    const createdAt = e.createdAt ?? new Date().toISOString();
    const row = this.#sql.one(
      `INSERT INTO session_events (project_id, type, actor_kind, actor_id, action_id, payload, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      e.projectId, e.type, e.actorKind, e.actorId, e.actionId, JSON.stringify(e.payload), createdAt,
    );
    return { ...e, id: Number(row?.id), createdAt };
  }

  async listAfter(projectId: string, after: number, limit: number): Promise<SessionEvent[]> {
    return this.#sql
      .all('SELECT * FROM session_events WHERE project_id = ? AND id > ? ORDER BY id LIMIT ?', projectId, after, limit)
      .map(toEvent);
  }

  async count(projectId: string, type: string): Promise<number> {
    const row = this.#sql.one('SELECT COUNT(*) AS n FROM session_events WHERE project_id = ? AND type = ?', projectId, type);
    return Number(row?.n ?? 0);
  }
}
