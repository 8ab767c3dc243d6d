// What an external executor's report means: the outcome it records, whether it repeats the one
// recorded, and what a git_merge's report makes true (RN-628). Pure, except the merge effect,
// which runs inside the recorder's transaction.
import { applyMergeResult } from '../actions/merge.ts';
import { ActionError } from '../actions/errors.ts';
import type { ProposedAction } from '../store/types.ts';
import { isExternallyExecuted } from './external-types.ts';
import { type ExecutionOutcome, failedOutcome } from './outcome.ts';
import type { RecordInput } from './recorder.ts';

/** The executor credential that claims or reports. */
export interface ExecutorIdentity {
  credentialId: string;
  name: string;
  /** Bound to one project, or null for all. */
  projectId: string | null;
}

export interface ExecutorReport {
  attempt: number;
  status: 'executed' | 'failed';
  /** Required when failed: a snake_case code and an operator-actionable sentence. */
  code?: string | undefined;
  message?: string | undefined;
  /** What the executor printed or the provider answered (capped like command output). */
  output?: string | undefined;
  /** Structured facts (a PR number, a URL, a commit); kept with the outcome. */
  detail?: Record<string, unknown> | undefined;
}

export function requireExternalType(type: string): void {
  if (!isExternallyExecuted(type))
    throw new ActionError(
      'invalid',
      'not_an_executor_type',
      `${type} is not an action type an external executor runs (the gateway runs terminal and container_* itself); see README "External executors"`,
    );
}

const SNAKE = /^[a-z][a-z0-9_]{0,63}$/;

/** The report as an outcome, or a 400 naming what is missing. */
export function outcomeOfReport(report: ExecutorReport, who: ExecutorIdentity): ExecutionOutcome {
  const executor = { name: who.name, credentialId: who.credentialId };
  if (report.status === 'executed')
    return {
      status: 'executed',
      origin: 'executor',
      exitCode: null,
      stdout: report.output ?? '',
      stderr: '',
      truncated: false,
      executor,
      ...(report.detail ? { detail: report.detail } : {}),
    };
  if (!report.code || !SNAKE.test(report.code) || !report.message?.trim())
    throw new ActionError(
      'invalid',
      'failure_needs_code_and_message',
      'a failed report carries `code` (snake_case, e.g. provider_rejected) and `message` (a sentence an operator can act on)',
    );
  return {
    ...failedOutcome(report.code, report.message, { ...report.detail, executor }),
    origin: 'executor',
    ...(report.output !== undefined ? { stdout: report.output } : {}),
  };
}

/** The same report again (a retry after a lost answer): same status and code. */
export const sameReport = (recorded: Record<string, unknown>, outcome: ExecutionOutcome): boolean =>
  recorded.status === outcome.status && (outcome.status === 'executed' || recorded.code === outcome.code);

/** A git_merge's report is the provider's answer: executed = merged (RN-628), failed = not merged (a retry may be proposed). */
export function mergeEffect(action: ProposedAction, outcome: ExecutionOutcome): RecordInput['within'] | undefined {
  if (action.actionType !== 'git_merge') return undefined;
  return async (tx, at) => {
    await applyMergeResult(tx, action, outcome.status === 'executed', at);
  };
}
