// Broker configuration: where the Docker engine is, which image and limits a project gets by
// default, the user commands run as, and the labels that mark what this broker owns.
import { createRequire } from 'node:module';
import type { Logger } from 'pino';
import type { ContainerResources } from './port.ts';

export interface DockerBrokerConfig {
  /** Unix socket of the engine. Wins over `dockerHost` and the DOCKER_HOST variable. */
  socketPath?: string;
  /** `unix:///path` or `tcp://host:port`; defaults to DOCKER_HOST, then /var/run/docker.sock. */
  dockerHost?: string;
  /** Image used when a ContainerSpec names none. The broker never pulls: it must exist locally. */
  defaultImage: string;
  /** Non-root `uid:gid` (numeric works without /etc/passwd). Default `1000:1000`. */
  user?: string;
  /**
   * Mount permissions.json, .git/config, .git/hooks and .git/commondir read-only (and pin .git),
   * creating them when absent (issue 9 B.5). Default true. Off only where no command the policy
   * auto-approved ever runs in the container (the local runner only starts and stops it).
   */
  protectProjectFiles?: boolean;
  /** Capabilities added back after dropping all. Default none. */
  capAdd?: string[];
  /** Extra labels put on every container and used to filter list(): scopes a broker instance. */
  labels?: Record<string, string>;
  /** Container name prefix; the name is deterministic per project id. Default `brabo-`. */
  namePrefix?: string;
  /** Seconds Docker waits after SIGTERM before SIGKILL on stop. Default 10. */
  stopTimeoutSec?: number;
  /** Exec timeout when a request names none. Default 10 minutes. */
  defaultTimeoutMs?: number;
  /** Output cap per stream when a request names none. Default 1 MiB. */
  defaultMaxOutputBytes?: number;
  logger?: Logger;
}

export type DockerEndpoint =
  { kind: 'unix'; socketPath: string } | { kind: 'tcp'; host: string; port: number; protocol: 'http' | 'https' };

export interface ResolvedBrokerConfig {
  endpoint: DockerEndpoint;
  defaultImage: string;
  user: string;
  protectProjectFiles: boolean;
  capAdd: string[];
  labels: Record<string, string>;
  namePrefix: string;
  stopTimeoutSec: number;
  defaultTimeoutMs: number;
  defaultMaxOutputBytes: number;
  logger: Logger;
}

export const DEFAULT_SOCKET_PATH = '/var/run/docker.sock';

/** Resources a spec may omit; the caller (execution side) normally derives them. */
export const MINIMUM_RESOURCES: ContainerResources = { cpus: 0.01, memoryMb: 16, pids: 16 };

export function resolveConfig(config: DockerBrokerConfig, env: NodeJS.ProcessEnv = process.env): ResolvedBrokerConfig {
  return {
    endpoint: resolveEndpoint(config, env),
    defaultImage: config.defaultImage,
    user: config.user ?? '1000:1000',
    protectProjectFiles: config.protectProjectFiles ?? true,
    capAdd: config.capAdd ?? [],
    labels: config.labels ?? {},
    namePrefix: config.namePrefix ?? 'brabo-',
    stopTimeoutSec: config.stopTimeoutSec ?? 10,
    defaultTimeoutMs: config.defaultTimeoutMs ?? 600_000,
    defaultMaxOutputBytes: config.defaultMaxOutputBytes ?? 1024 * 1024,
    logger: config.logger ?? defaultLogger(),
  };
}

function resolveEndpoint(config: DockerBrokerConfig, env: NodeJS.ProcessEnv): DockerEndpoint {
  if (config.socketPath) return { kind: 'unix', socketPath: config.socketPath };
  const host = config.dockerHost ?? env.DOCKER_HOST;
  if (!host) return { kind: 'unix', socketPath: DEFAULT_SOCKET_PATH };
  if (host.startsWith('unix://'))
    return { kind: 'unix', socketPath: host.slice('unix://'.length) || DEFAULT_SOCKET_PATH };
  const url = new URL(host.includes('//') ? host : `tcp://${host}`);
  const tls = env.DOCKER_TLS_VERIFY === '1' || url.port === '2376' || url.protocol === 'https:';
  return {
    kind: 'tcp',
    host: url.hostname,
    port: Number(url.port || (tls ? 2376 : 2375)),
    protocol: tls ? 'https' : 'http',
  };
}

/** How an operator would write the endpoint: `unix:///var/run/docker.sock`, `tcp://h:2375`. */
export function describeEndpoint(endpoint: DockerEndpoint): string {
  return endpoint.kind === 'unix' ? `unix://${endpoint.socketPath}` : `tcp://${endpoint.host}:${endpoint.port}`;
}

/**
 * pino is loaded only when no logger is passed: the runner package passes its own logger and
 * does not ship pino.
 */
function defaultLogger(): Logger {
  const { pino } = createRequire(import.meta.url)('pino') as typeof import('pino');
  return pino({ name: 'broker', level: 'info' });
}
