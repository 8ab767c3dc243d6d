// The composition root: store, use cases, HTTP server. Later issues add the gateway and the
// dispatcher here (they subscribe to `handoffs` and use `store.runnerTokens`).
import { type Actions, createActions, HandoffNotifier } from './actions/index.ts';
import type { AppConfig } from './config.ts';
import { type AdminToken, resolveAdminToken } from './http/admin-token.ts';
import { Metrics } from './http/metrics.ts';
import { buildHttpServer, type HttpServer } from './http/server.ts';
import { createLogger, type Logger } from './logger.ts';
import { PermissionsFile } from './store/permissions-file.ts';
import { openSqliteStore } from './store/sqlite/store.ts';
import type { Store } from './store/types.ts';

export interface App {
  http: HttpServer;
  actions: Actions;
  store: Store;
  /** Fan-out of "an action was handed to execution" (the dispatcher subscribes). */
  handoffs: HandoffNotifier;
  metrics: Metrics;
  adminToken: AdminToken;
  logger: Logger;
  close(): Promise<void>;
}

export interface AppOptions {
  logger?: Logger;
  defaultMetrics?: boolean;
}

export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const store = openSqliteStore(config.dataDir);
  try {
    const adminToken = await resolveAdminToken(config.dataDir, config.adminToken);
    const metrics = new Metrics({ defaultMetrics: options.defaultMetrics ?? false });
    const handoffs = new HandoffNotifier(logger);
    const actions = createActions({
      store,
      permissionsFile: new PermissionsFile(),
      roots: {
        projectWorkspacesRoot: config.projectWorkspacesRoot,
        projectsBase: config.projectsBase,
        gatewayCheckout: config.gatewayCheckout,
      },
      execution: handoffs,
      observer: metrics,
      logger,
    });
    const http = await buildHttpServer({
      actions,
      runnerTokens: store.runnerTokens,
      metrics,
      logger,
      adminToken: adminToken.token,
    });
    let closed = false;
    return {
      http,
      actions,
      store,
      handoffs,
      metrics,
      adminToken,
      logger,
      async close() {
        if (closed) return;
        closed = true;
        await http.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
