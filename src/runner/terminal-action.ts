// Executes a `terminal` action: cwd check, then the command, then the outcome as a Result.
import type { Execute, Output, Result } from '../../runner-protocol/index.ts';
import { RUNNER_FAILURES, RUNNER_REFUSALS } from '../../runner-protocol/index.ts';
import { checkCwd } from './cwd-guard.ts';
import { OutputStreamer } from './output-streamer.ts';
import { runCommand } from './run-command.ts';
import type { CommandOutcome } from './run-command.ts';
import { launchFor } from './sandbox/launch.ts';
import type { Launch } from './sandbox/launch.ts';
import type { Availability } from './sandbox/platform.ts';
import { chooseSandbox } from './sandbox/policy.ts';
import type { SandboxGit, SandboxMode } from './sandbox/policy.ts';
import { refuseGitRedirect, SandboxUnprotectableError } from './sandbox/prepare.ts';

/** The runner's sandbox settings (--sandbox, --sandbox-network, --sandbox-git) and what the machine offers. */
export interface SandboxSettings {
  mode: SandboxMode;
  network: boolean;
  /** Absent: read-only (the default of --sandbox-git). */
  git?: SandboxGit;
  availability: Availability;
  /** The runner's own files (journal, log) that sandboxed commands may not read. */
  hide?: readonly string[];
}

/** Without settings (older callers, tests of the plain path): no sandbox. */
const NO_SANDBOX: SandboxSettings = {
  mode: 'off',
  network: true,
  availability: { available: false, why: 'not configured' },
};

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
  sandbox?: SandboxSettings;
  sendOutput: (message: Output) => void;
  signal: AbortSignal;
  /** Called after the cwd check, right before the spawn (journals the start); throwing means: do not spawn. */
  beforeSpawn?: () => void;
  /** Called right after the shell is spawned (or failed to spawn): the ack and the log wait for it. */
  onSpawned?: () => void;
  /** A sandboxed command changed a pinned folder's mode or owner, which was put back. */
  onSandboxRepair?: (paths: string[]) => void;
}

type TerminalExecute = Execute & { action: { type: 'terminal' } };

export async function executeTerminal(execute: TerminalExecute, context: TerminalContext): Promise<Result> {
  const { dispatchId, attempt, action } = execute;
  const verdict = checkCwd(context.root, action.cwd);
  if (!verdict.ok) {
    return { dispatchId, attempt, status: verdict.status, reason: { code: verdict.code, message: verdict.message } };
  }
  const settings = context.sandbox ?? NO_SANDBOX;
  const choice = chooseSandbox(settings.mode, settings.availability, action.approval ?? 'auto');
  if (choice.kind === 'refused') {
    return {
      dispatchId,
      attempt,
      status: 'refused',
      reason: { code: RUNNER_REFUSALS.sandboxUnavailable, message: choice.message },
    };
  }
  let launch: Launch;
  try {
    refuseGitRedirect(verdict.realRoot); // unsandboxed commands too: see prepare.ts
    launch = launchFor({
      command: action.command,
      root: verdict.realRoot,
      cwd: verdict.realCwd,
      env: context.env,
      backend: choice.kind === 'sandboxed' ? choice.backend : null,
      network: settings.network,
      git: settings.git ?? 'read-only',
      seccomp: settings.availability.available && settings.availability.seccomp,
      ...(settings.hide ? { hide: settings.hide } : {}),
    });
  } catch (error) {
    // Nothing was spawned: the protected files could not be pinned, so the command does not run.
    const code =
      error instanceof SandboxUnprotectableError ? RUNNER_FAILURES.sandboxUnprotectable : RUNNER_FAILURES.sandboxFailed;
    return {
      dispatchId,
      attempt,
      status: 'refused',
      reason: { code, message: `the command was not run: ${(error as Error).message}` },
    };
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
    launch,
    cwd: verdict.realCwd,
    timeoutMs,
    killGraceMs: limits.killGraceMs,
    maxOutputBytes: limits.maxOutputBytes,
    env: launch.env,
    signal: context.signal,
    ...(context.onSpawned ? { onSpawned: context.onSpawned } : {}),
    onOutput: (stream, data) => streamer.write(stream, data),
  });
  streamer.flush();
  try {
    const restored = launch.cleanup();
    if (restored.length > 0) context.onSandboxRepair?.(restored);
  } catch (error) {
    context.onSandboxRepair?.([`(could not restore: ${(error as Error).message})`]);
  }
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
    return {
      ...base,
      status: 'failed',
      reason: {
        code: RUNNER_FAILURES.spawnFailed,
        message: `the runner could not start /bin/sh: ${outcome.spawnError}`,
      },
    };
  }
  if (outcome.aborted) {
    return {
      ...base,
      status: 'failed',
      reason: {
        code: RUNNER_FAILURES.runnerShutdown,
        message: 'the runner was stopped while the command ran; its process group was killed',
      },
    };
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
    return {
      ...base,
      status: 'failed',
      reason: {
        code: RUNNER_FAILURES.commandSignalled,
        message: `the command's shell was ended by ${outcome.exitSignal ?? 'a signal'} from outside the runner`,
      },
    };
  }
  return { ...base, status: 'executed' };
}
