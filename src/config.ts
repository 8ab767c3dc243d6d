// Runtime configuration: CLI flags over environment over defaults. Everything a deployment can
// change lives here, resolved once at start.
import { join, resolve } from 'node:path';
import { DEFAULT_EXECUTION_LIMITS, type ExecutionLimits } from './execution/config.ts';
import type { Resources } from './execution/resources.ts';
import { deprecationWarnings, type EnvValue, readVariable } from './env-names.ts';
import { PACKAGE_ROOT } from './package-info.ts';
import { parseTrustedProxies, TrustedProxiesError } from './auth/client-source.ts';

/** The execution side: Docker broker, runner timings, resource defaults and maxima. */
export interface ExecutionConfig {
  /** BRABO_DOCKER=1 (or --docker): container projects run on this Docker engine. */
  docker: {
    enabled: boolean;
    /** DOCKER_HOST (`unix:///...` or `tcp://...`); null = the broker's default socket. */
    dockerHost: string | null;
    /** BRABO_CONTAINER_IMAGE: the dev container image (never pulled). */
    image: string;
    /** BRABO_DOCKER_LABELS `k=v,k2=v2`: extra labels that scope this gateway's containers. */
    labels: Record<string, string>;
    /** BRABO_CONTAINER_USER `uid:gid` (default 1000:1000): commands run as it; project folders are created owned by it. */
    containerUser?: string;
  };
  limits: ExecutionLimits;
  /** BRABO_TEST_FAULT: fault-injection point for the test suites only. */
  fault: 'kill_before_claim' | null;
}

export interface AppConfig {
  host: string;
  port: number;
  /** Where the SQLite file and the generated admin token live. */
  dataDir: string;
  /** BRABO_DATABASE_URL (old name DATABASE_URL; postgres:// or postgresql://): the Postgres store instead of SQLite in the data dir. */
  databaseUrl?: string | null;
  /** BRABO_ADMIN_TOKEN; when absent a token is generated at first start into the data dir. */
  adminToken: string | null;
  /** BRABO_PROJECT_WORKSPACES_ROOT (old name PROJECT_WORKSPACES_ROOT): parent of container projects' folders. */
  projectWorkspacesRoot: string;
  /** BRABO_PROJECTS_BASE: parent of mounted projects' folders. */
  projectsBase: string;
  /** The gateway's own checkout; a runner root may never overlap it (RN-170). */
  gatewayCheckout: string;
  logLevel: string;
  /** Deprecation warnings about the environment (old variable names), printed once at start. */
  warnings?: string[];
  /** Credential kinds and authentication (issue 12); absent = the defaults of DEFAULT_AUTH_CONFIG. */
  auth?: AuthConfig;
  /** Absent: no dispatcher (approved actions stay queued), as in API-only tests. */
  execution?: ExecutionConfig;
}

export interface AuthConfig {
  /** BRABO_SERVICE_TOKENS=0 turns the service kind off (minting and use). Default on. */
  serviceTokens: boolean;
  /** BRABO_METRICS_TOKEN: when set, /metrics needs it as a bearer token. */
  metricsToken: string | null;
  /** BRABO_AUTH_MAX_FAILURES: failed authentications per source and minute before 429. Default 20. */
  maxAuthFailures: number;
  /** How often live sockets' credentials are re-checked (revoked elsewhere, expired). */
  socketSweepMs: number;
  /** BRABO_TRUSTED_PROXIES: load balancers whose X-Forwarded-For names the client (rate-limit source). */
  trustedProxies: string[];
}

export const DEFAULT_AUTH_CONFIG: AuthConfig = {
  serviceTokens: true,
  metricsToken: null,
  maxAuthFailures: 20,
  socketSweepMs: 2_000,
  trustedProxies: [],
};

export function loadAuthConfig(env: NodeJS.ProcessEnv): AuthConfig {
  const metricsToken = env.BRABO_METRICS_TOKEN && env.BRABO_METRICS_TOKEN.length > 0 ? env.BRABO_METRICS_TOKEN : null;
  if (metricsToken !== null && metricsToken.length < 16)
    throw new ConfigError('BRABO_METRICS_TOKEN is shorter than 16 characters; use a long random value');
  return {
    serviceTokens:
      env.BRABO_SERVICE_TOKENS === undefined || env.BRABO_SERVICE_TOKENS === ''
        ? true
        : flag('BRABO_SERVICE_TOKENS', env.BRABO_SERVICE_TOKENS),
    metricsToken,
    maxAuthFailures: positive(
      'BRABO_AUTH_MAX_FAILURES',
      env.BRABO_AUTH_MAX_FAILURES,
      DEFAULT_AUTH_CONFIG.maxAuthFailures,
    ),
    socketSweepMs: DEFAULT_AUTH_CONFIG.socketSweepMs,
    trustedProxies: trustedProxiesFrom(env.BRABO_TRUSTED_PROXIES),
  };
}

