import type { ActionType, ResolvedAutonomy } from '../../policy/index.ts';
import { AUTONOMY_WILDCARD as WILDCARD } from '../records.ts';
import type { AgentAutonomyRepository, AutonomyRule } from '../types.ts';
import { records, type Statements } from './rows.ts';

const { toAutonomyRule, toResolvedAutonomy } = records;

export class SqliteAgentAutonomy implements AgentAutonomyRepository {
  readonly #sql: Statements;
  constructor(sql: Statements) {
    this.#sql = sql;
  }

  async set(r: AutonomyRule): Promise<void> {
    this.#sql.run(
      `INSERT INTO agent_autonomy (project_id, agent_id, action_type, mode, updated_by, updated_at)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (project_id, agent_id, action_type) DO UPDATE SET mode = excluded.mode,
         updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
      r.projectId,
      r.agentId,
      r.actionType,
      r.mode,
      r.updatedBy,
      r.updatedAt,
    );
  }

  async get(projectId: string, agentId: string, actionType: ActionType | '*'): Promise<AutonomyRule | null> {
    const row = this.#sql.one(
      'SELECT * FROM agent_autonomy WHERE project_id = ? AND agent_id = ? AND action_type = ?',
      projectId,
      agentId,
      actionType,
    );
    return row ? toAutonomyRule(row) : null;
  }

  async resolve(projectId: string, agentId: string, actionType: ActionType): Promise<ResolvedAutonomy | null> {
    // One query for the specific rule and the wildcard; the specific one sorts first.
    const row = this.#sql.one(
      `SELECT mode, action_type FROM agent_autonomy
       WHERE project_id = ? AND agent_id = ? AND action_type IN (?, ?)
       ORDER BY CASE WHEN action_type = ? THEN 1 ELSE 0 END LIMIT 1`,
      projectId,
      agentId,
      actionType,
      WILDCARD,
      WILDCARD,
    );
    return row ? toResolvedAutonomy(row) : null;
  }

  async list(projectId: string): Promise<AutonomyRule[]> {
    return this.#sql
      .all('SELECT * FROM agent_autonomy WHERE project_id = ? ORDER BY agent_id, action_type', projectId)
      .map(toAutonomyRule);
  }
}
