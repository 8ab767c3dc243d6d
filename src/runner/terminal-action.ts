// Executes a `terminal` action: cwd check, then the command, then the outcome as a Result.
import type { Execute, Output, Result } from '../../runner-protocol/index.ts';
import { RUNNER_FAILURES } from '../../runner-protocol/index.ts';
import { checkCwd } from './cwd-guard.ts';
import { OutputStreamer } from './output-streamer.ts';
import { runCommand } from './run-command.ts';
import type { CommandOutcome } from './run-command.ts';

export interface TerminalLimits {
  defaultTimeoutMs: number;
  killGraceMs: number;
  maxOutputBytes: number;
  chunkChars: number;
  flushIntervalMs: number;
}

export interface TerminalContext {
  root: string;
  limits: TerminalLimits;
  env: NodeJS.ProcessEnv;
  sendOutput: (message: Output) => void;
  signal: AbortSignal;
  /** Called after the cwd check, right before the spawn (journals the start); throwing means: do not spawn. */
  beforeSpawn?: () => void;
  /** Called right after the shell is spawned (or failed to spawn): the ack and the log wait for it. */
  onSpawned?: () => void;
}

type TerminalExecute = Execute & { action: { type: 'terminal' } };

export async function executeTerminal(execute: TerminalExecute, context: TerminalContext): Promise<Result> {
  const { dispatchId, attempt, action } = execute;
  const verdict = checkCwd(context.root, action.cwd);
  if (!verdict.ok) {
    return { dispatchId, attempt, status: verdict.status, reason: { code: verdict.code, message: verdict.message } };
  }
  const { limits } = context;
  const timeoutMs = action.timeoutMs ?? limits.defaultTimeoutMs;
  const streamer = new OutputStreamer({
    dispatchId,
    attempt,
    chunkChars: limits.chunkChars,
    flushIntervalMs: limits.flushIntervalMs,
    budgetChars: limits.maxOutputBytes,
    send: context.sendOutput,
  });
  context.beforeSpawn?.();
  const outcome = await runCommand({
    command: action.command,
    cwd: verdict.realCwd,
    timeoutMs,
    killGraceMs: limits.killGraceMs,
    maxOutputBytes: limits.maxOutputBytes,
    env: context.env,
    signal: context.signal,
    ...(context.onSpawned ? { onSpawned: context.onSpawned } : {}),
    onOutput: (stream, data) => streamer.write(stream, data),
  });
  streamer.flush();
  return toResult(execute, outcome, timeoutMs, limits.killGraceMs);
}

function toResult(execute: TerminalExecute, outcome: CommandOutcome, timeoutMs: number, killGraceMs: number): Result {
  const base = {
    dispatchId: execute.dispatchId,
    attempt: execute.attempt,
    exitCode: outcome.exitCode,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    truncated: outcome.truncated,
  };
  if (outcome.spawnError !== undefined) {
    return { ...base, status: 'failed', reason: { code: RUNNER_FAILURES.spawnFailed, message: `the runner could not start /bin/sh: ${outcome.spawnError}` } };
  }
  if (outcome.aborted) {
    return { ...base, status: 'failed', reason: { code: RUNNER_FAILURES.runnerShutdown, message: 'the runner was stopped while the command ran; its process group was killed' } };
  }
  if (outcome.timedOut) {
    return {
      ...base,
      status: 'failed',
      reason: {
        code: RUNNER_FAILURES.commandTimeout,
        message: `the command ran longer than its ${timeoutMs} ms timeout; its whole process group was sent SIGTERM, then SIGKILL after ${killGraceMs} ms`,
      },
    };
  }
  if (outcome.exitCode === null) {
    return { ...base, status: 'failed', reason: { code: RUNNER_FAILURES.commandSignalled, message: `the command's shell was ended by ${outcome.exitSignal ?? 'a signal'} from outside the runner` } };
  }
  return { ...base, status: 'executed' };
}
