// The composition root: store, use cases, HTTP server and, when configured, the execution side —
// the Phoenix gateway on the same HTTP server (`/socket/websocket`), the Docker broker, the
// dispatcher (subscribed to hand-offs) and the agents' suspended turns.
import {
  byCredential,
  createRunnerGateway,
  byRunnerToken,
  type RunnerGateway,
  type RunnerInfo,
} from '../gateway/index.ts';
import { createDockerBroker, type DockerBroker } from '../broker/index.ts';
import { type Actions, createActions, HandoffNotifier } from './actions/index.ts';
import type { ActionExecutionPort } from './actions/ports.ts';
import { AgentTurns } from './agents/turns.ts';
import { SettlementWaiters } from './agents/waiters.ts';
import { type Cluster, openCluster, type RunnerDirectory } from './cluster/index.ts';
import { registerClusterMetrics } from './cluster/metrics.ts';
import { type AdminBootstrap, bootstrapAdmin } from './auth/admin-bootstrap.ts';
import { Authenticator } from './auth/authenticator.ts';
import { CredentialService } from './auth/credentials.ts';
import { withCredentialStamps } from './auth/event-stamp.ts';
import { runnerSinkActingAsReporter } from './execution/runner-sink-credential.ts';
import { AuthRateLimiter } from './auth/rate-limit.ts';
import { joinAuthorizer, socketAuthenticator, startCredentialSweep } from './auth/socket.ts';
import { type AppConfig, DEFAULT_AUTH_CONFIG } from './config.ts';
import { Dispatcher, type DispatcherFaults } from './execution/dispatcher.ts';
import { noBroker } from './execution/failures.ts';
import { logRunnerPresence } from './execution/runner-presence-log.ts';
import { runnerPortOf } from './execution/gateway-adapter.ts';
import { isContainerAction } from './execution/plan.ts';
import { reconcileContainers } from './execution/reconcile.ts';
import { createExecutionApi } from './execution/service.ts';
import { ExecutorChannel } from './execution/executor-channel.ts';
import { Metrics } from './http/metrics.ts';
import type { RunnerPresence } from './http/routes/console.ts';
import type { ClusterView } from './http/routes/cluster.ts';
import { createReadiness } from './http/readiness.ts';
import { countBrokerFailures } from './execution/broker-failure-counter.ts';
import { buildHttpServer, type HttpServer } from './http/server.ts';
import { createLive, type Live } from './live/index.ts';
import { createLogger, type Logger } from './logger.ts';
import { PermissionsFile } from './store/permissions-file.ts';
import { openStore } from './store/index.ts';
import type { Store } from './store/types.ts';
import { join } from 'node:path';

export interface App {
  http: HttpServer;
  actions: Actions;
  store: Store;
  /** Fan-out of "an action was handed to execution" (the dispatcher subscribes). */
  handoffs: HandoffNotifier;
  metrics: Metrics;
  /** How the admin credentials stood at start-up (a generated token's file, BRABO_ADMIN_TOKEN's row). */
  adminBootstrap: AdminBootstrap;
  logger: Logger;
  /** Present when `config.execution` is set. */
  execution: AppExecution | null;
  /** Live output and the console's topics (with execution only: they ride on its socket). */
  live: Live | null;
  /**
   * After listen(): reconcile the broker's containers, mark turns that were waiting as lost
   * (blocked, source infra), resume queued dispatches and resolve in-flight ones.
   */
  start(): Promise<void>;
  close(): Promise<void>;
}

export interface AppExecution {
  dispatcher: Dispatcher;
  gateway: RunnerGateway;
  broker: DockerBroker | null;
  turns: AgentTurns;
  cluster: Cluster;
}

/**
 * `bwrap, enforced (--sandbox auto, network on, .git read-only)` / `none: bwrap not found; NOT
 * enforced (--sandbox off, network on)` (an older runner does not report `git`).
 */
function describeSandbox(s: NonNullable<RunnerInfo['sandbox']>): string {
  const what = s.available && s.backend ? s.backend : `none${s.reason ? `: ${s.reason}` : ''}`;
  const git = s.git === undefined ? '' : `, .git ${s.git}`;
  return `${what}, ${s.enforced ? 'enforced' : 'NOT enforced'} (--sandbox ${s.mode}, network ${s.network ? 'on' : 'off'}${git})`;
}

