// Which Postgres errors are faults of the connection (the server went away, a backend was
// terminated, a failover is under way) rather than of the statement, and reconnecting with
// backoff. A statement error (constraint, syntax) is never retried here.

/** SQLSTATEs of a session the server ended or refused: admin/crash shutdown, cannot connect now, connection exceptions, too many connections. */
const CONNECTION_SQLSTATES: ReadonlySet<string> = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
]);
const CONNECTION_ERRNOS: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

export function isConnectionFault(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (CONNECTION_SQLSTATES.has(code) || CONNECTION_ERRNOS.has(code))) return true;
  const message = String((error as { message?: unknown } | null)?.message ?? '');
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable|Client was closed/i.test(
    message,
  );
}

/** pg-pool's error when every client stayed busy for connectionTimeoutMillis. */
export const isPoolTimeout = (error: unknown): boolean =>
  /timeout exceeded when trying to connect/i.test(String((error as { message?: unknown } | null)?.message ?? ''));

/** Waits before reconnect attempt `n` (0-based): 50, 100, 200, 400, 800 ms, with jitter so nodes do not reconnect in step. */
export function backoffMs(n: number): number {
  const base = 50 * 2 ** Math.min(n, 5);
  return base / 2 + Math.random() * (base / 2);
}

export const RECONNECT_ATTEMPTS = 6;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
