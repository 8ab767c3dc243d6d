// Cluster gauges on the app's Prometheus registry, read when scraped: live nodes (leases in
// Postgres), runners connected anywhere in the cluster (presence replica) and on this node.
import { Gauge, type Registry } from 'prom-client';
import type { RunnerHub } from '../../gateway/runner-hub.ts';
import type { ClusterMembership } from './membership.ts';
import type { RunnerDirectory } from './runner-directory.ts';

export function registerClusterMetrics(
  registry: Registry,
  deps: { membership: ClusterMembership; directory: RunnerDirectory | null; hub: RunnerHub },
): void {
  new Gauge({
    name: 'brabo_cluster_nodes',
    help: 'Gateway nodes whose lease is live (1 on a single node)',
    registers: [registry],
    async collect() {
      this.set((await deps.membership.liveNodes().catch(() => [])).length);
    },
  });
  new Gauge({
    name: 'brabo_runners_connected',
    help: 'Runners connected to any node of the cluster',
    registers: [registry],
    collect() {
      this.set(deps.directory ? deps.directory.runners().length : deps.hub.connectedRunners().length);
    },
  });
  new Gauge({
    name: 'brabo_node_runners_connected',
    help: 'Runners whose socket this node holds',
    registers: [registry],
    collect() {
      this.set(deps.hub.connectedRunners().length);
    },
  });
}
