// A runner's reports (result, oversized result, output) run as the runner token that sent them:
// every event they cause (action.executed / failed, the real outcome replacing outcome_unknown,
// action.late_result) records that credential's id and kind `runner` (issue 12.3). Without a
// reporter (a sink called from elsewhere), the work runs as the system actor.
import type { RunnerReporter, RunnerSink } from '../../gateway/index.ts';
import { actingAs } from '../auth/context.ts';
import { type CredentialStamp, SYSTEM_STAMP } from '../auth/principal.ts';

const stampOfReporter = (from: RunnerReporter | undefined): CredentialStamp =>
  from ? { id: from.tokenId, kind: 'runner', via: null } : SYSTEM_STAMP;

export function runnerSinkActingAsReporter(sink: RunnerSink): RunnerSink {
  return {
    onResult: (projectId, result, from) =>
      actingAs(stampOfReporter(from), () => sink.onResult(projectId, result, from)),
    ...(sink.onOversizedResult
      ? {
          onOversizedResult: (projectId, result, bytes, from) =>
            actingAs(stampOfReporter(from), () => sink.onOversizedResult!(projectId, result, bytes, from)),
        }
      : {}),
    ...(sink.onOutput
      ? {
          onOutput: (projectId, output, from) =>
            actingAs(stampOfReporter(from), () => sink.onOutput!(projectId, output, from)),
        }
      : {}),
  };
}
