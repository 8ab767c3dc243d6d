// ContainerBrokerPort on dockerode: one long-lived dev container per project, found by label.
// Every public method resolves to a named result; nothing thrown reaches the caller.
import Docker from 'dockerode';
import type { Logger } from 'pino';
import { describeEndpoint, type DockerBrokerConfig, type ResolvedBrokerConfig, resolveConfig } from './config.ts';
import {
  containerName,
  createOptions,
  LABEL_PROJECT,
  labelFilters,
  validateProjectId,
  validateResources,
  validateWorkspacePath,
} from './container-spec.ts';
import { runExec } from './exec.ts';
import {
  brokerError,
  classifyDockerError,
  containerNotRunning,
  cwdOutsideWorkspace,
  dockerErrorFacts,
  failed,
  resourceLimitInvalid,
  succeeded,
} from './failures.ts';
import { KeyedSerializer } from './keyed-serializer.ts';
import { checkCwdLexically } from './paths.ts';
import { parseOwner, prepareProtectedPaths, type ProtectedMount } from './protected-paths.ts';
import { probeWorkspaceWritable } from './write-probe.ts';
import type {
  BrokerFailure,
  BrokerResult,
  ContainerBrokerPort,
  ContainerInfo,
  ContainerSpec,
  ContainerState,
  ExecOutcome,
  ExecRequest,
} from './port.ts';

/** A managed container as the engine lists it. */
interface Found {
  id: string;
  state: ContainerState;
  image: string;
  memoryMb?: number;
  /** The container's mounts as the engine lists them: `target (ro|rw)`. */
  mounts: Set<string>;
}

/** Thrown inside the broker only, turned into a result at the public boundary. */
class FailureSignal extends Error {
  readonly failure: BrokerFailure;
  constructor(failure: BrokerFailure) {
    super(failure.message);
    this.failure = failure;
  }
}

const CREATE_ATTEMPTS = 3;
const CONFLICT_REFIND_DELAYS_MS = [0, 50, 150, 300, 500];

export class DockerBroker implements ContainerBrokerPort {
  readonly docker: Docker;
  readonly config: ResolvedBrokerConfig;
  readonly endpoint: string;
  #log: Logger;
  #lifecycle = new KeyedSerializer();
  /** Last known container id per project, so exec does not list on every call. */
  #known = new Map<string, Found>();

  constructor(config: DockerBrokerConfig) {
    this.config = resolveConfig(config);
    this.endpoint = describeEndpoint(this.config.endpoint);
    this.#log = this.config.logger.child({ component: 'docker-broker', endpoint: this.endpoint });
    const endpoint = this.config.endpoint;
    this.docker =
      endpoint.kind === 'unix'
        ? new Docker({ socketPath: endpoint.socketPath, host: undefined, port: undefined })
        : new Docker({ host: endpoint.host, port: endpoint.port, protocol: endpoint.protocol });
  }

  start(spec: ContainerSpec): Promise<BrokerResult<ContainerInfo>> {
    const invalid = this.#validateSpec(spec);
    if (invalid) return Promise.resolve(failed(invalid));
    const action = `start the container of project ${spec.projectId}`;
    return this.#guard(action, () => this.#lifecycle.run(spec.projectId, () => this.#start(spec)), spec);
  }

  stop(projectId: string): Promise<BrokerResult<ContainerInfo>> {
    const action = `stop the container of project ${projectId}`;
    return this.#guardProject(projectId, action, () => this.#lifecycle.run(projectId, () => this.#stop(projectId)));
  }

  remove(projectId: string): Promise<BrokerResult<ContainerInfo>> {
    const action = `remove the container of project ${projectId}`;
    return this.#guardProject(projectId, action, () => this.#lifecycle.run(projectId, () => this.#remove(projectId)));
  }

  inspect(projectId: string): Promise<BrokerResult<ContainerInfo>> {
    return this.#guardProject(projectId, `inspect the container of project ${projectId}`, async () =>
      info(projectId, await this.#find(projectId)),
    );
  }

