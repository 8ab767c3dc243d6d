import { str } from '../records.ts';
import { hashRunnerToken, isRunnerTokenShaped, mintRunnerToken } from '../runner-tokens.ts';
import type { RunnerTokenGrant, RunnerTokenRepository } from '../types.ts';
import { records, type Sql } from './sql.ts';

export class PostgresRunnerTokens implements RunnerTokenRepository {
  readonly #sql: Sql;
  constructor(sql: Sql) {
    this.#sql = sql;
  }

  async create(projectId: string): Promise<RunnerTokenGrant> {
    const { tokenId, token, tokenHash, createdAt } = mintRunnerToken();
    await this.#sql.run(
      'INSERT INTO runner_tokens (id, project_id, token_hash, created_at, revoked_at) VALUES ($1, $2, $3, $4, NULL)',
      tokenId,
      projectId,
      tokenHash,
      createdAt,
    );
    return { tokenId, projectId, token };
  }

  async verify(token: string): Promise<{ projectId: string; tokenId: string } | null> {
    if (!isRunnerTokenShaped(token)) return null;
    const row = await this.#sql.one(
      'SELECT id, project_id FROM runner_tokens WHERE token_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $2)',
      hashRunnerToken(token),
      new Date().toISOString(),
    );
    return row ? records.toRunnerTokenOwner(row) : null;
  }

  async revoke(tokenId: string): Promise<boolean> {
    const changes = await this.#sql.run(
      'UPDATE runner_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL',
      new Date().toISOString(),
      tokenId,
    );
    return changes === 1;
  }

  async projectOf(tokenId: string): Promise<string | null> {
    const row = await this.#sql.one('SELECT project_id FROM runner_tokens WHERE id = $1', tokenId);
    return row ? str(row.project_id) : null;
  }
}
