import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Metrics } from '../metrics.ts';
import type { ReadinessReport } from '../readiness.ts';

const readinessReport = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.array(
    z.object({ name: z.string(), ok: z.boolean(), code: z.string().optional(), message: z.string().optional() }),
  ),
});

export interface HealthRouteOptions {
  metrics: Metrics;
  /** /readyz: absent = only the process is checked (always ready). */
  readiness?: () => Promise<ReadinessReport>;
}

// /healthz: the process answers (liveness; restart it when this fails). /readyz: the parts it
// needs answer too (readiness; stop routing to it while this is 503, the body names the part).
export const healthRoutes: FastifyPluginAsyncZod<HealthRouteOptions> = async (app, { metrics, readiness }) => {
  app.get(
    '/healthz',
    { schema: { hide: true, response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/readyz',
    { schema: { hide: true, response: { 200: readinessReport, 503: readinessReport } } },
    async (_request, reply) => {
      const report: ReadinessReport = readiness ? await readiness() : { status: 'ready', checks: [] };
      return reply.code(report.status === 'ready' ? 200 : 503).send(report);
    },
  );
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    void reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
};
