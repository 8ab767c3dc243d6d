// The runner target: `mounted` / `runner` projects run on the runner connected for the project.
// On a cluster the node holding the runner's socket claims and delivers (others forward to it);
// a runner seen within the grace period is waited for; the `execute` goes out inside the claim's
// transaction (RunnerRoute.push) and the lease covers delivery, the command and the grace.
import { sandboxRequirementFailure } from './sandbox-requirement.ts';
import type { ExecutionLimits } from './config.ts';
import { runnerNotConnected } from './failures.ts';
import type { RunnerPort } from './ports.ts';
import { RunnerRoute, runnerTarget } from './runner-route.ts';
import type { Claimer, ExecutionTarget, TargetControls, TargetJob } from './target.ts';

export class RunnerTarget implements ExecutionTarget {
  readonly name = 'runner' as const;
  readonly #route: RunnerRoute | null;
  readonly #runners: RunnerPort | null;
  readonly #limits: ExecutionLimits;
  readonly #now: () => Date;

  constructor(options: {
    route: RunnerRoute | null;
    runners: RunnerPort | null;
    limits: ExecutionLimits;
    now: () => Date;
  }) {
    this.#route = options.route;
    this.#runners = options.runners;
    this.#limits = options.limits;
    this.#now = options.now;
  }

  async ready(job: TargetJob, controls: TargetControls): Promise<boolean> {
    const runners = this.#runners;
    const projectId = job.project.id;
    const where = runners?.locate
      ? runners.locate(projectId)
      : runners?.isConnected(projectId)
        ? { at: 'here' as const }
        : null;
    if (where?.at === 'node' && runners?.forward) {
      // The node holding the runner's socket claims and delivers it (src/cluster), unless the
      // dispatcher handed it over already, to that same node.
      if (!job.progress.forwarded) runners.forward(where.nodeId, job.action.id);
      return false;
    }
    if (where === null) {
      const lastSeen = (await runners?.lastSeen(projectId)) ?? null;
      // A runner seen within the grace period is most likely reconnecting (a restarted or killed
      // gateway node, a network blip): wait for it rather than fail what it will pick up.
      const reconnecting =
        lastSeen !== null && this.#now().getTime() - lastSeen.getTime() <= this.#limits.runnerGraceMs;
      if (runners && (job.mode === 'resume' || reconnecting)) {
        controls.awaitRunner();
        return false;
      }
      await controls.fail(runnerNotConnected(projectId, lastSeen));
      return false;
    }
    // On the node holding the runner's socket, so its join's sandbox state is at hand (issue 9 B.3).
    const unsandboxed = sandboxRequirementFailure(job.project, job.plan, runners?.sandboxOf?.(projectId) ?? null);
    if (unsandboxed !== null) {
      await controls.fail(unsandboxed);
      return false;
    }
    return true;
  }

  async run(job: TargetJob, claim: Claimer): Promise<void> {
    const route = this.#route;
    const runnerAction = RunnerRoute.actionFor(job.plan, job.resources);
    if (!route || !runnerAction) return; // unreachable: no runner port fails in ready()
    const timeoutMs = job.plan.kind === 'terminal' ? job.plan.timeoutMs : this.#limits.commandTimeoutMs;
    const shape = { to: 'sent' as const, target: runnerTarget(job.project.id), leaseMs: route.leaseMs(timeoutMs) };
    // The execute goes out inside the claim's transaction, before its COMMIT (see RunnerRoute.push).
    const claimed = await route.claiming(job.dispatch.id, () =>
      claim(shape, (committing) => {
        job.progress.sent = true;
        return route.push(committing, runnerAction);
      }),
    );
    if (!claimed) return;
    job.progress.claim = claimed.claim;
    await route.deliver(claimed.claim, job.action.actionType, claimed.handedOff, claimed.previousContainerId);
  }
}