export interface ConfigOverrides {
  host?: string;
  port?: number;
  dataDir?: string;
  docker?: boolean;
  containerImage?: string;
  runnerGraceMs?: number;
  deliveryTimeoutMs?: number;
}

export const DEFAULT_CONTAINER_IMAGE = 'brabo-dev:latest';
export const DEFAULT_CONTAINER_USER = '1000:1000';

/** Numeric only: the host has no passwd entry for the image's users, and chown needs numbers. */
function containerUser(raw: string | undefined): string {
  if (raw === undefined || raw === '') return DEFAULT_CONTAINER_USER;
  if (!/^[0-9]{1,10}:[0-9]{1,10}$/.test(raw) || Number(raw.split(':')[0]) === 0) {
    throw new ConfigError(
      `BRABO_CONTAINER_USER=${JSON.stringify(raw)} is not a non-root numeric uid:gid; use e.g. BRABO_CONTAINER_USER=1000:1000`,
    );
  }
  return raw;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly code = 'config_invalid';
}

/** The checkout or installed package this code runs from (its package.json's folder). */
export const GATEWAY_CHECKOUT = PACKAGE_ROOT;

/** pino's levels: anything else would make the logger throw at start. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(overrides: ConfigOverrides = {}, env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = resolve(overrides.dataDir ?? env.BRABO_DATA_DIR ?? './.brabo');
  const portVar = readVariable(env, 'BRABO_PORT');
  const port = overrides.port ?? (portVar.value !== undefined ? Number(portVar.value) : 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    const given =
      overrides.port !== undefined
        ? `--port ${String(overrides.port)}`
        : `${portVar.name}=${JSON.stringify(portVar.value)}`;
    throw new ConfigError(`${given} is not a TCP port (0-65535); pass --port N`);
  }
  const level = readVariable(env, 'BRABO_LOG_LEVEL');
  const logLevel = level.value ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(
      `${level.name}=${JSON.stringify(logLevel)} is not a log level; use one of ${LOG_LEVELS.join(', ')}`,
    );
  }
  const adminToken = env.BRABO_ADMIN_TOKEN && env.BRABO_ADMIN_TOKEN.length > 0 ? env.BRABO_ADMIN_TOKEN : null;
  if (adminToken !== null && adminToken.length < 16) {
    throw new ConfigError(
      'BRABO_ADMIN_TOKEN is shorter than 16 characters; use a long random value or unset it to have one generated',
    );
  }
  return {
    host: overrides.host ?? readVariable(env, 'BRABO_HOST').value ?? '127.0.0.1',
    port,
    dataDir,
    databaseUrl: databaseUrl(readVariable(env, 'BRABO_DATABASE_URL')),
    adminToken,
    projectWorkspacesRoot: resolve(
      readVariable(env, 'BRABO_PROJECT_WORKSPACES_ROOT').value ?? join(dataDir, 'workspaces'),
    ),
    projectsBase: resolve(env.BRABO_PROJECTS_BASE ?? join(dataDir, 'projects')),
    gatewayCheckout: resolve(env.BRABO_GATEWAY_CHECKOUT ?? GATEWAY_CHECKOUT),
    logLevel,
    warnings: deprecationWarnings(env),
    auth: loadAuthConfig(env),
    execution: loadExecutionConfig(overrides, env),
  };
}

/** Only Postgres URLs select the Postgres store; anything else is refused, never silently ignored. */
function databaseUrl({ value, name }: EnvValue): string | null {
  if (value === undefined || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(
      `${name} is not a URL; use postgres://USER@HOST:5432/DATABASE, or unset it to keep the SQLite store in the data dir`,
    );
  }
  // The scheme only: the rest of the URL may hold a password.
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(
      `${name} has the scheme ${JSON.stringify(url.protocol.slice(0, -1))}, but only a Postgres URL (postgres:// or postgresql://) is supported; unset it to keep the SQLite store in the data dir`,
    );
  }
  return value;
}