/** What the console's runners page shows for one project. */
function runnerPresenceOf(
  gateway: RunnerGateway | null,
  projectId: string,
  directory: RunnerDirectory | null = null,
): RunnerPresence {
  const info = gateway?.runners.connectedRunners().find((runner) => runner.projectId === projectId);
  // A runner held by another node of the cluster is connected too (presence replica).
  const remote = info ? undefined : directory?.runners().find((runner) => runner.projectId === projectId);
  if (remote) {
    return {
      connected: true,
      hostname: typeof remote.hostname === 'string' ? remote.hostname : null,
      runnerVersion: null,
      sandbox: null,
      joinedAt: typeof remote.onlineAt === 'string' ? remote.onlineAt : null,
      lastSeen: new Date().toISOString(),
    };
  }
  const lastSeen = gateway?.runners.lastSeen(projectId) ?? null;
  // The sandbox state arrives with the runner's join (issue 9); older runners do not report it.
  const sandbox = info?.sandbox ?? null;
  return {
    connected: info !== undefined,
    hostname: info?.hostname ?? null,
    runnerVersion: info?.runnerVersion ?? null,
    sandbox: sandbox === null ? null : describeSandbox(sandbox),
    joinedAt: info?.joinedAt.toISOString() ?? null,
    lastSeen: lastSeen?.toISOString() ?? null,
  };
}

async function describeCluster(cluster: Cluster, gateway: RunnerGateway | null): Promise<ClusterView> {
  const { membership, directory } = cluster;
  const runners = directory
    ? directory.runners().map((r) => ({
        projectId: r.projectId,
        nodeId: r.nodeId,
        hostname: typeof r.hostname === 'string' ? r.hostname : null,
        onlineAt: typeof r.onlineAt === 'string' ? r.onlineAt : null,
      }))
    : (gateway?.runners.connectedRunners() ?? []).map((r) => ({
        projectId: r.projectId,
        nodeId: membership.nodeId,
        hostname: r.hostname,
        onlineAt: r.joinedAt.toISOString(),
      }));
  return { node: { id: membership.nodeId, epoch: membership.epoch }, nodes: await membership.liveNodes(), runners };
}

export interface AppOptions {
  logger?: Logger;
  defaultMetrics?: boolean;
  /** The built console (default dist/console, written by `npm run build`). */
  consoleAssetsDir?: string;
  /** Fault points for fault-injection tests (also set by BRABO_TEST_FAULT). */
  faults?: DispatcherFaults;
}

