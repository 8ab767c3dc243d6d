// Runs one shell command the way the runner promises: `sh -c` with the user's permissions, in its
// own process group, output captured up to a cap and streamed as it comes, a timeout that kills
// the whole group, and nothing of it left running once the result is reported.
import { spawn } from 'node:child_process';
import { OutputCapture } from './output-capture.ts';
import { groupAlive, signalGroup, terminateGroup } from './process-group.ts';

export type StreamName = 'stdout' | 'stderr';

export interface RunCommandOptions {
  command: string;
  /** Already checked and resolved (see cwd-guard.ts). */
  cwd: string;
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL of the group. */
  killGraceMs: number;
  /** Per stream, for the final result. */
  maxOutputBytes: number;
  env?: NodeJS.ProcessEnv;
  onOutput?: (stream: StreamName, data: Buffer) => void;
  /** Aborting kills the group at once (runner shutdown). */
  signal?: AbortSignal;
  /** Called once spawn() has returned, before anything else is set up. */
  onSpawned?: () => void;
}

export interface CommandOutcome {
  exitCode: number | null;
  /** The signal that ended the shell, when it did not exit on its own. */
  exitSignal: string | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** Set when the shell could not be started at all. */
  spawnError?: string;
}

export function runCommand(options: RunCommandOptions): Promise<CommandOutcome> {
  const started = performance.now();
  const stdout = new OutputCapture(options.maxOutputBytes);
  const stderr = new OutputCapture(options.maxOutputBytes);

  return new Promise<CommandOutcome>((resolve) => {
    const child = spawn('/bin/sh', ['-c', options.command], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let aborted = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    const settle = (spawnError?: string): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({
        exitCode,
        exitSignal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        truncated: stdout.truncated || stderr.truncated,
        timedOut,
        aborted,
        durationMs: Math.round(performance.now() - started),
        ...(spawnError === undefined ? {} : { spawnError }),
      });
    };

    const pgid = child.pid;
    if (pgid === undefined) {
      child.once('error', (error) => settle(error.message));
      options.onSpawned?.();
      return;
    }

    child.stdout.on('data', (data: Buffer) => {
      stdout.push(data);
      options.onOutput?.('stdout', data);
    });
    child.stderr.on('data', (data: Buffer) => {
      stderr.push(data);
      options.onOutput?.('stderr', data);
    });

    const onAbort = (): void => {
      aborted = true;
      signalGroup(pgid, 'SIGKILL');
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    timers.push(
      setTimeout(() => {
        timedOut = true;
        terminateGroup(pgid, options.killGraceMs);
      }, options.timeoutMs),
    );

    child.once('error', (error) => settle(error.message));
    child.once('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      // The shell is gone; whatever it left in its group (`sleep 100 &`) goes too, so a dispatch
      // never leaves work running behind its result.
      if (groupAlive(pgid)) terminateGroup(pgid, options.killGraceMs);
      // A process that left the group (setsid) may still hold our pipes: stop waiting for them.
      timers.push(
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          settle();
        }, options.killGraceMs + 1_000),
      );
    });
    child.once('close', () => settle());
    options.onSpawned?.();
  });
}
