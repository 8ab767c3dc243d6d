// Prometheus metrics (prom-client), one registry per app so several apps in one process (tests)
// do not collide. Also the ActionObserver the use cases report to.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ActionObserver } from '../actions/ports.ts';

export class Metrics implements ActionObserver {
  readonly registry = new Registry();
  readonly #proposals: Counter<'action_type' | 'status' | 'reason_code'>;
  readonly #decisions: Counter<'by' | 'outcome'>;
  readonly #decideSeconds: Histogram;
  readonly #httpSeconds: Histogram<'method' | 'route' | 'status_code'>;
  readonly #dispatchOutcomes: Counter<'status' | 'code'>;
  readonly #brokerFailures: Counter<'code'>;
  #pending: (() => Promise<Array<{ actionType: string; count: number }>>) | null = null;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry });
    this.#proposals = new Counter({
      name: 'brabo_proposals_total',
      help: 'Proposed actions by creation status and the decide() reason code',
      labelNames: ['action_type', 'status', 'reason_code'],
      registers: [this.registry],
    });
    this.#decisions = new Counter({
      name: 'brabo_decisions_total',
      help: 'Decisions by who made them: human (a click) or policy (at creation)',
      labelNames: ['by', 'outcome'],
      registers: [this.registry],
    });
    this.#decideSeconds = new Histogram({
      name: 'brabo_decide_duration_seconds',
      help: 'Time spent in decide()',
      buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01],
      registers: [this.registry],
    });
    this.#httpSeconds = new Histogram({
      name: 'brabo_http_request_duration_seconds',
      help: 'HTTP request latency by route',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [this.registry],
    });
    this.#dispatchOutcomes = new Counter({
      name: 'brabo_dispatch_outcomes_total',
      help: 'Dispatches settled by this node, by status (executed|failed) and code (ok, or the failure code such as runner_not_connected)',
      labelNames: ['status', 'code'],
      registers: [this.registry],
    });
    this.#brokerFailures = new Counter({
      name: 'brabo_broker_failures_total',
      help: 'Failed Docker broker calls (start, stop, remove, exec, list, inspect) by failure code',
      labelNames: ['code'],
      registers: [this.registry],
    });
    // Read from the store when scraped, so every node reports the cluster's true queue and a
    // restart loses nothing. `pending` is null until the app wires its store.
    // A store that cannot answer leaves the last value (readiness reports the store, not /metrics).
    const pendingCounts = async (): Promise<Array<{ actionType: string; count: number }> | null> =>
      this.#pending ? this.#pending().catch(() => null) : [];
    new Gauge({
      name: 'brabo_pending_approvals',
      help: 'Actions waiting for a human decision, all projects',
      registers: [this.registry],
      async collect() {
        const counts = await pendingCounts();
        if (counts !== null) this.set(counts.reduce((sum, row) => sum + row.count, 0));
      },
    });
    new Gauge({
      name: 'brabo_pending_approvals_by_type',
      help: 'Actions waiting for a human decision, all projects, by action type',
      labelNames: ['action_type'],
      registers: [this.registry],
      async collect() {
        const counts = await pendingCounts();
        if (counts === null) return;
        this.reset();
        for (const row of counts) this.set({ action_type: row.actionType }, row.count);
      },
    });
  }

  /** Where the pending-approvals gauges read their counts (the store). */
  watchPendingApprovals(count: () => Promise<Array<{ actionType: string; count: number }>>): void {
    this.#pending = count;
  }

  dispatchSettled(status: 'executed' | 'failed', code: string | null): void {
    this.#dispatchOutcomes.inc({ status, code: status === 'executed' ? 'ok' : (code ?? 'unknown') });
  }

  brokerFailed(code: string): void {
    this.#brokerFailures.inc({ code });
  }

  proposed(event: Parameters<ActionObserver['proposed']>[0]): void {
    this.#proposals.inc({ action_type: event.actionType, status: event.status, reason_code: event.reasonCode });
    this.#decideSeconds.observe(event.decideSeconds);
  }

  decided(event: Parameters<ActionObserver['decided']>[0]): void {
    this.#decisions.inc({ by: event.by, outcome: event.outcome });
  }

  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.#httpSeconds.observe({ method, route, status_code: String(statusCode) }, seconds);
  }
}
