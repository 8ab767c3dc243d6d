import type { ActionType, ResolvedAutonomy } from '../../policy/index.ts';
import { AUTONOMY_WILDCARD as WILDCARD } from '../records.ts';
import type { AgentAutonomyRepository, AutonomyRule } from '../types.ts';
import { records, type Sql } from './sql.ts';

const { toAutonomyRule, toResolvedAutonomy } = records;

export class PostgresAgentAutonomy implements AgentAutonomyRepository {
  readonly #sql: Sql;
  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async set(r: AutonomyRule): Promise<void> {
    await this.#sql.run(
      `INSERT INTO agent_autonomy (project_id, agent_id, action_type, mode, updated_by, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6)
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
    const row = await this.#sql.one(
      'SELECT * FROM agent_autonomy WHERE project_id = $1 AND agent_id = $2 AND action_type = $3',
      projectId,
      agentId,
      actionType,
    );
    return row ? toAutonomyRule(row) : null;
  }

  async resolve(projectId: string, agentId: string, actionType: ActionType): Promise<ResolvedAutonomy | null> {
    // One query for the specific rule and the wildcard; the specific one sorts first.
    const row = await this.#sql.one(
      `SELECT mode, action_type FROM agent_autonomy
       WHERE project_id = $1 AND agent_id = $2 AND action_type IN ($3, $4)
       ORDER BY (action_type = $4) LIMIT 1`,
      projectId,
      agentId,
      actionType,
      WILDCARD,
    );
    return row ? toResolvedAutonomy(row) : null;
  }

  async list(projectId: string): Promise<AutonomyRule[]> {
    return (
      await this.#sql.all(
        'SELECT * FROM agent_autonomy WHERE project_id = $1 ORDER BY agent_id COLLATE "C", action_type COLLATE "C"',
        projectId,
      )
    ).map(toAutonomyRule);
  }
}
