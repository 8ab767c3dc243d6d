// Container lifecycle, execution hand-offs and merged PRs: the rows the execution side shares.
import type {
  ContainerLifecycle,
  ContainerRecord,
  ContainerRepository,
  Handoff,
  HandoffRepository,
  HandoffStatus,
  MergeRepository,
} from '../types.ts';
import { records, type Statements } from './rows.ts';

const { toContainer, toHandoff } = records;

export class SqliteContainers implements ContainerRepository {
  readonly #sql: Statements;
  constructor(sql: Statements) {
    this.#sql = sql;
  }

  async get(projectId: string): Promise<ContainerRecord | null> {
    const row = this.#sql.one('SELECT * FROM project_containers WHERE project_id = ?', projectId);
    return row ? toContainer(row) : null;
  }

  async setState(projectId: string, state: ContainerLifecycle, containerId: string | null, at: string): Promise<void> {
    this.#sql.run(
      `INSERT INTO project_containers (project_id, state, container_id, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET state = excluded.state, container_id = excluded.container_id,
         updated_at = excluded.updated_at`,
      projectId,
      state,
      containerId,
      at,
    );
  }

  async list(): Promise<ContainerRecord[]> {
    return this.#sql.all('SELECT * FROM project_containers ORDER BY project_id').map(toContainer);
  }
}

export class SqliteHandoffs implements HandoffRepository {
  readonly #sql: Statements;
  constructor(sql: Statements) {
    this.#sql = sql;
  }

  async enqueue(h: Omit<Handoff, 'outcome' | 'updatedAt' | 'status'>): Promise<void> {
    this.#sql.run(
      `INSERT INTO execution_handoffs (id, action_id, project_id, status, credential_ref, outcome, created_at, updated_at)
       VALUES (?, ?, ?, 'queued', ?, NULL, ?, ?)`,
      h.id,
      h.actionId,
      h.projectId,
      h.credentialRef,
      h.createdAt,
      h.createdAt,
    );
  }

  async getByAction(actionId: string): Promise<Handoff | null> {
    const row = this.#sql.one('SELECT * FROM execution_handoffs WHERE action_id = ?', actionId);
    return row ? toHandoff(row) : null;
  }

  async listQueued(limit: number): Promise<Handoff[]> {
    return this.#sql
      .all("SELECT * FROM execution_handoffs WHERE status = 'queued' ORDER BY created_at, id LIMIT ?", limit)
      .map(toHandoff);
  }

  async setStatus(
    actionId: string,
    status: HandoffStatus,
    outcome: Record<string, unknown> | null,
    at: string,
  ): Promise<void> {
    this.#sql.run(
      'UPDATE execution_handoffs SET status = ?, outcome = ?, updated_at = ? WHERE action_id = ?',
      status,
      outcome === null ? null : JSON.stringify(outcome),
      at,
      actionId,
    );
  }
}

export class SqliteMerges implements MergeRepository {
  readonly #sql: Statements;
  constructor(sql: Statements) {
    this.#sql = sql;
  }

  async isMerged(projectId: string, prNumber: number): Promise<boolean> {
    return (
      this.#sql.one('SELECT 1 AS x FROM merged_prs WHERE project_id = ? AND pr_number = ?', projectId, prNumber) !==
      undefined
    );
  }

  async recordMerged(projectId: string, prNumber: number, actionId: string, at: string): Promise<boolean> {
    const changes = this.#sql.run(
      `INSERT INTO merged_prs (project_id, pr_number, action_id, merged_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (project_id, pr_number) DO NOTHING`,
      projectId,
      prNumber,
      actionId,
      at,
    );
    return changes === 1;
  }
}
