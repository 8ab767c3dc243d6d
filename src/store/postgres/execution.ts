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
import { jsonParam, records, type Sql } from './sql.ts';

const { toContainer, toHandoff } = records;

export class PostgresContainers implements ContainerRepository {
  readonly #sql: Sql;
  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async get(projectId: string): Promise<ContainerRecord | null> {
    const row = await this.#sql.one('SELECT * FROM project_containers WHERE project_id = $1', projectId);
    return row ? toContainer(row) : null;
  }

  async setState(projectId: string, state: ContainerLifecycle, containerId: string | null, at: string): Promise<void> {
    await this.#sql.run(
      `INSERT INTO project_containers (project_id, state, container_id, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (project_id) DO UPDATE SET state = excluded.state, container_id = excluded.container_id,
         updated_at = excluded.updated_at`,
      projectId,
      state,
      containerId,
      at,
    );
  }

  async list(): Promise<ContainerRecord[]> {
    return (await this.#sql.all('SELECT * FROM project_containers ORDER BY project_id COLLATE "C"')).map(toContainer);
  }
}

export class PostgresHandoffs implements HandoffRepository {
  readonly #sql: Sql;
  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async enqueue(h: Omit<Handoff, 'outcome' | 'updatedAt' | 'status'>): Promise<void> {
    await this.#sql.run(
      `INSERT INTO execution_handoffs (id, action_id, project_id, status, credential_ref, outcome, created_at, updated_at)
       VALUES ($1, $2, $3, 'queued', $4, NULL, $5, $5)`,
      h.id,
      h.actionId,
      h.projectId,
      h.credentialRef,
      h.createdAt,
    );
  }

  async getByAction(actionId: string): Promise<Handoff | null> {
    const row = await this.#sql.one('SELECT * FROM execution_handoffs WHERE action_id = $1', actionId);
    return row ? toHandoff(row) : null;
  }

  async listQueued(limit: number): Promise<Handoff[]> {
    const rows = await this.#sql.all(
      "SELECT * FROM execution_handoffs WHERE status = 'queued' ORDER BY created_at, id LIMIT $1",
      limit,
    );
    return rows.map(toHandoff);
  }

  async setStatus(
    actionId: string,
    status: HandoffStatus,
    outcome: Record<string, unknown> | null,
    at: string,
  ): Promise<void> {
    await this.#sql.run(
      'UPDATE execution_handoffs SET status = $1, outcome = $2, updated_at = $3 WHERE action_id = $4',
      status,
      outcome === null ? null : jsonParam(outcome),
      at,
      actionId,
    );
  }
}

export class PostgresMerges implements MergeRepository {
  readonly #sql: Sql;
  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async isMerged(projectId: string, prNumber: number): Promise<boolean> {
    return (
      (await this.#sql.one(
        'SELECT 1 AS x FROM merged_prs WHERE project_id = $1 AND pr_number = $2',
        projectId,
        prNumber,
      )) !== undefined
    );
  }

  async recordMerged(projectId: string, prNumber: number, actionId: string, at: string): Promise<boolean> {
    // A concurrent insert of the same PR waits for the other transaction, then does nothing.
    const changes = await this.#sql.run(
      `INSERT INTO merged_prs (project_id, pr_number, action_id, merged_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (project_id, pr_number) DO NOTHING`,
      projectId,
      prNumber,
      actionId,
      at,
    );
    return changes === 1;
  }
}
