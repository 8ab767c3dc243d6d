import type { Logger } from '../logger.ts';
import { openPostgresStore } from './postgres/store.ts';
import { assertSqliteUsable } from './sqlite-support.ts';
import type { Store } from './types.ts';

export type * from './types.ts';
export {
  StoreBusyError,
  StoreClosedError,
  StoreCorruptError,
  StoreFaultError,
  StoreUnavailableError,
  SqliteUnavailableError,
} from './errors.ts';
export { hashRunnerToken } from './runner-tokens.ts';
export { PermissionsFile, type PermissionsSnapshot, PermissionsWriteError } from './permissions-file.ts';
export { openPostgresStore, PostgresStore, type PostgresStoreOptions } from './postgres/store.ts';
export { PostgresStartError, PostgresUnreachableError } from './postgres/errors.ts';

/**
 * The store a deployment configured: Postgres when `databaseUrl` is set (config.ts accepts only
 * postgres:// and postgresql:// there), else the embedded SQLite file in `dataDir`. The SQLite
 * store is loaded only here, on demand, once this Node's node:sqlite proved usable
 * (sqlite-support.ts): it is missing before Node 22.5, wrong in 22.5, and needs
 * --experimental-sqlite before 22.13 (bin/brabo.js adds it); a Postgres deployment must start
 * without it.
 */
export async function openStore(
  config: { dataDir: string; databaseUrl?: string | null },
  options: { logger?: Logger } = {},
): Promise<Store> {
  if (config.databaseUrl) {
    return openPostgresStore(config.databaseUrl, {
      ...(options.logger ? { logger: options.logger } : {}),
      ...poolSizes(process.env),
    });
  }
  await assertSqliteUsable();
  const { openSqliteStore } = await import('./sqlite/store.ts');
  return openSqliteStore(config.dataDir);
}

/**
 * BRABO_PG_WRITERS / BRABO_PG_READERS: pool sizes per node (default 8 + 8). Several nodes share
 * the server's max_connections (README "Scaling out", connection budget).
 */
function poolSizes(env: NodeJS.ProcessEnv): { maxWriters?: number; maxReaders?: number } {
  const size = (name: string): number | undefined => {
    const value = env[name];
    if (value === undefined || value === '') return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 1000)
      throw new StorePoolConfigError(
        `${name} must be a whole number of connections from 1 to 1000, got ${JSON.stringify(value).slice(0, 40)}`,
      );
    return n;
  };
  const writers = size('BRABO_PG_WRITERS');
  const readers = size('BRABO_PG_READERS');
  return { ...(writers ? { maxWriters: writers } : {}), ...(readers ? { maxReaders: readers } : {}) };
}

export class StorePoolConfigError extends Error {
  override name = 'StorePoolConfigError';
  readonly code = 'store_pool_config_invalid';
}
