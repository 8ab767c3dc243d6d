import type { ActionListFilter, ActionRepository, NewProposedAction, ProposedAction } from '../types.ts';
import { records, type Statements } from './rows.ts';

const { toAction } = records;

export class SqliteActions implements ActionRepository {
  readonly #sql: Statements;
  constructor(sql: Statements) {
    this.#sql = sql;
  }

  async insert(a: NewProposedAction): Promise<void> {
    this.#sql.run(
      `INSERT INTO proposed_actions (id, project_id, proposer_id, proposer_kind, action_type, payload, status,
         reason_code, reason, scope_root, decided_by, decided_at, denial_reason, live_merge_key, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL, ?, ?)`,
      a.id,
      a.projectId,
      a.proposerId,
      a.proposerKind,
      a.actionType,
      JSON.stringify(a.payload),
      a.status,
      a.reasonCode,
      a.reason,
      a.scopeRoot,
      a.decidedAt,
      a.liveMergeKey,
      a.createdAt,
    );
  }

  async get(id: string): Promise<ProposedAction | null> {
    const row = this.#sql.one('SELECT * FROM proposed_actions WHERE id = ?', id);
    return row ? toAction(row) : null;
  }

  async list(projectId: string, filter: ActionListFilter): Promise<ProposedAction[]> {
    const rows = filter.status
      ? this.#sql.all(
          'SELECT * FROM proposed_actions WHERE project_id = ? AND status = ? ORDER BY created_at, id LIMIT ?',
          projectId,
          filter.status,
          filter.limit,
        )
      : this.#sql.all(
          'SELECT * FROM proposed_actions WHERE project_id = ? ORDER BY created_at, id LIMIT ?',
          projectId,
          filter.limit,
        );
    return rows.map(toAction);
  }

  async countPendingByType(): Promise<Array<{ actionType: string; count: number }>> {
    const rows = this.#sql.all(
      "SELECT action_type, COUNT(*) AS n FROM proposed_actions WHERE status = 'pending' GROUP BY action_type",
    );
    return rows.map((row) => ({ actionType: String(row['action_type']), count: Number(row['n']) }));
  }

  async decideIfPending(
    id: string,
    to: 'approved' | 'denied',
    decidedBy: string,
    at: string,
    denialReason: string | null,
  ): Promise<boolean> {
    const changes = this.#sql.run(
      `UPDATE proposed_actions SET status = ?, decided_by = ?, decided_at = ?, denial_reason = ?
       WHERE id = ? AND status = 'pending'`,
      to,
      decidedBy,
      at,
      denialReason,
      id,
    );
    return changes === 1;
  }

  async liveMergeExists(mergeKey: string): Promise<boolean> {
    return this.#sql.one('SELECT 1 AS x FROM proposed_actions WHERE live_merge_key = ?', mergeKey) !== undefined;
  }

  async releaseMergeKey(actionId: string): Promise<void> {
    this.#sql.run('UPDATE proposed_actions SET live_merge_key = NULL WHERE id = ?', actionId);
  }
}
