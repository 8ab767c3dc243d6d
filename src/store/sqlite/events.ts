import { num } from '../records.ts';
import type { EventRepository, NewSessionEvent, SessionEvent } from '../types.ts';
import { records, type Statements } from './rows.ts';

const { toEvent } = records;

/** Append-only (the schema refuses UPDATE and DELETE); the row id is the cursor. */
export class SqliteEvents implements EventRepository {
  readonly #sql: Statements;
  constructor(sql: Statements) {
    this.#sql = sql;
  }

  async append(e: NewSessionEvent): Promise<void> {
    const createdAt = e.createdAt ?? new Date().toISOString();
    this.#sql.run(
      `INSERT INTO session_events (project_id, type, actor_kind, actor_id, action_id, payload, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      e.projectId,
      e.type,
      e.actorKind,
      e.actorId,
      e.actionId,
      JSON.stringify(e.payload),
      createdAt,
    );
  }

  async listAfter(projectId: string, after: number, limit: number): Promise<SessionEvent[]> {
    return this.#sql
      .all('SELECT * FROM session_events WHERE project_id = ? AND id > ? ORDER BY id LIMIT ?', projectId, after, limit)
      .map(toEvent);
  }

  async count(projectId: string, type: string): Promise<number> {
    const row = this.#sql.one(
      'SELECT COUNT(*) AS n FROM session_events WHERE project_id = ? AND type = ?',
      projectId,
      type,
    );
    return num(row?.n ?? 0);
  }
}
