import type { Task, TaskRepository, TaskStatus } from '../types.ts';
import { records, type Statements } from './rows.ts';

const { toTask } = records;

export class SqliteTasks implements TaskRepository {
  readonly #sql: Statements;
  constructor(sql: Statements) {
    this.#sql = sql;
  }

  async insert(t: Omit<Task, 'blockedReason' | 'blockedSource'>): Promise<void> {
    this.#sql.run(
      `INSERT INTO tasks (id, project_id, title, status, pr_number, blocked_reason, blocked_source, updated_at)
       VALUES (?, ?, ?, ?, ?, NULL, NULL, ?)`,
      t.id,
      t.projectId,
      t.title,
      t.status,
      t.prNumber,
      t.updatedAt,
    );
  }

  async get(id: string): Promise<Task | null> {
    const row = this.#sql.one('SELECT * FROM tasks WHERE id = ?', id);
    return row ? toTask(row) : null;
  }

  async findByPr(projectId: string, prNumber: number): Promise<Task | null> {
    const row = this.#sql.one(
      'SELECT * FROM tasks WHERE project_id = ? AND pr_number = ? ORDER BY id LIMIT 1',
      projectId,
      prNumber,
    );
    return row ? toTask(row) : null;
  }

  async transition(
    id: string,
    to: TaskStatus,
    at: string,
    blocked?: { reason: string; source: string },
  ): Promise<boolean> {
    const changes = this.#sql.run(
      `UPDATE tasks SET status = ?, updated_at = ?, blocked_reason = ?, blocked_source = ?
       WHERE id = ? AND status <> ?`,
      to,
      at,
      blocked?.reason ?? null,
      blocked?.source ?? null,
      id,
      to,
    );
    return changes === 1;
  }

  async listBlocked(projectId: string): Promise<Task[]> {
    return this.#sql
      .all("SELECT * FROM tasks WHERE project_id = ? AND status = 'blocked' ORDER BY updated_at, id", projectId)
      .map(toTask);
  }
}
