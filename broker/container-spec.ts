// What a project's dev container looks like: deterministic name, ownership labels, resource
// limits and the hardening every container gets by default.
import { createHash } from 'node:crypto';
import { isAbsolute } from 'node:path';
import type { ContainerCreateOptions } from 'dockerode';
import type { ResolvedBrokerConfig } from './config.ts';
import { resourceLimitInvalid } from './failures.ts';
import { WORKSPACE_MOUNT } from './paths.ts';
import type { BrokerFailure, ContainerResources, ContainerSpec } from './port.ts';
import type { ProtectedMount } from './protected-paths.ts';

export const LABEL_MANAGED = 'brabo.managed';
export const LABEL_PROJECT = 'brabo.project';
/** Set on containers created with the read-only protected mounts (issue 9 B.5); one without it is recreated. */
export const LABEL_PROTECTED = 'brabo.protected';
export const PROTECTION_VERSION = '1';

const MIB = 1024 * 1024;
/** Docker refuses memory limits below 6 MiB; a shell plus a command needs more. */
const MIN_MEMORY_MB = 16;
/** docker-init, the idle shell, its sleep, and the exec wrapper need a few pids of their own. */
const MIN_PIDS = 16;
const MAX_PROJECT_ID_LENGTH = 200;
const DOCKER_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/;

/**
 * The container's main process: sleeps until SIGTERM and then exits 0, so `docker stop` is quick
 * and clean. docker-init (Init: true) is PID 1, forwards the signal and reaps orphans.
 */
export const IDLE_ENTRYPOINT = ['sh', '-c', 'trap "exit 0" TERM INT; while :; do sleep 3600 & wait $!; done'];

export function validateProjectId(projectId: unknown): string | undefined {
  if (typeof projectId !== 'string' || projectId.length === 0) return 'the project id is empty';
  if (projectId.length > MAX_PROJECT_ID_LENGTH)
    return `the project id is longer than ${MAX_PROJECT_ID_LENGTH} characters`;
  if (/[\0\n\r]/.test(projectId)) return 'the project id contains control characters';
  return undefined;
}

/** Deterministic per project, so two creators racing get a 409 instead of two containers. */
export function containerName(config: ResolvedBrokerConfig, projectId: string): string {
  const candidate = config.namePrefix + projectId;
  if (DOCKER_NAME.test(candidate) && candidate.length <= 128) return candidate;
  const safe = projectId.replace(/[^a-zA-Z0-9_.-]/g, '-').slice(0, 60);
  const hash = createHash('sha256').update(projectId).digest('hex').slice(0, 12);
  return `${config.namePrefix}${safe}-${hash}`.replace(/^[^a-zA-Z0-9]+/, 'p');
}

export function ownershipLabels(config: ResolvedBrokerConfig): Record<string, string> {
  return { ...config.labels, [LABEL_MANAGED]: 'true' };
}

/** Docker `label` filters selecting what this broker manages (optionally one project). */
export function labelFilters(config: ResolvedBrokerConfig, projectId?: string): string[] {
  const labels = Object.entries(ownershipLabels(config)).map(([key, value]) => `${key}=${value}`);
  return projectId === undefined ? labels : [...labels, `${LABEL_PROJECT}=${projectId}`];
}

/** Checked before Docker sees the numbers, so a bad request changes nothing. */
export function validateResources(resources: ContainerResources | undefined): BrokerFailure | undefined {
  if (resources === undefined || resources === null || typeof resources !== 'object') {
    return resourceLimitInvalid('resources', resources, 'cpus, memoryMb and pids are required');
  }
  const { cpus, memoryMb, pids } = resources;
  if (typeof cpus !== 'number' || !Number.isFinite(cpus) || cpus < 0.01) {
    return resourceLimitInvalid('cpus', cpus, 'it must be a number of CPUs of at least 0.01');
  }
  if (!Number.isInteger(memoryMb) || memoryMb < MIN_MEMORY_MB) {
    return resourceLimitInvalid('memoryMb', memoryMb, `it must be a whole number of MiB of at least ${MIN_MEMORY_MB}`);
  }
  if (!Number.isInteger(pids) || pids < MIN_PIDS) {
    return resourceLimitInvalid('pids', pids, `it must be a whole number of at least ${MIN_PIDS}`);
  }
  return undefined;
}

export function validateWorkspacePath(path: unknown): BrokerFailure | undefined {
  if (typeof path !== 'string' || !isAbsolute(path) || path.split('/').includes('..') || path.includes('\0')) {
    return resourceLimitInvalid('workspaceHostPath', path, 'it must be an absolute host path without ".."');
  }
  return undefined;
}

export function createOptions(
  config: ResolvedBrokerConfig,
  spec: ContainerSpec,
  protectedMounts: ProtectedMount[],
): ContainerCreateOptions {
  const memory = spec.resources.memoryMb * MIB;
  return {
    name: containerName(config, spec.projectId),
    Image: spec.image ?? config.defaultImage,
    Entrypoint: IDLE_ENTRYPOINT,
    Cmd: [],
    User: config.user,
    WorkingDir: WORKSPACE_MOUNT,
    Labels: {
      ...ownershipLabels(config),
      [LABEL_PROJECT]: spec.projectId,
      ...(protectedMounts.length > 0 ? { [LABEL_PROTECTED]: PROTECTION_VERSION } : {}),
    },
    AttachStdin: false,
    AttachStdout: false,
    AttachStderr: false,
    Tty: false,
    OpenStdin: false,
    HostConfig: {
      // A `Mounts` bind fails on a missing source; `Binds` would silently create an empty folder.
      // Docker mounts parents before children: /work, then /work/.git, then the read-only files.
      Mounts: [
        { Type: 'bind', Source: spec.workspaceHostPath, Target: WORKSPACE_MOUNT, ReadOnly: false },
        ...protectedMounts.map((mount) => ({
          Type: 'bind' as const,
          Source: mount.source,
          Target: mount.target,
          ReadOnly: mount.readOnly,
        })),
      ],
      NanoCpus: Math.round(spec.resources.cpus * 1e9),
      Memory: memory,
      // Swap equal to memory means no swap at all: the limit is the limit.
      MemorySwap: memory,
      PidsLimit: spec.resources.pids,
      CapDrop: ['ALL'],
      CapAdd: config.capAdd,
      SecurityOpt: ['no-new-privileges'],
      Init: true,
      RestartPolicy: { Name: 'no' },
      NetworkMode: 'bridge',
    },
  };
}
