// The dispatcher's view of execution_handoffs: state machine queued -> sent -> accepted -> running
// -> executed | failed, with an attempt counter that fences stale results. Every move is a
// conditional UPDATE, so two writers (or a late result) can never both win. `status` (the coarse
// column the approval side reads) is kept in step by the same statement.
import {
  type Dispatch,
  type DispatchFence,
  type DispatchRepository,
  type DispatchState,
  OUTCOME_UNKNOWN,
} from '../types.ts';
import { withinOpenFence } from '../dispatch-fence.ts';
import { records, type Statements } from './rows.ts';

const { toDispatch } = records;

/** The coarse status column for each state. */
const STATUS_SQL = `CASE :state WHEN 'queued' THEN 'queued' WHEN 'executed' THEN 'executed' WHEN 'failed' THEN 'failed' ELSE 'dispatched' END`;
const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

export class SqliteDispatches implements DispatchRepository {
  readonly #sql: Statements;
  constructor(sql: Statements) {
    this.#sql = sql;
  }

  async get(id: string): Promise<Dispatch | null> {
    const row = this.#sql.one('SELECT * FROM execution_handoffs WHERE id = ?', id);
    return row ? toDispatch(row) : null;
  }

  async getByAction(actionId: string): Promise<Dispatch | null> {
    const row = this.#sql.one('SELECT * FROM execution_handoffs WHERE action_id = ?', actionId);
    return row ? toDispatch(row) : null;
  }

  async listInStates(states: readonly DispatchState[], limit: number): Promise<Dispatch[]> {
    if (states.length === 0) return [];
    return this.#sql
      .all(
        `SELECT * FROM execution_handoffs WHERE state IN (${placeholders(states.length)}) ORDER BY created_at, id LIMIT ?`,
        ...states,
        limit,
      )
      .map(toDispatch);
  }

  async listQueuedOfType(actionType: string, projectId: string | null, limit: number): Promise<Dispatch[]> {
    return this.#sql
      .all(
        `SELECT h.* FROM execution_handoffs h JOIN proposed_actions a ON a.id = h.action_id
         WHERE h.state = 'queued' AND a.action_type = ? AND (? IS NULL OR h.project_id = ?)
         ORDER BY h.created_at, h.id LIMIT ?`,
        actionType,
        projectId,
        projectId,
        limit,
      )
      .map(toDispatch);
  }

  async listLeaseExpired(targetPrefix: string, before: string, limit: number): Promise<Dispatch[]> {
    return this.#sql
      .all(
        `SELECT * FROM execution_handoffs
         WHERE state IN ('sent', 'accepted', 'running') AND substr(target, 1, ?) = ? AND lease_until IS NOT NULL AND lease_until < ?
         ORDER BY lease_until, id LIMIT ?`,
        targetPrefix.length,
        targetPrefix,
        before,
        limit,
      )
      .map(toDispatch);
  }

  async claim(
    id: string,
    to: 'sent' | 'running',
    target: string,
    leaseUntil: string | null,
    at: string,
    owner: string | null = null,
  ): Promise<Dispatch | null> {
    const changed = this.#sql.run(
      `UPDATE execution_handoffs SET state = :state, status = 'dispatched', attempt = attempt + 1, target = :target,
         lease_until = :lease, sent_at = :at, started_at = CASE :state WHEN 'running' THEN :at ELSE NULL END, updated_at = :at,
         owner_node = :owner
       WHERE id = :id AND state = 'queued'`,
      { state: to, target, lease: leaseUntil, at, id, owner } as never,
    );
    return changed === 1 ? this.get(id) : null;
  }

  async advance(
    id: string,
    attempt: number,
    from: readonly DispatchState[],
    to: DispatchState,
    at: string,
    leaseUntil?: string | null,
  ): Promise<boolean> {
    const keepLease = leaseUntil === undefined;
    return (
      this.#sql.run(
        `UPDATE execution_handoffs SET state = ?, status = ${STATUS_SQL.replaceAll(':state', '?')},
           started_at = CASE WHEN ? = 'running' AND started_at IS NULL THEN ? ELSE started_at END,
           lease_until = CASE WHEN ? THEN lease_until ELSE ? END, updated_at = ?
         WHERE id = ? AND attempt = ? AND state IN (${placeholders(from.length)})`,
        to,
        to,
        to,
        at,
        keepLease ? 1 : 0,
        leaseUntil ?? null,
        at,
        id,
        attempt,
        ...from,
      ) === 1
    );
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
      (from) =>
        this.#sql.run(
          `UPDATE execution_handoffs SET state = ?, status = ?, outcome = ?, lease_until = NULL, finished_at = ?, updated_at = ?
           WHERE id = ? AND state IN (${placeholders(from.length)}) AND attempt = ?`,
          state,
          state,
          JSON.stringify(outcome),
          at,
          at,
          id,
          ...from,
          fence.attempt,
        ) === 1,
    );
  }

  async resolveUnknown(
    id: string,
    attempt: number,
    state: 'executed' | 'failed',
    outcome: Record<string, unknown>,
    at: string,
  ): Promise<boolean> {
    return (
      this.#sql.run(
        `UPDATE execution_handoffs SET state = ?, status = ?, outcome = ?, finished_at = ?, updated_at = ?
         WHERE id = ? AND state = 'failed' AND json_extract(outcome, '$.code') = ? AND json_extract(outcome, '$.detail.attempt') = ?`,
        state,
        state,
        JSON.stringify(outcome),
        at,
        at,
        id,
        OUTCOME_UNKNOWN,
        attempt,
      ) === 1
    );
  }

  async noteReport(id: string, attempt: number, at: string): Promise<boolean> {
    return (
      this.#sql.run(
        'INSERT OR IGNORE INTO dispatch_reports (dispatch_id, attempt, recorded_at) VALUES (?, ?, ?)',
        id,
        attempt,
        at,
      ) === 1
    );
  }
}
