// Builds the runner's Docker broker on first use, so a machine without Docker still serves terminal
// commands; a broker that cannot be built is a named `broker_unavailable` failure, every time.
import type { BrokerResult, ContainerBrokerPort } from '../../broker/port.ts';
import type { Logger } from 'pino';

export interface BrokerLoaderOptions {
  projectId: string;
  defaultImage: string;
  logger: Logger;
}

type BrokerFactory = (config: Record<string, unknown>) => ContainerBrokerPort;

// Resolved at run time: broker/index.ts is written alongside this program and only its
// `createDockerBroker(config)` export is relied upon.
const BROKER_MODULE = new URL('../../broker/index.ts', import.meta.url).href;

export function lazyBroker(options: BrokerLoaderOptions): () => Promise<BrokerResult<ContainerBrokerPort>> {
  let loading: Promise<BrokerResult<ContainerBrokerPort>> | null = null;
  return () => {
    loading ??= load(options);
    return loading;
  };
}

async function load(options: BrokerLoaderOptions): Promise<BrokerResult<ContainerBrokerPort>> {
  try {
    const module = (await import(BROKER_MODULE)) as { createDockerBroker?: BrokerFactory };
    if (typeof module.createDockerBroker !== 'function') throw new Error('broker/index.ts has no createDockerBroker export');
    const broker = module.createDockerBroker({
      defaultImage: options.defaultImage,
      labels: { 'brabo.runner.project': options.projectId },
      namePrefix: 'brabo-runner-',
      logger: options.logger.child({ component: 'broker' }),
    });
    return { ok: true, value: broker };
  } catch (error) {
    return {
      ok: false,
      failure: {
        code: 'broker_unavailable',
        message: `this runner cannot use Docker: the broker could not be loaded (${(error as Error).message}); terminal commands still work`,
      },
    };
  }
}