export async function createApp(config: AppConfig, options: AppOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger(config.logLevel);
  // Every event written for a request records the credential that made it (src/auth/event-stamp.ts).
  const store = withCredentialStamps(await openStore(config, { logger: logger.child({ component: 'store' }) }));
  const authConfig = config.auth ?? DEFAULT_AUTH_CONFIG;
  let opened: Cluster | null = null;
  try {
    const adminBootstrap = await bootstrapAdmin({
      store,
      dataDir: config.dataDir,
      fromEnv: config.adminToken,
      logger: logger.child({ component: 'auth' }),
    });
    const metrics = new Metrics({ defaultMetrics: options.defaultMetrics ?? false });
    const handoffs = new HandoffNotifier(logger);
    // Execution on Postgres is a cluster node (src/cluster): leases, pub/sub, presence, wake-ups.
    const cluster = config.execution
      ? await openCluster({
          store,
          databaseUrl: config.databaseUrl,
          port: config.port,
          logger: logger.child({ component: 'cluster' }),
        })
      : null;
    opened = cluster;
    const waiters = cluster?.waiters ?? new SettlementWaiters();
    const turns = new AgentTurns({ store, logger, waiters });
    const ex = config.execution;
    const rawBroker = ex?.docker.enabled
      ? createDockerBroker({
          defaultImage: ex.docker.image,
          ...(ex.docker.dockerHost ? { dockerHost: ex.docker.dockerHost } : {}),
          labels: ex.docker.labels,
          ...(ex.docker.containerUser ? { user: ex.docker.containerUser } : {}),
          defaultTimeoutMs: ex.limits.commandTimeoutMs,
          defaultMaxOutputBytes: ex.limits.outputCapBytes,
          logger: logger.child({ component: 'broker' }),
        })
      : null;
    const broker = rawBroker ? countBrokerFailures(rawBroker, (code) => metrics.brokerFailed(code)) : null;
    metrics.watchPendingApprovals(() => store.read.actions.countPendingByType());
    const execution: ActionExecutionPort = {
      notify: (actionId) => handoffs.notify(actionId),
      ...(ex
        ? {
            // 409 no_broker: a container project's container_* on a gateway without Docker.
            precondition: (project, actionType) =>
              project.executionMode === 'container' && isContainerAction(actionType) && !broker
                ? noBroker(project.id)
                : null,
          }
        : {}),
    };
    const roots = {
      projectWorkspacesRoot: config.projectWorkspacesRoot,
      projectsBase: config.projectsBase,
      gatewayCheckout: config.gatewayCheckout,
      runnerProjectsDir: join(config.dataDir, 'runner-projects'),
      ...(ex?.docker.containerUser ? { containerUser: ex.docker.containerUser } : {}),
    };
    // Agents' turns: a pending action suspends the proposing agent's turn (in the proposal's own
    // transaction); a denial answers it.
    const permissionsFile = new PermissionsFile();
    const actions = createActions({
      store,
      permissionsFile,
      roots,
      execution,
      observer: metrics,
      logger,
      ...(ex ? { proposalHook: turns } : {}),
    });
    // Console joins on project:<id>: the admin token for now (human members once credentials land).
    const live = ex
      ? createLive({
          store,
          permissionsFile,
          roots,
          logger,
          capBytes: ex.limits.outputCapBytes,
          ...(cluster ? { pubsub: cluster.pubsub } : {}),
          canWatch: (identity) => identity.kind === 'human' || identity.kind === 'service',
        }) // after the authorization table (src/auth/table.ts)
      : null;
    // A denial ends the waiting turn inside the deny's own transaction (turns as the proposal hook).
    const productActions: Actions = live ? live.wrapActions(actions) : actions;

    let gateway: RunnerGateway | null = null;
    const executionApi = ex
      ? createExecutionApi({
          store,
          turns,
          maxProposeWaitMs: ex.limits.proposeWaitMs,
          disconnectRunnerToken: (tokenId) =>
            gateway?.gateway.disconnect(byRunnerToken(tokenId), { code: 1008, reason: 'token revoked' }) ?? 0,
          isParked: (actionId) => appExecution?.dispatcher.isParked(actionId) ?? false,
        })
      : undefined;
    const authenticator = new Authenticator({
      store,
      serviceTokens: authConfig.serviceTokens,
      logger: logger.child({ component: 'auth' }),
    });
    const limiter = new AuthRateLimiter({ maxFailures: authConfig.maxAuthFailures });
    const credentials = new CredentialService({
      store,
      serviceTokens: authConfig.serviceTokens,
      disconnect: (credentialId) =>
        gateway?.gateway.disconnect(byCredential(credentialId), { code: 1008, reason: 'token revoked' }) ?? 0,
    });
    const http = await buildHttpServer({
      actions: productActions,
      runnerTokens: store.runnerTokens,
      metrics,
      logger,
      store,
      auth: {
        authenticator,
        limiter,
        metricsToken: authConfig.metricsToken,
        trustedProxies: authConfig.trustedProxies,
      },
      credentials,
      ...(executionApi ? { execution: executionApi } : {}),
      ...(cluster ? { cluster: () => describeCluster(cluster, gateway) } : {}),
      executors: () => appExecution?.dispatcher.executors ?? null,
      ...(live ? { live: live.output } : {}),
      console: {
        review: { store, permissionsFile, roots },
        // The gateway is created after the HTTP server; presence is read when asked.
        runnerPresence: (projectId) => runnerPresenceOf(gateway, projectId, cluster?.directory ?? null),
        ...(options.consoleAssetsDir ? { assetsDir: options.consoleAssetsDir } : {}),
      },
      readiness: createReadiness({ store, docker: broker ? () => broker.list() : null }),
    });

    let appExecution: AppExecution | null = null;
    let stopSweep = (): void => {};
    if (ex) {
      if (!cluster) throw new Error('unreachable: execution is configured, so the cluster was opened');
      const executorChannel = new ExecutorChannel(() => appExecution?.dispatcher.executors ?? null);
      gateway = createRunnerGateway({
        server: http.server,
        path: '/socket/websocket',
        authenticate: socketAuthenticator(
          authenticator,
          limiter,
          logger.child({ component: 'auth' }),
          authConfig.trustedProxies,
        ),
        authorizeJoin: joinAuthorizer(store),
        logger: logger.child({ component: 'gateway' }),
        deliveryTimeoutMs: ex.limits.deliveryTimeoutMs,
        pubsub: cluster.pubsub,
        presence: cluster.presence,
        ...(cluster.directory ? { sessions: cluster.directory } : {}),
        extraChannels: [
          ...(live ? [{ topic: 'project:*', module: live.feed.channel }] : []),
          { topic: 'executor:*', module: executorChannel.channel },
        ],
      });
      live?.attachGateway(gateway);
      const runnerGateway = gateway;
      cluster.onLeaseLost(() => {
        const closed = runnerGateway.gateway.disconnect((identity) => identity.kind === 'runner', {
          code: 1001,
          reason: 'gateway node re-registered',
        });
        logger.warn(
          { code: 'runners_reconnected', count: closed },
          'this node lost its cluster lease; its runner sockets were closed so they rejoin and take their lock again',
        );
      });
      registerClusterMetrics(metrics.registry, {
        membership: cluster.membership,
        directory: cluster.directory,
        hub: gateway.runners,
      });
      const faults: DispatcherFaults | undefined =
        options.faults ??
        (ex.fault === 'kill_before_claim' ? { beforeClaim: () => process.kill(process.pid, 'SIGKILL') } : undefined);
      const dispatcher = new Dispatcher({
        store,
        logger: logger.child({ component: 'dispatcher' }),
        turns,
        roots,
        limits: ex.limits,
        broker,
        runners: runnerPortOf(gateway.runners, cluster.directory),
        ...(faults ? { faults } : {}),
        cluster: cluster.membership,
        onParked: (actionId) => waiters.wake(actionId),
        observer: {
          ...(live?.observer.output ? { output: live.observer.output.bind(live.observer) } : {}),
          settled: (actionId, status, code) => {
            metrics.dispatchSettled(status, code ?? null);
            live?.observer.settled?.(actionId, status, code);
          },
        },
      });
      const sink = dispatcher.sink;
      if (sink) gateway.runners.setSink(runnerSinkActingAsReporter(live ? live.teeSink(sink) : sink));
      logRunnerPresence(gateway.runners, store, logger.child({ component: 'runners' }));
      turns.attachNotifier(gateway.agents);
      handoffs.subscribe((actionId) => dispatcher.notify(actionId));
      cluster.directory?.serve((actionId) => dispatcher.notify(actionId));
      appExecution = { dispatcher, gateway, broker, turns, cluster };
      stopSweep = startCredentialSweep({
        gateway: gateway.gateway,
        store,
        authenticator,
        logger: logger.child({ component: 'auth' }),
        intervalMs: authConfig.socketSweepMs,
      });
    }

    let closed = false;
    return {
      http,
      actions: productActions,
      store,
      handoffs,
      metrics,
      adminBootstrap,
      logger,
      execution: appExecution,
      live,
      async start() {
        if (!appExecution) return;
        if (broker) await reconcileContainers(store, broker, logger);
        // A waiting turn dies only with the whole gateway: while another node of the cluster is
        // alive, the agents' sockets and long-polls moved there and their turns are still served.
        const { membership } = appExecution.cluster;
        const othersAlive = (await membership.liveNodes()).some((node) => node.nodeId !== membership.nodeId);
        const lost = othersAlive ? 0 : await turns.recoverAfterRestart();
        if (lost > 0)
          logger.warn(
            { code: 'agent_turns_lost', count: lost },
            'agent turns that were waiting before the restart went back to the blocked queue (source infra)',
          );
        await appExecution.dispatcher.start();
      },
      async close() {
        if (closed) return;
        closed = true;
        waiters.wakeAll();
        stopSweep();
        if (appExecution) {
          await appExecution.dispatcher.close();
          await appExecution.gateway.gateway.close();
          await appExecution.cluster.close();
        }
        await http.close();
        await store.close();
      },
    };
  } catch (error) {
    await opened?.close().catch(() => {});
    await store.close();
    throw error;
  }
}
