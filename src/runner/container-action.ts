// Executes container_start|stop|remove on the user's own Docker through the ContainerBrokerPort.
// The runner's root is the project folder mounted at /work.
import type { Execute, Result } from '../../runner-protocol/index.ts';
import type {
  BrokerFailure,
  BrokerResult,
  ContainerBrokerPort,
  ContainerInfo,
  ContainerResources,
} from '../../broker/port.ts';

/** Used for any resource the action leaves out. */
export const DEFAULT_CONTAINER_RESOURCES: ContainerResources = { cpus: 2, memoryMb: 2048, pids: 512 };

export interface ContainerContext {
  projectId: string;
  root: string;
  /** Resolves to the broker, or to the failure explaining why there is none. */
  broker: () => Promise<BrokerResult<ContainerBrokerPort>>;
}

type ContainerExecute = Execute & { action: { type: 'container_start' | 'container_stop' | 'container_remove' } };

export async function executeContainer(execute: ContainerExecute, context: ContainerContext): Promise<Result> {
  const { dispatchId, attempt, action } = execute;
  const failed = (failure: BrokerFailure): Result => ({
    dispatchId,
    attempt,
    status: 'failed',
    reason: { code: failure.code, message: failure.message },
  });

  const broker = await context.broker();
  if (!broker.ok) return failed(broker.failure);

  let outcome: BrokerResult<ContainerInfo>;
  try {
    if (action.type === 'container_start') {
      outcome = await broker.value.start({
        projectId: context.projectId,
        workspaceHostPath: context.root,
        resources: { ...DEFAULT_CONTAINER_RESOURCES, ...action.resources },
        ...(action.image === undefined ? {} : { image: action.image }),
      });
    } else if (action.type === 'container_stop') {
      outcome = await broker.value.stop(context.projectId);
    } else {
      outcome = await broker.value.remove(context.projectId);
    }
  } catch (error) {
    // The port promises never to throw; if an adapter does anyway, it is still a named failure.
    return failed({
      code: 'broker_error',
      message: `the Docker broker failed unexpectedly: ${(error as Error).message}`,
    });
  }
  if (!outcome.ok) return failed(outcome.failure);
  const info = outcome.value;
  const id = info.containerId === null ? '' : ` ${info.containerId.slice(0, 12)}`;
  return {
    dispatchId,
    attempt,
    status: 'executed',
    exitCode: 0,
    stdout: `container${id} for project ${info.projectId}: ${info.state}\n`,
  };
}
