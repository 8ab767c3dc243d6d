// The dispatcher's view of execution_handoffs: state machine queued -> sent -> accepted -> running
// -> executed | failed, with an attempt counter that fences stale results. Every move is a
// conditional UPDATE: under READ COMMITTED a concurrent writer waits for the row lock and then
// re-checks the WHERE clause against the committed row, so two nodes (or a late result) never
// both win. `status` (the coarse column the approval side reads) moves in the same statement.
import {
  type Dispatch,
  type DispatchFence,
  type DispatchRepository,
  type DispatchState,
  OUTCOME_UNKNOWN,
} from '../types.ts';
import { withinOpenFence } from '../dispatch-fence.ts';
import { records, type Sql } from './sql.ts';

const { toDispatch } = records;

/** The coarse status column for the state in parameter $1. */
const STATUS_OF_STATE = `CASE $1::text WHEN 'queued' THEN 'queued' WHEN 'executed' THEN 'executed' WHEN 'failed' THEN 'failed' ELSE 'dispatched' END`;

export class PostgresDispatches implements DispatchRepository {
  readonly #sql: Sql;
  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async get(id: string): Promise<Dispatch | null> {
    const row = await this.#sql.one('SELECT * FROM execution_handoffs WHERE id = $1', id);
    return row ? toDispatch(row) : null;
  }

  async getByAction(actionId: string): Promise<Dispatch | null> {
    const row = await this.#sql.one('SELECT * FROM execution_handoffs WHERE action_id = $1', actionId);
    return row ? toDispatch(row) : null;
  }

  async listInStates(states: readonly DispatchState[], limit: number): Promise<Dispatch[]> {
    if (states.length === 0) return [];
    const rows = await this.#sql.all(
      'SELECT * FROM execution_handoffs WHERE state = ANY($1::text[]) ORDER BY created_at, id LIMIT $2',
      [...states],
      limit,
    );
    return rows.map(toDispatch);
  }

  async listQueuedOfType(actionType: string, projectId: string | null, limit: number): Promise<Dispatch[]> {
    const rows = await this.#sql.all(
      `SELECT h.* FROM execution_handoffs h JOIN proposed_actions a ON a.id = h.action_id
       WHERE h.state = 'queued' AND a.action_type = $1 AND ($2::text IS NULL OR h.project_id = $2)
       ORDER BY h.created_at, h.id LIMIT $3`,
      actionType,
      projectId,
      limit,
    );
    return rows.map(toDispatch);
  }

  async listLeaseExpired(targetPrefix: string, before: string, limit: number): Promise<Dispatch[]> {
    const rows = await this.#sql.all(
      `SELECT * FROM execution_handoffs
       WHERE state IN ('sent', 'accepted', 'running') AND left(target, length($1)) = $1 AND lease_until IS NOT NULL AND lease_until < $2
       ORDER BY lease_until, id LIMIT $3`,
      targetPrefix,
      before,
      limit,
    );
    return rows.map(toDispatch);
  }

  async claim(
    id: string,
    to: 'sent' | 'running',
    target: string,
    leaseUntil: string | null,
    at: string,
    owner: string | null = null,
  ): Promise<Dispatch | null> {
    const row = await this.#sql.one(
      `UPDATE execution_handoffs SET state = $1, status = 'dispatched', attempt = attempt + 1, target = $2,
         lease_until = $3, sent_at = $4, started_at = CASE WHEN $1::text = 'running' THEN $4 ELSE NULL END, updated_at = $4,
         owner_node = $6
       WHERE id = $5 AND state = 'queued' RETURNING *`,
      to,
      target,
      leaseUntil,
      at,
      id,
      owner,
    );
    return row ? toDispatch(row) : null;
  }

  async advance(
    id: string,
    attempt: number,
    from: readonly DispatchState[],
    to: DispatchState,
    at: string,
    leaseUntil?: string | null,
  ): Promise<boolean> {
    const changes = await this.#sql.run(
      `UPDATE execution_handoffs SET state = $1, status = ${STATUS_OF_STATE},
         started_at = CASE WHEN $1::text = 'running' AND started_at IS NULL THEN $2 ELSE started_at END,
         lease_until = CASE WHEN $3::boolean THEN lease_until ELSE $4 END, updated_at = $2
       WHERE id = $5 AND attempt = $6 AND state = ANY($7::text[])`,
      to,
      at,
      leaseUntil === undefined,
      leaseUntil ?? null,
      id,
      attempt,
      [...from],
    );
    return changes === 1;
  }

  async finish(
    id: string,
    fence: DispatchFence,
    state: 'executed' | 'failed',
    outcome: Record<string, unknown>,
    at: string,
  ): Promise<boolean> {
    return withinOpenFence(
      fence,
      async (from) =>
        (await this.#sql.run(
          `UPDATE execution_handoffs SET state = $1, status = $1, outcome = $2, lease_until = NULL, finished_at = $3, updated_at = $3
           WHERE id = $4 AND state = ANY($5::text[]) AND attempt = $6`,
          state,
          JSON.stringify(outcome),
          at,
          id,
          from,
          fence.attempt,
        )) === 1,
    );
  }

  async resolveUnknown(
    id: string,
    attempt: number,
    state: 'executed' | 'failed',
    outcome: Record<string, unknown>,
    at: string,
  ): Promise<boolean> {
    const changes = await this.#sql.run(
      `UPDATE execution_handoffs SET state = $1, status = $1, outcome = $2, finished_at = $3, updated_at = $3
       WHERE id = $4 AND state = 'failed' AND outcome->>'code' = $5 AND (outcome->'detail'->>'attempt')::integer = $6`,
      state,
      JSON.stringify(outcome),
      at,
      id,
      OUTCOME_UNKNOWN,
      attempt,
    );
    return changes === 1;
  }

  async noteReport(id: string, attempt: number, at: string): Promise<boolean> {
    const changes = await this.#sql.run(
      'INSERT INTO dispatch_reports (dispatch_id, attempt, recorded_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      id,
      attempt,
      at,
    );
    return changes === 1;
  }
}
