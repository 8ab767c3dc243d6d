// Agent turns suspended on a pending action. Durable so that a restart knows which turns died
// with the process (they go back to the blocked queue, source infra).
import type { AgentTurn, TurnRepository } from '../types.ts';
import { records, type Sql } from './sql.ts';

const { toTurn } = records;

export class PostgresTurns implements TurnRepository {
  readonly #sql: Sql;
  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async suspend(turn: Omit<AgentTurn, 'state' | 'updatedAt'>): Promise<void> {
    await this.#sql.run(
      `INSERT INTO agent_turns (action_id, project_id, agent_id, task_id, state, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'awaiting_approval', $5, $5) ON CONFLICT (action_id) DO NOTHING`,
      turn.actionId,
      turn.projectId,
      turn.agentId,
      turn.taskId,
      turn.createdAt,
    );
  }

  async get(actionId: string): Promise<AgentTurn | null> {
    const row = await this.#sql.one('SELECT * FROM agent_turns WHERE action_id = $1', actionId);
    return row ? toTurn(row) : null;
  }

  async end(actionId: string, to: 'settled' | 'lost', at: string): Promise<boolean> {
    const changes = await this.#sql.run(
      "UPDATE agent_turns SET state = $1, updated_at = $2 WHERE action_id = $3 AND state = 'awaiting_approval'",
      to,
      at,
      actionId,
    );
    return changes === 1;
  }

  async listAwaiting(limit: number): Promise<AgentTurn[]> {
    const rows = await this.#sql.all(
      "SELECT * FROM agent_turns WHERE state = 'awaiting_approval' ORDER BY created_at, action_id LIMIT $1",
      limit,
    );
    return rows.map(toTurn);
  }
}
