// What an execution ends in: `executed` (the command ran; any exit code) or `failed` with a code
// and a sentence an operator can act on. Output is capped before it is recorded.

/** Who reported the outcome: the runner, the broker, an external executor, or the gateway itself (before/around delivery). */
export type OutcomeOrigin = 'runner' | 'broker' | 'executor' | 'gateway';

export interface ExecutedOutcome {
  status: 'executed';
  origin?: OutcomeOrigin;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  durationMs?: number;
  /** The runner answered a re-delivery from its journal instead of running again. */
  fromJournal?: boolean;
  /** Set when the runner reported an attempt whose claim was lost with a gateway process (see RunnerRoute.onResult). */
  runnerAttempt?: number;
  /** Container actions: what the lifecycle became. */
  container?: { state: string; containerId: string | null };
  /** container_start: the resources it was started with (RN-683). */
  resources?: Record<string, number>;
  /** An external executor's report: who reported, and the facts it gave (a PR number, a URL). */
  executor?: { name: string; credentialId: string };
  detail?: Record<string, unknown>;
}

export interface FailedOutcome {
  status: 'failed';
  origin?: OutcomeOrigin;
  code: string;
  message: string;
  detail?: Record<string, unknown>;
  /** As in ExecutedOutcome. */
  runnerAttempt?: number;
  exitCode?: number | null;
  stdout?: string;
  stderr?: string;
  truncated?: boolean;
}

export type ExecutionOutcome = ExecutedOutcome | FailedOutcome;

export const failedOutcome = (code: string, message: string, detail?: Record<string, unknown>): FailedOutcome =>
  detail === undefined ? { status: 'failed', code, message } : { status: 'failed', code, message, detail };

/** Keeps at most `maxBytes` UTF-8 bytes of `text`; says whether anything was cut. */
export function capText(text: string, maxBytes: number): { text: string; cut: boolean } {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return { text, cut: false };
  const cut = Buffer.from(text, 'utf8').subarray(0, maxBytes).toString('utf8');
  // A multi-byte character split at the boundary decodes as U+FFFD; drop it.
  return { text: cut.endsWith('\uFFFD') ? cut.slice(0, -1) : cut, cut: true };
}

/** The outcome with stdout/stderr capped to `maxBytes` each (truncated set when cut). */
export function capOutcome<T extends ExecutionOutcome>(outcome: T, maxBytes: number): T {
  let truncated = outcome.truncated ?? false;
  const capped = { ...outcome };
  for (const stream of ['stdout', 'stderr'] as const) {
    const value = outcome[stream];
    if (typeof value !== 'string') continue;
    const { text, cut } = capText(value, maxBytes);
    capped[stream] = text;
    truncated ||= cut;
  }
  if (outcome.stdout !== undefined || outcome.stderr !== undefined || outcome.truncated !== undefined)
    capped.truncated = truncated;
  return capped;
}
