// A dispatch the journal shows started but never finished: the runner died while it ran, so its
// outcome is unknown. It is settled as `failed runner_interrupted` and never run again.
import type { Result } from '../../runner-protocol/index.ts';
import { RUNNER_FAILURES } from '../../runner-protocol/index.ts';
import type { StartedRun } from './journal.ts';

export function interruptedResult(run: StartedRun): Result {
  return {
    dispatchId: run.dispatchId,
    attempt: run.attempt,
    status: 'failed',
    reason: {
      code: RUNNER_FAILURES.runnerInterrupted,
      message:
        `the runner stopped while this command was running (started at ${run.startedAt}); it was not run again. ` +
        'Check the project folder for partial effects and propose it again if needed.',
    },
    fromJournal: true,
  };
}
