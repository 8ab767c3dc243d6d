// Named start-up failures. Messages name host, port and database (from DATABASE_URL, never its
// password) and the errno or SQLSTATE, so an operator can act without reading a stack trace.

export interface PostgresEndpoint {
  host: string;
  port: number;
  database: string;
}

/** Where a postgres:// URL points. A `host` query parameter (unix socket dir) wins, as in libpq. */
export function endpointOf(url: string): PostgresEndpoint {
  const parsed = new URL(url);
  const host =
    parsed.searchParams.get('host') ?? (decodeURIComponent(parsed.hostname.replace(/^\[(.*)\]$/, '$1')) || 'localhost');
  const port = Number(parsed.searchParams.get('port') ?? (parsed.port || 5432));
  const database = decodeURIComponent(parsed.pathname.slice(1)) || decodeURIComponent(parsed.username) || 'postgres';
  return { host, port, database };
}

const where = (e: PostgresEndpoint): string => `Postgres at ${e.host}:${e.port} (database "${e.database}")`;

/** The server could not be reached at all (refused, unknown host, timeout...). */
export class PostgresUnreachableError extends Error {
  override name = 'PostgresUnreachableError';
  readonly code = 'postgres_unreachable';
  readonly endpoint: PostgresEndpoint;
  /** The system error name (ECONNREFUSED, ENOTFOUND, ETIMEDOUT...). */
  readonly errno: string;
  /** The numeric errno when the system gave one (-111 for ECONNREFUSED on Linux). */
  readonly errnoNumber: number | null;

  constructor(endpoint: PostgresEndpoint, errno: { name: string; number: number | null }, options?: ErrorOptions) {
    const detail = errno.number === null ? errno.name : `${errno.name}, errno ${errno.number}`;
    super(
      `${where(endpoint)} is unreachable (${detail}); start the server or fix the host and port in DATABASE_URL`,
      options,
    );
    this.endpoint = endpoint;
    this.errno = errno.name;
    this.errnoNumber = errno.number;
  }
}

/** The server answered but refused us (authentication, unknown database) or the schema could not be migrated. */
export class PostgresStartError extends Error {
  override name = 'PostgresStartError';
  readonly code = 'postgres_start_failed';
  readonly endpoint: PostgresEndpoint;
  /** The server's SQLSTATE when it sent one. */
  readonly sqlState: string | null;

  constructor(
    endpoint: PostgresEndpoint,
    step: 'connect' | 'migrate',
    detail: string,
    sqlState: string | null,
    options?: ErrorOptions,
  ) {
    const what = step === 'connect' ? 'refused the connection' : 'could not be migrated';
    super(`${where(endpoint)} ${what}: ${detail}${sqlState ? ` (SQLSTATE ${sqlState})` : ''}`, options);
    this.endpoint = endpoint;
    this.sqlState = sqlState;
  }
}

interface SystemErrorLike {
  code?: unknown;
  errno?: unknown;
  errors?: unknown;
  message?: unknown;
}

/** A five-character SQLSTATE means the server itself answered. */
export const sqlStateOf = (error: unknown): string | null => {
  const code = (error as SystemErrorLike | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
};

/** The errno name of a network failure, looking inside AggregateError (IPv4 + IPv6 attempts). */
function errnoOf(error: unknown): { name: string; number: number | null } {
  const e = error as SystemErrorLike | null;
  if (Array.isArray(e?.errors)) {
    for (const inner of e.errors) {
      const found = errnoOf(inner);
      if (found.name !== 'unknown') return found;
    }
  }
  if (typeof e?.code === 'string' && e.code.startsWith('E'))
    return { name: e.code, number: typeof e.errno === 'number' ? e.errno : null };
  if (typeof e?.message === 'string' && /timeout/i.test(e.message)) return { name: 'ETIMEDOUT', number: null };
  return { name: 'unknown', number: null };
}

/** Turns a failure of the first connection into a named error. */
export function connectError(endpoint: PostgresEndpoint, error: unknown): Error {
  const sqlState = sqlStateOf(error);
  if (sqlState)
    return new PostgresStartError(endpoint, 'connect', String((error as Error).message), sqlState, { cause: error });
  return new PostgresUnreachableError(endpoint, errnoOf(error), { cause: error });
}
