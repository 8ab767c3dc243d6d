import { str } from '../records.ts';
import { hashRunnerToken, isRunnerTokenShaped, mintRunnerToken } from '../runner-tokens.ts';
import type { RunnerTokenGrant, RunnerTokenRepository } from '../types.ts';
import { records, type Statements } from './rows.ts';

export class SqliteRunnerTokens implements RunnerTokenRepository {
  readonly #sql: Statements;
  constructor(sql: Statements) {
    this.#sql = sql;
  }

  async create(projectId: string): Promise<RunnerTokenGrant> {
    const { tokenId, token, tokenHash, createdAt } = mintRunnerToken();
    this.#sql.run(
      'INSERT INTO runner_tokens (id, project_id, token_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, NULL)',
      tokenId,
      projectId,
      tokenHash,
      createdAt,
    );
    return { tokenId, projectId, token };
  }

  async verify(token: string): Promise<{ projectId: string; tokenId: string } | null> {
    if (!isRunnerTokenShaped(token)) return null;
    const row = this.#sql.one(
      'SELECT id, project_id FROM runner_tokens WHERE token_hash = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)',
      hashRunnerToken(token),
      new Date().toISOString(),
    );
    return row ? records.toRunnerTokenOwner(row) : null;
  }

  async revoke(tokenId: string): Promise<boolean> {
    return (
      this.#sql.run(
        'UPDATE runner_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
        new Date().toISOString(),
        tokenId,
      ) === 1
    );
  }

  async projectOf(tokenId: string): Promise<string | null> {
    const row = this.#sql.one('SELECT project_id FROM runner_tokens WHERE id = ?', tokenId);
    return row ? str(row.project_id) : null;
  }
}
