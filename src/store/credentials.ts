// The credential repository, written once for both adapters: the statements are the same SQL in
// both dialects, only the placeholder differs (`?` for SQLite, `$n` for Postgres) and whether the
// driver answers synchronously. Admin, agent, human, service and executor credentials live in `credentials`; runner
// tokens stay in `runner_tokens` (their format and verification are unchanged) and are listed,
// looked up and revoked through the same view with kind `runner`.
import { str, strOrNull, type Row } from './records.ts';
import type { CredentialFilter, CredentialRecord, CredentialRepository, StoredCredentialKind } from './types.ts';

/** What each adapter provides: run one statement written with `?` placeholders. */
export interface CredentialSql {
  one(sql: string, ...params: Array<string | number | null>): Promise<Row | undefined> | Row | undefined;
  all(sql: string, ...params: Array<string | number | null>): Promise<Row[]> | Row[];
  run(sql: string, ...params: Array<string | number | null>): Promise<number> | number;
  /** Postgres: a transaction-scoped advisory lock on admin credentials. SQLite: none needed (one writer). */
  lockAdminCredentials?(): Promise<void>;
}

/** `?` -> `$1, $2, ...` for Postgres (none of these statements has a `?` inside a literal). */
export const numberedPlaceholders = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

const RUNNER_COLUMNS = `id, 'runner' AS kind, project_id, NULL AS subject, label, created_by, created_at, expires_at, last_used_at, revoked_at`;
const CREDENTIAL_COLUMNS =
  'id, kind, project_id, subject, label, created_by, created_at, expires_at, last_used_at, revoked_at';

const toCredential = (row: Row): CredentialRecord => ({
  id: str(row.id),
  kind: str(row.kind) as StoredCredentialKind,
  projectId: strOrNull(row.project_id),
  subject: strOrNull(row.subject),
  label: strOrNull(row.label),
  createdBy: strOrNull(row.created_by),
  createdAt: str(row.created_at),
  expiresAt: strOrNull(row.expires_at),
  lastUsedAt: strOrNull(row.last_used_at),
  revokedAt: strOrNull(row.revoked_at),
});

export class SqlCredentials implements CredentialRepository {
  readonly #sql: CredentialSql;
  constructor(sql: CredentialSql) {
    this.#sql = sql;
  }

  async insert(r: CredentialRecord & { tokenHash: string }): Promise<void> {
    if (r.kind === 'runner') {
      await this.#sql.run(
        'INSERT INTO runner_tokens (id, project_id, token_hash, created_at, revoked_at, label, created_by, expires_at, last_used_at) VALUES (?, ?, ?, ?, NULL, ?, ?, ?, NULL)',
        r.id,
        r.projectId,
        r.tokenHash,
        r.createdAt,
        r.label,
        r.createdBy,
        r.expiresAt,
      );
      return;
    }
    await this.#sql.run(
      `INSERT INTO credentials (id, kind, token_hash, project_id, subject, label, created_by, created_at, expires_at, last_used_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)`,
      r.id,
      r.kind,
      r.tokenHash,
      r.projectId,
      r.subject,
      r.label,
      r.createdBy,
      r.createdAt,
      r.expiresAt,
    );
  }

  async insertIfAbsent(r: CredentialRecord & { tokenHash: string }): Promise<boolean> {
    if (r.kind === 'runner') throw new Error('insertIfAbsent: runner tokens are created with insert');
    const changed = await this.#sql.run(
      `INSERT INTO credentials (id, kind, token_hash, project_id, subject, label, created_by, created_at, expires_at, last_used_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL) ON CONFLICT DO NOTHING`,
      r.id,
      r.kind,
      r.tokenHash,
      r.projectId,
      r.subject,
      r.label,
      r.createdBy,
      r.createdAt,
      r.expiresAt,
    );
    return changed > 0;
  }

  async lockAdminCredentials(): Promise<void> {
    await this.#sql.lockAdminCredentials?.();
  }

  async findByHash(tokenHash: string): Promise<CredentialRecord | null> {
    const row =
      (await this.#sql.one(`SELECT ${CREDENTIAL_COLUMNS} FROM credentials WHERE token_hash = ?`, tokenHash)) ??
      (await this.#sql.one(`SELECT ${RUNNER_COLUMNS} FROM runner_tokens WHERE token_hash = ?`, tokenHash));
    return row ? toCredential(row) : null;
  }

  async get(id: string): Promise<CredentialRecord | null> {
    const row =
      (await this.#sql.one(`SELECT ${CREDENTIAL_COLUMNS} FROM credentials WHERE id = ?`, id)) ??
      (await this.#sql.one(`SELECT ${RUNNER_COLUMNS} FROM runner_tokens WHERE id = ?`, id));
    return row ? toCredential(row) : null;
  }

  async list(filter: CredentialFilter): Promise<CredentialRecord[]> {
    const where: string[] = [];
    const params: Array<string | number> = [];
    if (!filter.includeRevoked) where.push('revoked_at IS NULL');
    if (filter.projectId !== undefined) {
      where.push('project_id = ?');
      params.push(filter.projectId);
    }
    const runnerWhere = [...where];
    const runnerParams = [...params];
    if (filter.subject !== undefined) {
      where.push('subject = ?');
      params.push(filter.subject);
    }
    if (filter.kind !== undefined && filter.kind !== 'runner') {
      where.push('kind = ?');
      params.push(filter.kind);
    }
    const clause = (parts: string[]) => (parts.length > 0 ? ` WHERE ${parts.join(' AND ')}` : '');
    const rows: Row[] = [];
    if (filter.kind !== 'runner')
      rows.push(
        ...(await this.#sql.all(
          `SELECT ${CREDENTIAL_COLUMNS} FROM credentials${clause(where)} ORDER BY created_at, id LIMIT ?`,
          ...params,
          filter.limit,
        )),
      );
    if ((filter.kind === undefined || filter.kind === 'runner') && filter.subject === undefined) {
      rows.push(
        ...(await this.#sql.all(
          `SELECT ${RUNNER_COLUMNS} FROM runner_tokens${clause(runnerWhere)} ORDER BY created_at, id LIMIT ?`,
          ...runnerParams,
          filter.limit,
        )),
      );
    }
    return rows
      .map(toCredential)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0))
      .slice(0, filter.limit);
  }

  async revoke(id: string, at: string): Promise<boolean> {
    const changed =
      (await this.#sql.run('UPDATE credentials SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', at, id)) +
      (await this.#sql.run('UPDATE runner_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', at, id));
    return changed > 0;
  }

  async touch(id: string, at: string): Promise<void> {
    await this.#sql.run('UPDATE credentials SET last_used_at = ? WHERE id = ?', at, id);
    await this.#sql.run('UPDATE runner_tokens SET last_used_at = ? WHERE id = ?', at, id);
  }
}
