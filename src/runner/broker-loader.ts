// Builds the runner's Docker broker on first use, so a runner that only ever runs terminal
// commands never talks to Docker; a broker that cannot be built is a named `broker_unavailable`
// failure for each container action, never a crash.
import type { Logger } from 'pino';
import type { BrokerResult, ContainerBrokerPort } from '../../broker/port.ts';

export interface BrokerLoaderOptions {
  projectId: string;
  defaultImage: string;
  logger: Logger;
}

export function lazyBroker(options: BrokerLoaderOptions): () => Promise<BrokerResult<ContainerBrokerPort>> {
  let built: Promise<BrokerResult<ContainerBrokerPort>> | null = null;
  return async () => {
    built ??= build(options);
    return built;
  };
}

// The broker (and dockerode, an optional peer of the runner package that npm leaves out unless
// asked) is imported on first use: a runner installed without dockerode still runs terminal
// commands, and scripts/pack-runner.ts refuses a build that imports it at start-up.
async function build(options: BrokerLoaderOptions): Promise<BrokerResult<ContainerBrokerPort>> {
  let createDockerBroker: typeof import('../../broker/index.ts').createDockerBroker;
  try {
    ({ createDockerBroker } = await import('../../broker/index.ts'));
  } catch (error) {
    return {
      ok: false,
      failure: {
        code: 'broker_unavailable',
        message: `this runner cannot use Docker: the Docker client did not load (${(error as Error).message}); to use container actions, start the runner with dockerode next to it (npx -p ./brabo-runner-<version>.tgz -p dockerode brabo-runner …); terminal commands still work`,
      },
    };
  }
  try {
    const broker = createDockerBroker({
      defaultImage: options.defaultImage,
      // Scopes list() to this runner's project; the broker's own labels still mark it as managed.
      labels: { 'brabo.runner.project': options.projectId },
      namePrefix: 'brabo-runner-',
      // The runner only starts and stops this container on the user's own machine; no command
      // is executed in it, so there is nothing to protect, and --root is the user's own folder
      // (no .git or permissions.json is created there). It runs as the runner's own user, so it
      // can write --root (container_start's write probe) and what it writes stays the user's.
      protectProjectFiles: false,
      ...(typeof process.getuid === 'function'
        ? { user: `${process.getuid()}:${process.getgid?.() ?? process.getuid()}` }
        : {}),
      logger: options.logger.child({ component: 'broker' }),
    });
    return { ok: true, value: broker };
  } catch (error) {
    return {
      ok: false,
      failure: {
        code: 'broker_unavailable',
        message: `this runner cannot use Docker: the broker could not be set up (${(error as Error).message}); check DOCKER_HOST; terminal commands still work`,
      },
    };
  }
}
