// Named failures: one constructor per code, each with the sentence an operator can act on, and
// the one place that turns a dockerode / docker-modem error into a named failure.
import type { BrokerFailure, BrokerFailureCode, BrokerResult } from './port.ts';

export function failure(code: BrokerFailureCode, message: string, detail?: Record<string, unknown>): BrokerFailure {
  return detail === undefined ? { code, message } : { code, message, detail };
}

export function failed<T>(f: BrokerFailure): BrokerResult<T> {
  return { ok: false, failure: f };
}

export function succeeded<T>(value: T): BrokerResult<T> {
  return { ok: true, value };
}

export function brokerUnavailable(endpoint: string, errno: string | undefined, cause: string): BrokerFailure {
  return failure(
    'broker_unavailable',
    `The Docker engine at ${endpoint} cannot be reached (${errno ?? 'no errno'}: ${cause}). ` +
      'Start the Docker daemon or fix the socket path / DOCKER_HOST, then retry.',
    { endpoint, errno },
  );
}

export function imageMissing(image: string, endpoint: string): BrokerFailure {
  return failure(
    'image_missing',
    `The image "${image}" is not present on the Docker engine at ${endpoint}. ` +
      'This broker never pulls: build or load the image on that engine, or configure another image, then start again.',
    { image, endpoint },
  );
}

export function containerNotRunning(projectId: string, state: string): BrokerFailure {
  return failure(
    'container_not_running',
    `The dev container of project ${projectId} is ${state}, so the command was not run. ` +
      "Start the container first (a container_start action, or the broker's start()), then run the command again.",
    { projectId, state },
  );
}

export function cwdOutsideWorkspace(cwd: string, reason: string, resolved?: string): BrokerFailure {
  return failure(
    'cwd_outside_workspace',
    `DiretorioForaDoEscopoError: the working directory "${cwd}" is refused because ${reason}. ` +
      'Commands only run at or below /work; pass a directory inside the project folder.',
    resolved === undefined ? { cwd } : { cwd, resolved },
  );
}

export function workspaceMissing(hostPath: string, cause: string): BrokerFailure {
  return failure(
    'workspace_missing',
    `The project folder "${hostPath}" does not exist on the Docker host, so it cannot be mounted at /work (${cause}). ` +
      'Create the folder (writable by the container user) and start again.',
    { hostPath },
  );
}

export function commandTimeout(timeoutMs: number, killed: boolean): BrokerFailure {
  return failure(
    'command_timeout',
    `The command did not finish within ${timeoutMs} ms and was killed` +
      (killed
        ? ' with every process it started.'
        : '; the kill could not be confirmed, check the container for leftover processes.'),
    { timeoutMs, killed },
  );
}

export function oomKilled(projectId: string, memoryMb: number | undefined): BrokerFailure {
  const limit = memoryMb === undefined ? 'its memory limit' : `its memory limit of ${memoryMb} MiB`;
  return failure(
    'oom_killed',
    `The command was killed by the kernel because the container of project ${projectId} ran out of memory (${limit}). ` +
      'Use less memory or start the container with a higher memory limit.',
    { projectId, memoryMb },
  );
}

export function execInterrupted(projectId: string, killed: boolean, cause: string): BrokerFailure {
  return failure(
    'exec_interrupted',
    `The connection to the Docker engine was lost while a command ran in the container of project ${projectId} (${cause}); ` +
      'its outcome is unknown. ' +
      (killed ? 'The broker stopped the command. ' : 'The broker could not confirm the command stopped. ') +
      'Check the engine and the container, then run the command again if needed.',
    { projectId, killed },
  );
}

export function resourceLimitInvalid(field: string, value: unknown, rule: string): BrokerFailure {
  return failure(
    'resource_limit_invalid',
    `The resource limit ${field}=${String(value)} is invalid: ${rule}. Fix the requested resources and start again.`,
    { field, value },
  );
}

export function brokerError(action: string, cause: string, detail?: Record<string, unknown>): BrokerFailure {
  return failure(
    'broker_error',
    `The broker could not ${action}: ${cause}. If the cause is unclear, check the Docker engine logs for this container.`,
    { action, ...detail },
  );
}

// ---- classification of dockerode / docker-modem errors -------------------------------------

/** Errors from Node's socket layer: the engine is not there (or went away). */
const CONNECTION_ERRNOS = new Set([
  'ENOENT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EACCES',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
  'ENOTSOCK',
  'ENOTDIR',
]);

/** What docker-modem puts on an error: HTTP status and body, or the socket errno. */
export interface DockerErrorFacts {
  statusCode?: number;
  message: string;
  errno?: string;
}

export function dockerErrorFacts(error: unknown): DockerErrorFacts {
  const e = (error ?? {}) as { statusCode?: unknown; code?: unknown; json?: unknown; message?: unknown };
  const json = e.json as { message?: unknown } | undefined;
  const message =
    typeof json?.message === 'string' ? json.message : typeof e.message === 'string' ? e.message : String(error);
  return {
    statusCode: typeof e.statusCode === 'number' ? e.statusCode : undefined,
    errno: typeof e.code === 'string' ? e.code : undefined,
    message: message.trim(),
  };
}

export function isConnectionError(error: unknown): boolean {
  const facts = dockerErrorFacts(error);
  return (
    facts.statusCode === undefined &&
    (facts.errno === undefined ? /socket hang up/i.test(facts.message) : CONNECTION_ERRNOS.has(facts.errno))
  );
}

export interface ClassifyContext {
  endpoint: string;
  /** What the broker was doing, as a verb phrase: "create the container of project p". */
  action: string;
  image?: string;
  workspaceHostPath?: string;
}

export function classifyDockerError(error: unknown, context: ClassifyContext): BrokerFailure {
  const facts = dockerErrorFacts(error);
  if (isConnectionError(error)) return brokerUnavailable(context.endpoint, facts.errno, facts.message);
  const text = facts.message;
  if (/bind source path does not exist|no such file or directory.*mount|mount.*no such file or directory/i.test(text)) {
    return workspaceMissing(context.workspaceHostPath ?? 'unknown', text);
  }
  if (facts.statusCode === 404 && /no such image/i.test(text) && context.image !== undefined) {
    return imageMissing(context.image, context.endpoint);
  }
  if (facts.statusCode === 400 && /cpu|memory|pids|swap/i.test(text)) {
    return resourceLimitInvalid('resources', text, 'the Docker engine rejected it');
  }
  return brokerError(context.action, text, { statusCode: facts.statusCode, errno: facts.errno });
}
