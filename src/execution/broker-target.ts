// The broker target: `container` projects run on this gateway's Docker broker, claimed straight to
// `running` (no lease: the broker call is this process's own), outcome recorded when it returns.
import type { ContainerBrokerPort } from '../../broker/port.ts';
import type { Logger } from '../logger.ts';
import { runContainerOnBroker, runTerminalOnBroker, type Routed } from './broker-route.ts';
import type { ExecutionLimits } from './config.ts';
import { noBroker } from './failures.ts';
import type { ExecutionObserver } from './ports.ts';
import type { OutcomeRecorder } from './recorder.ts';
import type { ClaimShape, Claimer, ExecutionTarget, TargetControls, TargetJob } from './target.ts';

export const BROKER_TARGET = 'broker';

export class BrokerTarget implements ExecutionTarget {
  readonly name = 'broker' as const;
  readonly #broker: ContainerBrokerPort | null;
  readonly #recorder: OutcomeRecorder;
  readonly #limits: ExecutionLimits;
  readonly #logger: Logger;
  readonly #observer: ExecutionObserver | undefined;
  /** Projects whose parked-without-broker warning was logged already (debug after that). */
  readonly #warned = new Set<string>();

  constructor(options: {
    broker: ContainerBrokerPort | null;
    recorder: OutcomeRecorder;
    limits: ExecutionLimits;
    logger: Logger;
    observer?: ExecutionObserver;
  }) {
    this.#broker = options.broker;
    this.#recorder = options.recorder;
    this.#limits = options.limits;
    this.#logger = options.logger;
    this.#observer = options.observer;
  }

  async ready(job: TargetJob, controls: TargetControls): Promise<boolean> {
    if (this.#broker) return true;
    const why = noBroker(job.project.id);
    controls.park(why);
    // Once per project and process at warn (the condition, not each action, is what to act on).
    const first = !this.#warned.has(job.project.id);
    this.#warned.add(job.project.id);
    this.#logger[first ? 'warn' : 'debug'](
      { code: why.code, actionId: job.action.id, projectId: job.project.id },
      `${why.message} Approved actions of this project stay queued until then.`,
    );
    return false;
  }

  async run(job: TargetJob, claim: Claimer): Promise<void> {
    const shape: ClaimShape = { to: 'running', target: BROKER_TARGET, leaseMs: null };
    const claimed = await claim(shape, () => null);
    if (!claimed) return;
    job.progress.claim = claimed.claim;
    const routed = await this.#route(job, claimed.previousContainerId);
    await this.#recorder.record({
      dispatch: claimed.claim,
      fence: { attempt: claimed.claim.attempt, from: ['running'] },
      action: job.action,
      outcome: routed.outcome,
      ...(routed.lifecycle ? { lifecycle: routed.lifecycle } : {}),
    });
  }

  #route(job: TargetJob, previousContainerId: string | null): Promise<Routed> {
    const broker = this.#broker as ContainerBrokerPort;
    const { action, project, plan, scopeRoot, resources } = job;
    if (plan.kind === 'terminal') {
      const observer = this.#observer;
      const onOutput = observer?.output
        ? (stream: 'stdout' | 'stderr', chunk: Buffer) => observer.output?.(action, stream, chunk)
        : undefined;
      return runTerminalOnBroker(
        broker,
        {
          projectId: project.id,
          scopeRoot,
          command: plan.command,
          cwd: plan.cwd,
          timeoutMs: plan.timeoutMs,
          maxOutputBytes: this.#limits.outputCapBytes,
        },
        onOutput,
      );
    }
    return runContainerOnBroker(broker, {
      projectId: project.id,
      scopeRoot,
      actionType: plan.actionType,
      resources,
      previousContainerId,
    });
  }
}
