// Prometheus metrics (prom-client), one registry per app so several apps in one process (tests)
// do not collide. Also the ActionObserver the use cases report to.
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { ActionObserver } from '../actions/ports.ts';

export class Metrics implements ActionObserver {
  readonly registry = new Registry();
  readonly #proposals: Counter<'action_type' | 'status' | 'reason_code'>;
  readonly #decisions: Counter<'by' | 'outcome'>;
  readonly #decideSeconds: Histogram;
  readonly #httpSeconds: Histogram<'method' | 'route' | 'status_code'>;

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
