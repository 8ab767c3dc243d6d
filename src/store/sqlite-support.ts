// Whether this Node's node:sqlite can carry the embedded store, checked before the SQLite store
// (which imports node:sqlite) is loaded: the published server runs on any Node 22, and where
// node:sqlite is missing or wrong the operator gets one named error instead of a crash or, worse,
// wrong answers.
import { SqliteUnavailableError } from './errors.ts';

/** The part of node:sqlite the check touches. */
export interface SqliteModule {
  DatabaseSync: new (path: string) => { prepare(sql: string): { get(): unknown }; close(): void };
}

export const SQLITE_MISSING =
  'it has no node:sqlite (that comes with Node 22.5, behind --experimental-sqlite until 22.13)';
export const SQLITE_ROW_FOR_NO_MATCH =
  'its node:sqlite answers a query that matches nothing with a row of NULLs (Node 22.5; fixed in 22.6)';

export async function assertSqliteUsable(
  load: () => Promise<SqliteModule> = () => import('node:sqlite'),
  nodeVersion = process.versions.node,
): Promise<void> {
  let sqlite: SqliteModule;
  try {
    sqlite = await load();
  } catch (error) {
    throw new SqliteUnavailableError(nodeVersion, SQLITE_MISSING, { cause: error });
  }
  const db = new sqlite.DatabaseSync(':memory:');
  try {
    // Every lookup by key would find a member, token or action that does not exist.
    if (db.prepare('SELECT 1 AS one WHERE 0').get() !== undefined)
      throw new SqliteUnavailableError(nodeVersion, SQLITE_ROW_FOR_NO_MATCH);
  } finally {
    db.close();
  }
}
