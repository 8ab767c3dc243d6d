// GET /api/cluster: the nodes of the cluster (leases in Postgres) and the runners connected to
// any of them, with the node holding each socket. A single node reports itself.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export interface ClusterView {
  node: { id: string; epoch: number };
  nodes: Array<{
    nodeId: string;
    epoch: number;
    address: string | null;
    startedAt: string;
    heartbeatAt: string;
    leaseUntil: string;
  }>;
  runners: Array<{ projectId: string; nodeId: string; hostname: string | null; onlineAt: string | null }>;
}

export const clusterRoutes: FastifyPluginAsyncZod<{ describe: () => Promise<ClusterView> }> = async (
  app,
  { describe },
) => {
  app.get('/api/cluster', { schema: { summary: 'Gateway nodes and where each runner is connected' } }, async () =>
    describe(),
  );
};
