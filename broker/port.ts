// ContainerBrokerPort: what the execution side asks of a Docker broker. Every method resolves to a
// named result; none throws. The same port serves the gateway (container projects) and the local
// runner (the user's own Docker).

export type BrokerFailureCode =
  | 'broker_unavailable'
  | 'image_missing'
  | 'container_not_running'
  | 'cwd_outside_workspace'
  | 'workspace_missing'
  | 'workspace_not_writable'
  | 'workspace_unsafe'
  | 'command_timeout'
  | 'oom_killed'
  | 'exec_interrupted'
  | 'resource_limit_invalid'
  | 'broker_error';

export interface BrokerFailure {
  code: BrokerFailureCode;
  /** A sentence an operator can act on (what, where, what to do next). */
  message: string;
  /** Extra facts for logs (socket path, errno, container id...). Never secrets. */
  detail?: Record<string, unknown>;
}

export type BrokerResult<T> = { ok: true; value: T } | { ok: false; failure: BrokerFailure };

export interface ContainerResources {
  cpus: number;
  memoryMb: number;
  pids: number;
}

export interface ContainerSpec {
  projectId: string;
  /** Absolute host path bind-mounted at /work. */
  workspaceHostPath: string;
  image?: string;
  resources: ContainerResources;
}

export type ContainerState = 'running' | 'stopped' | 'absent';

export interface ContainerInfo {
  projectId: string;
  containerId: string | null;
  state: ContainerState;
  image?: string;
}

export interface ExecRequest {
  /** Shell command line, run by `sh -c` inside the container. */
  command: string;
  /** Absolute path inside the container, at or below /work. */
  cwd: string;
  timeoutMs?: number;
  /** Per stream; output past it is dropped and `truncated` is set. */
  maxOutputBytes?: number;
  /**
   * Live output while the command runs (the wrapper's header already removed), in arrival order.
   * Raw bytes: a UTF-8 character may be split across calls. Must not throw; errors are ignored.
   */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
}

export interface ExecOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
  truncated: boolean;
  durationMs: number;
}

export interface ContainerBrokerPort {
  /** Find-or-create by label, then start. Idempotent: already running is a success. */
  start(spec: ContainerSpec): Promise<BrokerResult<ContainerInfo>>;
  /** Idempotent: already stopped or absent is a success. */
  stop(projectId: string): Promise<BrokerResult<ContainerInfo>>;
  /** Idempotent: already gone is a success. */
  remove(projectId: string): Promise<BrokerResult<ContainerInfo>>;
  inspect(projectId: string): Promise<BrokerResult<ContainerInfo>>;
  /** All containers this broker manages (by label), for reconciliation at start-up. */
  list(): Promise<BrokerResult<ContainerInfo[]>>;
  exec(projectId: string, request: ExecRequest): Promise<BrokerResult<ExecOutcome>>;
}
