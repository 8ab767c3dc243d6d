import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { RunnerTokenGrant, RunnerTokenRepository } from '../types.ts';
import { type Statements, str } from './rows.ts';

/** Tokens are 32 random bytes, base64url; only their sha256 is stored. */
export const hashRunnerToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export class SqliteRunnerTokens implements RunnerTokenRepository {
  readonly #sql: Statements;
  constructor(sql: Statements) {
    this.#sql = sql;
  }

  async create(projectId: string): Promise<RunnerTokenGrant> {
    const token = randomBytes(32).toString('base64url');
    const tokenId = randomUUID();
    this.#sql.run(
      'INSERT INTO runner_tokens (id, project_id, token_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, NULL)',
      tokenId, projectId, hashRunnerToken(token), new Date().toISOString(),
    );
    return { tokenId, projectId, token };
  }

  async verify(token: string): Promise<{ projectId: string; tokenId: string } | null> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 200) return null;
    // Lookup by the digest: the comparison never touches the secret itself.
    const row = this.#sql.one(
      'SELECT id, project_id FROM runner_tokens WHERE token_hash = ? AND revoked_at IS NULL',
      hashRunnerToken(token),
    );
    return row ? { projectId: str(row.project_id), tokenId: str(row.id) } : null;
  }

  async revoke(tokenId: string): Promise<boolean> {
    return this.#sql.run('UPDATE runner_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', new Date().toISOString(), tokenId) === 1;
  }

  async projectOf(tokenId: string): Promise<string | null> {
    const row = this.#sql.one('SELECT project_id FROM runner_tokens WHERE id = ?', tokenId);
    return row ? str(row.project_id) : null;
  }
}
