// The Docker broker: ContainerBrokerPort on dockerode. Imports nothing from src/.
import type { DockerBrokerConfig } from './config.ts';
import { DockerBroker } from './docker-broker.ts';

export type { DockerBrokerConfig } from './config.ts';
export { DockerBroker } from './docker-broker.ts';
export { checkCwdLexically, WORKSPACE_MOUNT } from './paths.ts';
export { LABEL_MANAGED, LABEL_PROJECT } from './container-spec.ts';
export type * from './port.ts';

/** A broker for one Docker engine. The result also has `reconcile(expectedProjectIds)`. */
export function createDockerBroker(config: DockerBrokerConfig): DockerBroker {
  return new DockerBroker(config);
}
