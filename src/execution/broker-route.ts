// `container` projects: the approved action runs on the Docker broker. The host root becomes
// /work only here, just before the call. The port promises never to throw; if it does anyway,
// that is still a named failure.
import type { BrokerResult, ContainerBrokerPort, ContainerInfo } from '../../broker/port.ts';
import type { ContainerLifecycle } from '../store/types.ts';
import { portFailed } from './failures.ts';
import { lifecycleAfter } from './lifecycle.ts';
import { type ExecutionOutcome, failedOutcome } from './outcome.ts';
import type { ContainerActionType } from './plan.ts';
import type { Resources } from './resources.ts';
import { toContainerCwd } from './workspace-path.ts';

export interface Routed {
  outcome: ExecutionOutcome;
  lifecycle?: { state: ContainerLifecycle; containerId: string | null };
}

export async function runTerminalOnBroker(
  broker: ContainerBrokerPort,
  request: {
    projectId: string;
    scopeRoot: string;
    command: string;
    cwd: string;
    timeoutMs: number;
    maxOutputBytes: number;
  },
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void,
): Promise<Routed> {
  const cwd = toContainerCwd(request.scopeRoot, request.cwd);
  if (typeof cwd !== 'string') return { outcome: { ...cwd, origin: 'gateway' } };
  try {
    const result = await broker.exec(request.projectId, {
      command: request.command,
      cwd,
      timeoutMs: request.timeoutMs,
      maxOutputBytes: request.maxOutputBytes,
      ...(onOutput ? { onOutput } : {}),
    });
    if (!result.ok) {
      const message =
        result.failure.code === 'container_not_running'
          ? howToStart(request.projectId, result.failure.detail)
          : result.failure.message;
      return { outcome: { ...failedOutcome(result.failure.code, message, result.failure.detail), origin: 'broker' } };
    }
    const { exitCode, stdout, stderr, truncated, durationMs } = result.value;
    return { outcome: { status: 'executed', origin: 'broker', exitCode, stdout, stderr, truncated, durationMs } };
  } catch (error) {
    return { outcome: { ...portFailed('Docker broker', error), origin: 'gateway' } };
  }
}

export async function runContainerOnBroker(
  broker: ContainerBrokerPort,
  request: {
    projectId: string;
    scopeRoot: string;
    actionType: ContainerActionType;
    resources: Resources | null;
    previousContainerId: string | null;
  },
): Promise<Routed> {
  let result: BrokerResult<ContainerInfo>;
  try {
    if (request.actionType === 'container_start') {
      result = await broker.start({
        projectId: request.projectId,
        workspaceHostPath: request.scopeRoot,
        resources: request.resources as Resources,
      });
    } else if (request.actionType === 'container_stop') {
      result = await broker.stop(request.projectId);
    } else {
      result = await broker.remove(request.projectId);
    }
  } catch (error) {
    return failed(request, { ...portFailed('Docker broker', error), origin: 'gateway' });
  }
  if (!result.ok)
    return failed(request, {
      ...failedOutcome(result.failure.code, result.failure.message, result.failure.detail),
      origin: 'broker',
    });
  const info = result.value;
  const state = lifecycleOf(info.state);
  return {
    outcome: {
      status: 'executed',
      origin: 'broker',
      exitCode: 0,
      stdout: `container${info.containerId ? ` ${info.containerId.slice(0, 12)}` : ''} for project ${info.projectId}: ${info.state}\n`,
      stderr: '',
      truncated: false,
      container: { state, containerId: info.containerId },
      ...(request.resources ? { resources: { ...request.resources } } : {}),
    },
    lifecycle: { state, containerId: info.containerId },
  };
}

/** container_not_running on the gateway: the two concrete ways to start the container (issue 11.5). */
export function howToStart(projectId: string, detail: Record<string, unknown> | undefined): string {
  const state = typeof detail?.state === 'string' ? detail.state : 'not running';
  return (
    `The dev container of project ${projectId} is ${state}, so the command was not run. Start it in one of two ways: ` +
    `a maintainer accepts the Infra handoff (POST /api/projects/${projectId}/handoffs/infra/accept with {"userId": "<maintainer>"}), ` +
    `or someone proposes a container_start (POST /api/projects/${projectId}/actions with {"agentId": "<member>", "actionType": "container_start", "payload": {}}) and a maintainer approves it. ` +
    'Then propose this command again.'
  );
}

const lifecycleOf = (state: ContainerInfo['state']): ContainerLifecycle =>
  state === 'running' ? 'running' : state === 'stopped' ? 'stopped' : 'absent';

/** A failed start leaves the lifecycle `failed` (it was `provisioning`); stop/remove keep theirs. */
function failed(
  request: { actionType: ContainerActionType; previousContainerId: string | null },
  outcome: ExecutionOutcome,
): Routed {
  const lifecycle = lifecycleAfter(request.actionType, outcome, request.previousContainerId);
  return lifecycle ? { outcome, lifecycle } : { outcome };
}
