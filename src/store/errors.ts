// Errors both store adapters raise.

export class StoreClosedError extends Error {
  override name = 'StoreClosedError';
  readonly code = 'store_closed';
  constructor() {
    super('the store is closed (the server is shutting down); retry against a running server');
  }
}

/** A store fault an HTTP caller can retry: answered 503 with Retry-After, never a 500. */
export abstract class StoreFaultError extends Error {
  abstract readonly code: string;
  /** Seconds the caller should wait before retrying (the Retry-After header). */
  readonly retryAfterSeconds: number;
  constructor(message: string, retryAfterSeconds: number, options?: ErrorOptions) {
    super(message, options);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Every store connection is in use and none came free in time (pool exhaustion). */
export class StoreBusyError extends StoreFaultError {
  override name = 'StoreBusyError';
  readonly code = 'store_busy';
  constructor(waitedMs: number, options?: ErrorOptions) {
    super(`the store is busy: no database connection came free within ${waitedMs} ms; retry shortly`, 1, options);
  }
}

/** The database could not be reached or dropped the connection mid-work (failover, terminated backend). */
export class StoreUnavailableError extends StoreFaultError {
  override name = 'StoreUnavailableError';
  readonly code = 'store_unavailable';
  constructor(detail: string, options?: ErrorOptions) {
    super(`the store is unavailable (${detail}); the gateway reconnects on its own, retry shortly`, 2, options);
  }
}

/** The SQLite file cannot be used: corrupted, not a database, unreadable, or an unexpected empty file. */
export class StoreCorruptError extends Error {
  override name = 'StoreCorruptError';
  readonly code = 'store_corrupt';
  readonly path: string;
  constructor(path: string, problem: string, options?: ErrorOptions) {
    super(
      `the store ${path} ${problem}. Nothing was changed. Restore it from a backup (stop the gateway, copy the backup over it), ` +
        'or, to start over with an empty store and lose its actions and events, move it and its -wal/-shm files away and start again',
      options,
    );
    this.path = path;
  }
}

/** This Node's node:sqlite cannot carry the embedded store (sqlite-support.ts says why). */
export class SqliteUnavailableError extends Error {
  override name = 'SqliteUnavailableError';
  readonly code = 'sqlite_unavailable';
  constructor(nodeVersion: string, problem: string, options?: ErrorOptions) {
    super(
      `the embedded SQLite store cannot run on Node ${nodeVersion}: ${problem}; ` +
        'set BRABO_DATABASE_URL to a Postgres database, or upgrade Node to 22.13 or later',
      options,
    );
  }
}
