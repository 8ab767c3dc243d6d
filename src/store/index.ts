import type { Logger } from '../logger.ts';
import { openPostgresStore } from './postgres/store.ts';
import { openSqliteStore } from './sqlite/store.ts';
import type { Store } from './types.ts';

export type * from './types.ts';
export { openSqliteStore, SqliteStore, SQLITE_FILE_NAME } from './sqlite/store.ts';
export { StoreBusyError, StoreClosedError, StoreCorruptError, StoreFaultError, StoreUnavailableError } from './errors.ts';
export { hashRunnerToken } from './runner-tokens.ts';
export { PermissionsFile, type PermissionsSnapshot, PermissionsWriteError } from './permissions-file.ts';
export { openPostgresStore, PostgresStore, type PostgresStoreOptions } from './postgres/store.ts';
export { PostgresStartError, PostgresUnreachableError } from './postgres/errors.ts';

/**
 * The store a deployment configured: Postgres when `databaseUrl` is set (config.ts accepts only
 * postgres:// and postgresql:// there), else the embedded SQLite file in `dataDir`.
 */
export async function openStore(
  config: { dataDir: string; databaseUrl?: string | null },
  options: { logger?: Logger } = {},
): Promise<Store> {
  if (config.databaseUrl) return openPostgresStore(config.databaseUrl, options.logger ? { logger: options.logger } : {});
  return openSqliteStore(config.dataDir);
}