  list(): Promise<BrokerResult<ContainerInfo[]>> {
    return this.#guard('list the managed containers', async () => {
      const rows = await this.docker.listContainers({ all: true, filters: { label: labelFilters(this.config) } });
      return rows.map((row) => ({
        projectId: row.Labels[LABEL_PROJECT] ?? '',
        containerId: row.Id,
        state: dockerState(row.State),
        image: row.Image,
      }));
    });
  }

  /**
   * Start-up reconciliation: the state of every project the caller expects plus every managed
   * container it did not expect, so the lifecycle table can be brought in line with the engine.
   */
  async reconcile(expectedProjectIds: string[]): Promise<BrokerResult<ContainerInfo[]>> {
    const listed = await this.list();
    if (!listed.ok) return listed;
    const byProject = new Map(listed.value.map((entry) => [entry.projectId, entry]));
    const expected = expectedProjectIds.map(
      (projectId) => byProject.get(projectId) ?? { projectId, containerId: null, state: 'absent' as const },
    );
    const unexpected = listed.value.filter((entry) => !expectedProjectIds.includes(entry.projectId));
    return succeeded([...expected, ...unexpected]);
  }

  async exec(projectId: string, request: ExecRequest): Promise<BrokerResult<ExecOutcome>> {
    const invalidProject = validateProjectId(projectId);
    if (invalidProject) return failed(brokerError('run the command', invalidProject));
    if (typeof request?.command !== 'string' || request.command.length === 0) {
      return failed(brokerError('run the command', 'the command is empty'));
    }
    const cwd = checkCwdLexically(request.cwd);
    if (!cwd.ok) return failed(cwdOutsideWorkspace(String(request.cwd), cwd.reason));
    const timeoutMs = request.timeoutMs ?? this.config.defaultTimeoutMs;
    const maxOutputBytes = request.maxOutputBytes ?? this.config.defaultMaxOutputBytes;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
      return failed(resourceLimitInvalid('timeoutMs', timeoutMs, 'it must be a positive whole number of milliseconds'));
    if (!Number.isInteger(maxOutputBytes) || maxOutputBytes < 0)
      return failed(resourceLimitInvalid('maxOutputBytes', maxOutputBytes, 'it must be a whole number of bytes'));

    const plan = {
      command: request.command,
      cwd: cwd.cwd,
      timeoutMs,
      maxOutputBytes,
      ...(request.onOutput ? { onOutput: request.onOutput } : {}),
    };
    const run = async (found: Found) =>
      runExec({ docker: this.docker, containerId: found.id, projectId, memoryMb: found.memoryMb }, plan, {
        endpoint: this.endpoint,
        logger: this.#log,
      });
    return this.#guard(`run a command in the container of project ${projectId}`, async () => {
      const cached = this.#known.get(projectId);
      if (cached !== undefined) {
        const result = await run(cached);
        // The container may have been replaced or removed behind our back: look it up once more.
        if (result.ok || result.failure.code !== 'container_not_running') return result;
        this.#known.delete(projectId);
      }
      const found = await this.#find(projectId);
      if (found === undefined || found.state !== 'running') {
        throw new FailureSignal(containerNotRunning(projectId, found === undefined ? 'absent' : found.state));
      }
      return run(found);
    }).then((result) => (result.ok ? result.value : result));
  }

  // ---- lifecycle ----------------------------------------------------------------------------

  async #start(spec: ContainerSpec): Promise<ContainerInfo> {
    const image = spec.image ?? this.config.defaultImage;
    // Every start: a protected file deleted on the host since is created again before Docker
    // needs it as a mount source, and a container whose mounts miss one is replaced.
    const prepared = this.config.protectProjectFiles
      ? await prepareProtectedPaths(spec.workspaceHostPath, parseOwner(this.config.user))
      : [];
    if (!Array.isArray(prepared)) throw new FailureSignal(prepared);
    let found = await this.#find(spec.projectId);
    if (
      found !== undefined &&
      this.config.protectProjectFiles &&
      !prepared.every((mount) => found?.mounts.has(mountKey(mount.target, !mount.readOnly)))
    ) {
      // Made before the read-only mounts existed: its mounts cannot be changed, so it is replaced
      // (the project folder is a bind mount and survives).
      this.#log.warn(
        { projectId: spec.projectId, containerId: found.id },
        'container lacks some read-only protected mounts (made before them, or the project gained a hooksPath/include/hook link since); recreating it',
      );
      await this.#removeById(found.id);
      found = undefined;
    }
    if (found === undefined) found = await this.#create(spec, prepared);
    if (found.state !== 'running') {
      try {
        await this.docker.getContainer(found.id).start();
      } catch (error) {
        // 304: somebody else started it in the meantime, which is what we wanted.
        if (dockerErrorFacts(error).statusCode !== 304) throw error;
      }
      found = { ...found, state: 'running' };
      this.#known.set(spec.projectId, found);
    }
    const target = { docker: this.docker, containerId: found.id, projectId: spec.projectId, memoryMb: found.memoryMb };
    const notWritable = await probeWorkspaceWritable(
      target,
      { endpoint: this.endpoint, logger: this.#log },
      { hostPath: spec.workspaceHostPath, user: this.config.user },
    );
    if (notWritable !== undefined) {
      // A container that cannot edit its project is not a started one: stop it, report why.
      await this.docker
        .getContainer(found.id)
        .stop({ t: this.config.stopTimeoutSec })
        .catch(() => undefined);
      this.#known.set(spec.projectId, { ...found, state: 'stopped' });
      throw new FailureSignal(notWritable);
    }
    this.#log.info({ projectId: spec.projectId, containerId: found.id, image }, 'container running');
    return info(spec.projectId, found);
  }

  async #create(spec: ContainerSpec, protectedMounts: ProtectedMount[]): Promise<Found> {
    const options = createOptions(this.config, spec, protectedMounts);
    for (let attempt = 1; attempt <= CREATE_ATTEMPTS; attempt++) {
      try {
        const created = await this.docker.createContainer(options);
        this.#log.info({ projectId: spec.projectId, containerId: created.id }, 'container created');
        const mounts = new Set(protectedMounts.map((mount) => mountKey(mount.target, !mount.readOnly)));
        return {
          id: created.id,
          state: 'stopped',
          image: options.Image ?? '',
          memoryMb: spec.resources.memoryMb,
          mounts,
        };
      } catch (error) {
        if (dockerErrorFacts(error).statusCode !== 409) throw error;
        // Another process created it first (same deterministic name): use theirs. The engine
        // reserves the name before the container shows up in listings, so look a few times.
        for (const wait of CONFLICT_REFIND_DELAYS_MS) {
          await delay(wait);
          const theirs = await this.#find(spec.projectId);
          if (theirs !== undefined) return theirs;
        }
        if (attempt === CREATE_ATTEMPTS) {
          throw new FailureSignal(
            brokerError(
              `create the container of project ${spec.projectId}`,
              `the name "${containerName(this.config, spec.projectId)}" is taken by a container this broker does not manage; remove or rename it`,
            ),
          );
        }
      }
    }
    throw new Error('unreachable');
  }

  async #stop(projectId: string): Promise<ContainerInfo> {
    const found = await this.#find(projectId);
    if (found === undefined || found.state !== 'running') return info(projectId, found);
    try {
      await this.docker.getContainer(found.id).stop({ t: this.config.stopTimeoutSec });
    } catch (error) {
      const status = dockerErrorFacts(error).statusCode;
      if (status === 404) return info(projectId, undefined);
      if (status !== 304) throw error;
    }
    const stopped: Found = { ...found, state: 'stopped' };
    this.#known.set(projectId, stopped);
    this.#log.info({ projectId, containerId: found.id }, 'container stopped');
    return info(projectId, stopped);
  }

  async #remove(projectId: string): Promise<ContainerInfo> {
    // The container we know is removed while the label lookup runs; the lookup then catches a
    // container another process put in its place.
    const known = this.#known.get(projectId);
    const [found] = await Promise.all([
      this.#find(projectId),
      known === undefined ? undefined : this.#removeById(known.id),
    ]);
    this.#known.delete(projectId);
    if (found !== undefined && found.id !== known?.id) await this.#removeById(found.id);
    if (found !== undefined || known !== undefined)
      this.#log.info({ projectId, containerId: found?.id ?? known?.id }, 'container removed');
    return info(projectId, undefined);
  }

  async #removeById(containerId: string): Promise<void> {
    try {
      await this.docker.getContainer(containerId).remove({ force: true, v: true });
    } catch (error) {
      const facts = dockerErrorFacts(error);
      // 404: already gone; 409 "removal already in progress": someone else is removing it.
      if (facts.statusCode !== 404 && !(facts.statusCode === 409 && /already in progress/i.test(facts.message)))
        throw error;
    }
  }

  /** The project's container by label; the oldest wins if a foreign race ever made two. */
  async #find(projectId: string): Promise<Found | undefined> {
    const rows = await this.docker.listContainers({
      all: true,
      filters: { label: labelFilters(this.config, projectId) },
    });
    const row = rows.sort((a, b) => a.Created - b.Created)[0];
    if (row === undefined) {
      this.#known.delete(projectId);
      return undefined;
    }
    if (rows.length > 1)
      this.#log.warn({ projectId, containers: rows.map((r) => r.Id) }, 'more than one container for one project');
    const found: Found = {
      id: row.Id,
      state: dockerState(row.State),
      image: row.Image,
      memoryMb: this.#known.get(projectId)?.memoryMb,
      mounts: new Set((row.Mounts ?? []).map((mount) => mountKey(mount.Destination, mount.RW))),
    };
    this.#known.set(projectId, found);
    return found;
  }

  // ---- result boundary ----------------------------------------------------------------------

  #validateSpec(spec: ContainerSpec): BrokerFailure | undefined {
    const invalidProject = validateProjectId(spec?.projectId);
    if (invalidProject) return brokerError('start the container', invalidProject);
    return validateWorkspacePath(spec.workspaceHostPath) ?? validateResources(spec.resources);
  }

  #guardProject<T>(projectId: string, action: string, work: () => Promise<T>): Promise<BrokerResult<T>> {
    const invalid = validateProjectId(projectId);
    if (invalid) return Promise.resolve(failed(brokerError(action, invalid)));
    return this.#guard(action, work);
  }

  async #guard<T>(action: string, work: () => Promise<T>, spec?: ContainerSpec): Promise<BrokerResult<T>> {
    try {
      return succeeded(await work());
    } catch (error) {
      const failure =
        error instanceof FailureSignal
          ? error.failure
          : classifyDockerError(error, {
              endpoint: this.endpoint,
              action,
              image: spec === undefined ? undefined : (spec.image ?? this.config.defaultImage),
              workspaceHostPath: spec?.workspaceHostPath,
            });
      this.#log.warn({ code: failure.code, detail: failure.detail }, failure.message);
      return failed(failure);
    }
  }
}

/** Target and mode only: the engine may spell a bind source differently from the request. */
function mountKey(target: string, writable: boolean): string {
  return `${target} (${writable ? 'rw' : 'ro'})`;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function dockerState(state: string): ContainerState {
  return state === 'running' || state === 'restarting' || state === 'paused' ? 'running' : 'stopped';
}

function info(projectId: string, found: Found | undefined): ContainerInfo {
  return found === undefined
    ? { projectId, containerId: null, state: 'absent' }
    : { projectId, containerId: found.id, state: found.state, image: found.image };
}
