import type { ActionListFilter, ActionRepository, NewProposedAction, ProposedAction } from '../types.ts';
import { LOCK_CLASS } from './locks.ts';
import { jsonParam, records, type Sql } from './sql.ts';

const { toAction } = records;

export class PostgresActions implements ActionRepository {
  readonly #sql: Sql;
  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async insert(a: NewProposedAction): Promise<void> {
    await this.#sql.run(
      `INSERT INTO proposed_actions (id, project_id, proposer_id, proposer_kind, action_type, payload, status,
         reason_code, reason, scope_root, decided_by, decided_at, denial_reason, live_merge_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, $11, NULL, $12, $13)`,
      a.id,
      a.projectId,
      a.proposerId,
      a.proposerKind,
      a.actionType,
      jsonParam(a.payload),
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
    const row = await this.#sql.one('SELECT * FROM proposed_actions WHERE id = $1', id);
    return row ? toAction(row) : null;
  }

  async list(projectId: string, filter: ActionListFilter): Promise<ProposedAction[]> {
    const rows = filter.status
      ? await this.#sql.all(
          'SELECT * FROM proposed_actions WHERE project_id = $1 AND status = $2 ORDER BY created_at, id LIMIT $3',
          projectId,
          filter.status,
          filter.limit,
        )
      : await this.#sql.all(
          'SELECT * FROM proposed_actions WHERE project_id = $1 ORDER BY created_at, id LIMIT $2',
          projectId,
          filter.limit,
        );
    return rows.map(toAction);
  }

  async countPendingByType(): Promise<Array<{ actionType: string; count: number }>> {
    const rows = await this.#sql.all(
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
    // Under READ COMMITTED a concurrent decider blocks on the row lock, then re-checks
    // `status = 'pending'` against the committed row: exactly one caller changes it.
    const changes = await this.#sql.run(
      `UPDATE proposed_actions SET status = $1, decided_by = $2, decided_at = $3, denial_reason = $4
       WHERE id = $5 AND status = 'pending'`,
      to,
      decidedBy,
      at,
      denialReason,
      id,
    );
    return changes === 1;
  }

  async liveMergeExists(mergeKey: string): Promise<boolean> {
    // The check guards an insert in the same transaction. Without the lock, a second proposal of
    // the PR would not see the first one's uncommitted row and would hit the unique index (an
    // error) instead of being told merge_ja_proposto; with it, it waits for the first to commit,
    // then its check (a new snapshot under READ COMMITTED) sees the row.
    await this.#sql.run(
      "SELECT pg_advisory_xact_lock($1, hashtext(current_schema() || ':' || $2))",
      LOCK_CLASS.mergeKey,
      mergeKey,
    );
    return (
      (await this.#sql.one('SELECT 1 AS x FROM proposed_actions WHERE live_merge_key = $1', mergeKey)) !== undefined
    );
  }

  async releaseMergeKey(actionId: string): Promise<void> {
    await this.#sql.run('UPDATE proposed_actions SET live_merge_key = NULL WHERE id = $1', actionId);
  }
}