function flag(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '') return false;
  if (['1', 'true', 'yes', 'on'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(value.toLowerCase())) return false;
  throw new ConfigError(`${name}=${JSON.stringify(value)} is not a boolean; use 1 or 0`);
}

/** A positive number given as text by a variable or a flag (`name` is what the error cites). */
export function parsePositive(name: string, value: string, integer = true): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new ConfigError(`${name}=${JSON.stringify(value)} is not a positive ${integer ? 'integer' : 'number'}`);
  }
  return n;
}

function positive(name: string, value: string | undefined, fallback: number, integer = true): number {
  return value === undefined || value === '' ? fallback : parsePositive(name, value, integer);
}

function labels(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new ConfigError(`BRABO_DOCKER_LABELS entry ${JSON.stringify(pair)} is not key=value`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

function resources(prefix: string, env: NodeJS.ProcessEnv, fallback: Resources): Resources {
  return {
    cpus: positive(`${prefix}_CPUS`, env[`${prefix}_CPUS`], fallback.cpus, false),
    memoryMb: positive(`${prefix}_MEMORY_MB`, env[`${prefix}_MEMORY_MB`], fallback.memoryMb),
    pids: positive(`${prefix}_PIDS`, env[`${prefix}_PIDS`], fallback.pids),
  };
}

export function loadExecutionConfig(overrides: ConfigOverrides, env: NodeJS.ProcessEnv): ExecutionConfig {
  const d = DEFAULT_EXECUTION_LIMITS;
  const fault = env.BRABO_TEST_FAULT ?? '';
  if (fault !== '' && fault !== 'kill_before_claim')
    throw new ConfigError(`BRABO_TEST_FAULT=${JSON.stringify(fault)} is unknown (only kill_before_claim, for tests)`);
  const defaults = resources('BRABO_RESOURCE_DEFAULT', env, d.resources.defaults);
  const maxima = resources('BRABO_RESOURCE_MAX', env, d.resources.maxima);
  for (const field of ['cpus', 'memoryMb', 'pids'] as const) {
    if (maxima[field] < defaults[field])
      throw new ConfigError(
        `the resource maximum for ${field} (${maxima[field]}) is below its default (${defaults[field]}); raise BRABO_RESOURCE_MAX_*`,
      );
  }
  return {
    docker: {
      enabled: overrides.docker ?? flag('BRABO_DOCKER', env.BRABO_DOCKER),
      dockerHost: env.DOCKER_HOST && env.DOCKER_HOST.length > 0 ? env.DOCKER_HOST : null,
      image: overrides.containerImage ?? (env.BRABO_CONTAINER_IMAGE || DEFAULT_CONTAINER_IMAGE),
      labels: labels(env.BRABO_DOCKER_LABELS),
      containerUser: containerUser(env.BRABO_CONTAINER_USER),
    },
    limits: {
      deliveryTimeoutMs:
        overrides.deliveryTimeoutMs ??
        positive('BRABO_DELIVERY_TIMEOUT_MS', env.BRABO_DELIVERY_TIMEOUT_MS, d.deliveryTimeoutMs),
      runnerGraceMs:
        overrides.runnerGraceMs ?? positive('BRABO_RUNNER_GRACE_MS', env.BRABO_RUNNER_GRACE_MS, d.runnerGraceMs),
      resumeWaitMs: positive('BRABO_RESUME_WAIT_MS', env.BRABO_RESUME_WAIT_MS, d.resumeWaitMs),
      commandTimeoutMs: positive('BRABO_COMMAND_TIMEOUT_MS', env.BRABO_COMMAND_TIMEOUT_MS, d.commandTimeoutMs),
      outputCapBytes: positive('BRABO_OUTPUT_CAP_BYTES', env.BRABO_OUTPUT_CAP_BYTES, d.outputCapBytes),
      proposeWaitMs: positive('BRABO_PROPOSE_WAIT_MS', env.BRABO_PROPOSE_WAIT_MS, d.proposeWaitMs),
      pollIntervalMs: d.pollIntervalMs,
      resources: { defaults, maxima },
    },
    fault: fault === '' ? null : 'kill_before_claim',
  };
}

function trustedProxiesFrom(value: string | undefined): string[] {
  try {
    return parseTrustedProxies(value);
  } catch (error) {
    if (error instanceof TrustedProxiesError) throw new ConfigError(error.message);
    throw error;
  }
}
