// The HTTP API: fastify + zod schemas (validation and OpenAPI at /docs), the authorization table
// (src/auth: a credential of the right kind on every route but /healthz, /readyz and /metrics), the
// {error, message} envelope.
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  type RawServerDefault,
} from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Actions } from '../actions/index.ts';
import type { ExecutionApi } from '../execution/service.ts';
import type { LiveOutput } from '../live/live-output.ts';
import type { Logger } from '../logger.ts';
import type { ReviewDeps } from '../live/review.ts';
import { loadConsoleAssets, registerConsoleAssets } from './console-assets.ts';
import { registerConsoleSession } from './console-session.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { CredentialService } from '../auth/credentials.ts';
import { installHttpGuard } from '../auth/http-guard.ts';
import type { AuthRateLimiter } from '../auth/rate-limit.ts';
import type { RunnerTokenRepository, Store } from '../store/types.ts';
import { errorHandler } from './errors.ts';
import type { Metrics } from './metrics.ts';
import type { ReadinessReport } from './readiness.ts';
import { actionRoutes } from './routes/actions.ts';
import { consoleRoutes, type RunnerPresence, type Viewer } from './routes/console.ts';
import { type ClusterView, clusterRoutes } from './routes/cluster.ts';
import { containerRoutes } from './routes/containers.ts';
import { credentialRoutes } from './routes/credentials.ts';
import { eventRoutes } from './routes/events.ts';
import { healthRoutes } from './routes/health.ts';
import { outputRoutes } from './routes/output.ts';
import { permissionRoutes } from './routes/permissions.ts';
import { projectRoutes } from './routes/projects.ts';
import { runnerTokenRoutes } from './routes/runner-tokens.ts';
import { taskRoutes } from './routes/tasks.ts';
import { executorRoutes } from './routes/executors.ts';
import type { ExecutorService } from '../execution/executors.ts';

export interface HttpDeps {
  actions: Actions;
  runnerTokens: RunnerTokenRepository;
  metrics: Metrics;
  logger: Logger;
  store: Store;
  auth: {
    authenticator: Authenticator;
    limiter: AuthRateLimiter;
    metricsToken: string | null;
    /** Load balancers trusted for X-Forwarded-For (request.ip); none by default. */
    trustedProxies?: string[];
  };
  credentials: CredentialService;
  /** Absent when no dispatcher runs (API-only): routes then answer without execution fields. */
  execution?: ExecutionApi;
  /** External executors' claims and reports; null (503) while no dispatcher runs. */
  executors?: () => ExecutorService | null;
  /** GET /api/cluster: nodes and runner presence across the cluster; absent without execution. */
  cluster?: () => Promise<ClusterView>;
  /** Live command output (SSE route); absent without execution. */
  live?: LiveOutput;
  /** The console's read models (lists across projects) and its built assets. */
  console?: {
    review: ReviewDeps & { store: Store };
    runnerPresence?: (projectId: string) => RunnerPresence;
    /** Built console folder (default dist/console); tests point it at a build of their own. */
    assetsDir?: string;
  };
  /** /readyz's checks (store, Docker); absent = always ready. */
  readiness?: () => Promise<ReadinessReport>;
}

/**
 * The request as logged: query values are dropped (callers do put tokens there: `?token=` is the
 * socket's convention), only their names are kept so the operator still sees the shape.
 */
export function requestForLog(request: { method?: string; url?: string; ip?: string }): Record<string, unknown> {
  const url = request.url ?? '';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const names = q < 0 ? [] : [...new URLSearchParams(url.slice(q + 1)).keys()];
  return {
    method: request.method,
    url: names.length === 0 ? path : `${path}?${names.map((n) => `${n}=[redacted]`).join('&')}`,
    remoteAddress: request.ip,
  };
}

/** Every route the server registered (method, template), for the authorization-table test. */
const registered = new WeakMap<object, Array<{ method: string; url: string }>>();
export const registeredRoutes = (server: object): ReadonlyArray<{ method: string; url: string }> =>
  registered.get(server) ?? [];

export type HttpServer = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export async function buildHttpServer(deps: HttpDeps): Promise<HttpServer> {
  const app = Fastify({
    loggerInstance: deps.logger.child({}, { serializers: { req: requestForLog } }) as FastifyBaseLogger,
    bodyLimit: 1_048_576,
    ...(deps.auth.trustedProxies?.length ? { trustProxy: deps.auth.trustedProxies } : {}),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  const routes: Array<{ method: string; url: string }> = [];
  registered.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url });
  });
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send({ error: 'not_found', message: `no route ${request.method} ${request.url.split('?')[0]}` });
  });

  // Default deny, decided on the route that matched (its registered template), never on the raw
  // URL: the router percent-decodes paths, so `/%61pi/...` reaches `/api/...` routes.
  installHttpGuard(app, { ...deps.auth, store: deps.store, logger: deps.logger });
  app.addHook('onResponse', async (request, reply) => {
    deps.metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'brabo-gateway',
        description: "Proposals, decisions and approvals of AI agents' actions",
        version: '0.1.0',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  const { actions } = deps;
  await app.register(healthRoutes, { metrics: deps.metrics, ...(deps.readiness ? { readiness: deps.readiness } : {}) });
  await app.register(projectRoutes, { actions });
  await app.register(permissionRoutes, { actions });
  await app.register(runnerTokenRoutes, {
    actions,
    runnerTokens: deps.runnerTokens,
    ...(deps.execution ? { execution: deps.execution } : {}),
  });
  await app.register(actionRoutes, {
    actions,
    store: deps.store,
    ...(deps.execution ? { execution: deps.execution } : {}),
  });
  await app.register(eventRoutes, { actions });
  await app.register(containerRoutes, { actions, store: deps.store });
  await app.register(taskRoutes, { actions });
  await app.register(executorRoutes, deps.executors ? { executors: deps.executors } : {});
  if (deps.cluster) await app.register(clusterRoutes, { describe: deps.cluster });
  if (deps.live) await app.register(outputRoutes, { actions, live: deps.live });
  if (deps.console) {
    // A human token sees its own projects; the upstream service (the table lets no other kind
    // reach these routes) sees every project, as the admin token did before issue 12.
    const viewerOf = (request: FastifyRequest): Viewer => {
      const principal = request.auth?.principal;
      return principal?.kind === 'human' ? { kind: 'human', userId: principal.memberId } : { kind: 'admin' };
    };
    await app.register(consoleRoutes, {
      ...deps.console.review,
      viewerOf,
      ...(deps.console.runnerPresence ? { runnerPresence: deps.console.runnerPresence } : {}),
    });
  }
  registerConsoleAssets(app, loadConsoleAssets(deps.console?.assetsDir));
  registerConsoleSession(app);
  await app.register(credentialRoutes, { credentials: deps.credentials, store: deps.store });
  return app;
}
