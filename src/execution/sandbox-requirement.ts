// A project that requires a sandbox (issue 9 B.3) never has an auto-approved command sent to a
// runner that does not sandbox it: the dispatch fails with a named reason before anything is
// sent, so "not run" is certain. Human-approved commands run as the human approved them.
import type { RunnerSandbox } from '../../runner-protocol/index.ts';
import type { Project } from '../store/types.ts';
import { failedOutcome, type FailedOutcome } from './outcome.ts';
import type { ExecutionPlan } from './plan.ts';

export const SANDBOX_REQUIRED = 'sandbox_required';

/** Why the runner's sandbox does not meet the project's requirement, or null when it does. */
export function sandboxShortfall(sandbox: RunnerSandbox | null): string | null {
  if (sandbox === null)
    return 'the connected runner reports no sandbox state (an older runner); update brabo on that machine';
  if (sandbox.mode === 'off') return 'the connected runner runs with --sandbox off';
  if (!sandbox.available) return `the connected runner has no sandbox (${sandbox.reason ?? 'unavailable'})`;
  return null;
}

export function sandboxRequirementFailure(
  project: Project,
  plan: ExecutionPlan,
  sandbox: RunnerSandbox | null,
): FailedOutcome | null {
  if (project.sandboxRequired !== true || plan.kind !== 'terminal' || plan.approval !== 'auto') return null;
  const shortfall = sandboxShortfall(sandbox);
  if (shortfall === null) return null;
  return failedOutcome(
    SANDBOX_REQUIRED,
    `project ${project.id} requires a sandbox for auto-approved commands, but ${shortfall}; the command was not sent and did not run. ` +
      "Install bubblewrap on the runner's machine (or use macOS), restart the runner with --sandbox auto or required, then propose the command again",
  );
}
