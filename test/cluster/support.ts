// Cluster scaffolding: several in-process gateway nodes (createApp, HTTP + socket on port 0) on one
// Postgres schema, with short leases so failures show within a test's time.
import { type App, createApp } from '../../src/app.ts';
import { GATEWAY_CHECKOUT, loadExecutionConfig } from '../../src/config.ts';
import type { ExecutionLimits } from '../../src/execution/config.ts';
import { createLogger } from '../../src/logger.ts';
import { ADMIN_TOKEN, api, type Api } from '../e2e/support.ts';
import { testAppConfig } from '../http/helpers.ts';

export const FAST_CLUSTER_ENV = {
  // Short enough that a killed node is noticed within a test, long enough that a node whose event
  // loop stalls for seconds on a loaded 2-core machine keeps its lease.
  BRABO_NODE_HEARTBEAT_MS: '500',
  BRABO_NODE_LEASE_MS: '6000',
  BRABO_CLUSTER_POLL_MS: '250',
  // Three nodes per test file, two files at once, one server with max_connections 100.
  BRABO_PG_WRITERS: '3',
  BRABO_PG_READERS: '3',
};

export interface Node extends Api {
  app: App;
  nodeId: string;
  port: number;
  wsUrl: string;
  close(): Promise<void>;
}

/**
 * `dir` is shared by the nodes of one cluster: runner projects keep their permissions.json under
 * `<data-dir>/runner-projects`, which a deployment puts on a volume every node mounts.
 */
export async function startNode(
  databaseUrl: string,
  dir: string,
  limits: Partial<ExecutionLimits> = {},
): Promise<Node> {
  Object.assign(process.env, FAST_CLUSTER_ENV);
  const execution = loadExecutionConfig({}, {});
  execution.limits = {
    ...execution.limits,
    runnerGraceMs: 3_000,
    deliveryTimeoutMs: 5_000,
    resumeWaitMs: 20_000,
    pollIntervalMs: 500,
    ...limits,
  };
  const config = testAppConfig(dir, {
    adminToken: ADMIN_TOKEN,
    gatewayCheckout: GATEWAY_CHECKOUT,
    execution,
    databaseUrl,
  });
  const app = await createApp(config, { logger: createLogger(process.env.E2E_LOG ?? 'silent') });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  await app.start();
  const address = app.http.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    ...api(`http://127.0.0.1:${port}`),
    app,
    nodeId: app.execution!.cluster.membership.nodeId,
    port,
    wsUrl: `ws://127.0.0.1:${port}/socket`,
    close: () => app.close(),
  };
}
