import type { Task, TaskRepository, TaskStatus } from '../types.ts';
import { records, type Sql } from './sql.ts';

const { toTask } = records;

export class PostgresTasks implements TaskRepository {
  readonly #sql: Sql;
  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async insert(t: Omit<Task, 'blockedReason' | 'blockedSource'>): Promise<void> {
    await this.#sql.run(
      `INSERT INTO tasks (id, project_id, title, status, pr_number, blocked_reason, blocked_source, updated_at)
       VALUES ($1, $2, $3, $4, $5, NULL, NULL, $6)`,
      t.id,
      t.projectId,
      t.title,
      t.status,
      t.prNumber,
      t.updatedAt,
    );
  }

  async get(id: string): Promise<Task | null> {
    const row = await this.#sql.one('SELECT * FROM tasks WHERE id = $1', id);
    return row ? toTask(row) : null;
  }

  async findByPr(projectId: string, prNumber: number): Promise<Task | null> {
    const row = await this.#sql.one(
      'SELECT * FROM tasks WHERE project_id = $1 AND pr_number = $2 ORDER BY id LIMIT 1',
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
    const changes = await this.#sql.run(
      `UPDATE tasks SET status = $1, updated_at = $2, blocked_reason = $3, blocked_source = $4
       WHERE id = $5 AND status <> $1`,
      to,
      at,
      blocked?.reason ?? null,
      blocked?.source ?? null,
      id,
    );
    return changes === 1;
  }

  async listBlocked(projectId: string): Promise<Task[]> {
    const rows = await this.#sql.all(
      "SELECT * FROM tasks WHERE project_id = $1 AND status = 'blocked' ORDER BY updated_at, id",
      projectId,
    );
    return rows.map(toTask);
  }
}
