// A Dispatcher wired to the use cases as the composition root wires them (approvals notify it),
// with injected broker and runner ports: shared by the dispatcher's unit tests.
import { join } from 'node:path';
import type { ContainerBrokerPort } from '../../broker/port.ts';
import { createActions, HandoffNotifier } from '../../src/actions/index.ts';
import { AgentTurns } from '../../src/agents/turns.ts';
import { SettlementWaiters } from '../../src/agents/waiters.ts';
import { DEFAULT_EXECUTION_LIMITS } from '../../src/execution/config.ts';
import { Dispatcher } from '../../src/execution/dispatcher.ts';
import type { RunnerPort } from '../../src/execution/ports.ts';
import type { Logger } from '../../src/logger.ts';
import { PermissionsFile } from '../../src/store/permissions-file.ts';
import type { Store } from '../../src/store/types.ts';

export interface HarnessPorts {
  broker?: ContainerBrokerPort | null;
  runners?: RunnerPort | null;
  /** The store the dispatcher uses, when it must differ from the use cases' (fault injection). */
  dispatcherStore?: Store;
}

export function dispatcherHarness(store: Store, dir: string, logger: Logger, ports: HarnessPorts) {
  const roots = {
    projectWorkspacesRoot: join(dir, 'ws'),
    projectsBase: join(dir, 'pb'),
    gatewayCheckout: join(dir, 'gw'),
    runnerProjectsDir: join(dir, 'rp'),
  };
  const turns = new AgentTurns({ store, logger, waiters: new SettlementWaiters() });
  const dispatcher = new Dispatcher({
    store: ports.dispatcherStore ?? store,
    logger,
    turns,
    roots,
    limits: { ...DEFAULT_EXECUTION_LIMITS, runnerGraceMs: 50 },
    broker: ports.broker ?? null,
    runners: ports.runners ?? null,
  });
  const notifier = new HandoffNotifier(logger);
  notifier.subscribe((id) => dispatcher.notify(id));
  const actions = createActions({
    store,
    permissionsFile: new PermissionsFile(),
    roots,
    execution: notifier,
    observer: { proposed() {}, decided() {} },
    logger,
  });
  return { roots, dispatcher, actions };
}
