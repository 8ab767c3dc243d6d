export type * from './types.ts';
export { openSqliteStore, SqliteStore, StoreClosedError, SQLITE_FILE_NAME } from './sqlite/store.ts';
export { hashRunnerToken } from './sqlite/runner-tokens.ts';
export { PermissionsFile, type PermissionsSnapshot, PermissionsWriteError } from './permissions-file.ts';
