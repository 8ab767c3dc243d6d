// Agent turns suspended on a pending action. Durable so that a restart knows which turns died
// with the process (they go back to the blocked queue, source infra).
import type { AgentTurn, TurnRepository } from '../types.ts';
import { records, type Statements } from './rows.ts';

const { toTurn } = records;

export class SqliteTurns implements TurnRepository {
  readonly #sql: Statements;
  constructor(sql: Statements) {
    this.#sql = sql;
  }

  async suspend(turn: Omit<AgentTurn, 'state' | 'updatedAt'>): Promise<void> {
    this.#sql.run(
      `INSERT INTO agent_turns (action_id, project_id, agent_id, task_id, state, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'awaiting_approval', ?, ?) ON CONFLICT (action_id) DO NOTHING`,
      turn.actionId,
      turn.projectId,
      turn.agentId,
      turn.taskId,
      turn.createdAt,
      turn.createdAt,
    );
  }

  async get(actionId: string): Promise<AgentTurn | null> {
    const row = this.#sql.one('SELECT * FROM agent_turns WHERE action_id = ?', actionId);
    return row ? toTurn(row) : null;
  }

  async end(actionId: string, to: 'settled' | 'lost', at: string): Promise<boolean> {
    return (
      this.#sql.run(
        "UPDATE agent_turns SET state = ?, updated_at = ? WHERE action_id = ? AND state = 'awaiting_approval'",
        to,
        at,
        actionId,
      ) === 1
    );
  }

  async listAwaiting(limit: number): Promise<AgentTurn[]> {
    return this.#sql
      .all("SELECT * FROM agent_turns WHERE state = 'awaiting_approval' ORDER BY created_at, action_id LIMIT ?", limit)
      .map(toTurn);
  }
}
