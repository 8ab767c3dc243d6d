// A start-up failure as the operator reads it: one line `brabo <command>: <code>: <sentence with
// the next step>`, exit 2 for usage (flags, variables) and 1 for the rest, and a stack trace
// only when BRABO_DEBUG is set. Known causes (a port in use, a data dir that cannot be written)
// get their own code; anything else is `start_failed` with the error's own message.
import { AdminTokenKindError } from '../auth/admin-bootstrap.ts';
import { ClusterConfigError } from '../cluster/config.ts';
import { ConfigError } from '../config.ts';
import { StorePoolConfigError } from '../store/index.ts';
import { SqliteUnavailableError, StoreCorruptError } from '../store/errors.ts';
import { PostgresStartError, PostgresUnreachableError } from '../store/postgres/errors.ts';

export const EXIT_USAGE = 2;
export const EXIT_FAILURE = 1;

export interface StartupFailure {
  code: string;
  message: string;
  exitCode: number;
}

export interface FailureContext {
  host?: string;
  port?: number;
  dataDir?: string;
}

function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : undefined;
}

export function describeStartupFailure(error: unknown, context: FailureContext = {}): StartupFailure {
  if (
    error instanceof ConfigError ||
    error instanceof ClusterConfigError ||
    error instanceof StorePoolConfigError ||
    error instanceof AdminTokenKindError
  ) {
    return { code: error.code, message: error.message, exitCode: EXIT_USAGE };
  }
  if (
    error instanceof PostgresUnreachableError ||
    error instanceof PostgresStartError ||
    error instanceof StoreCorruptError ||
    error instanceof SqliteUnavailableError
  ) {
    return { code: error.code, message: error.message, exitCode: EXIT_FAILURE };
  }
  const errno = errnoOf(error);
  const message = error instanceof Error ? error.message : String(error);
  const where =
    context.host !== undefined && context.port !== undefined ? `${context.host}:${context.port}` : 'the address';
  if (errno === 'EADDRINUSE') {
    return {
      code: 'port_in_use',
      message: `${where} is already in use by another process; pass --port N (or BRABO_PORT), or stop the other process`,
      exitCode: EXIT_FAILURE,
    };
  }
  if (errno === 'EADDRNOTAVAIL' || errno === 'ENOTFOUND' || errno === 'EAI_AGAIN') {
    return {
      code: 'host_not_available',
      message: `cannot listen on ${where}: this machine has no such address (${errno}); pass --host 127.0.0.1 or an address of this machine`,
      exitCode: EXIT_FAILURE,
    };
  }
  if ((errno === 'EACCES' || errno === 'EPERM') && /listen/i.test(message)) {
    return {
      code: 'port_not_allowed',
      message: `this user may not listen on ${where} (${errno}); pass --port 1024 or above`,
      exitCode: EXIT_FAILURE,
    };
  }
  if (
    errno !== undefined &&
    ['ENOTDIR', 'EACCES', 'EPERM', 'EROFS', 'EEXIST', 'ENOENT', 'ENOSPC', 'EISDIR'].includes(errno)
  ) {
    const dir = context.dataDir ?? 'the data dir';
    return {
      code: 'data_dir_unusable',
      message: `cannot use the data dir ${dir} (${message.startsWith(errno) ? message : `${errno}: ${message}`}); pass --data-dir (or BRABO_DATA_DIR) a folder this user can create and write`,
      exitCode: EXIT_FAILURE,
    };
  }
  return {
    code: 'start_failed',
    message: `${message}; run again with BRABO_DEBUG=1 for the stack trace`,
    exitCode: EXIT_FAILURE,
  };
}

/** Writes the one line (plus the stack under BRABO_DEBUG) and returns the exit code. */
export function reportStartupFailure(
  command: string,
  error: unknown,
  context: FailureContext = {},
  env: NodeJS.ProcessEnv = process.env,
): number {
  const failure = describeStartupFailure(error, context);
  process.stderr.write(`${command}: ${failure.code}: ${failure.message}\n`);
  if (isDebug(env) && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return failure.exitCode;
}

export function isDebug(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.BRABO_DEBUG;
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
