// Runs one shell command the way the runner promises: `sh -c` with the user's permissions (or
// inside the sandbox the launch names), in its own process group under a supervisor that kills the
// group if the runner dies (supervisor.ts), output captured up to a cap and streamed as it comes, a
// timeout that kills the whole group, and nothing of it left running once the result is reported.
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { OutputCapture } from './output-capture.ts';
import { groupAlive, signalGroup, terminateGroup } from './process-group.ts';
import { SECCOMP_FD } from './sandbox/launch.ts';
import type { Launch } from './sandbox/launch.ts';
import { supervised } from './supervisor.ts';

export type StreamName = 'stdout' | 'stderr';

export interface RunCommandOptions {
  command: string;
  /** What to spawn for `command` (sandboxed or not); default: `/bin/sh -c command`. */
  launch?: Pick<Launch, 'file' | 'args' | 'input'>;
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
    const launch = options.launch ?? { file: '/bin/sh', args: ['-c', options.command], input: null };
    const program = supervised(launch.file, launch.args);
    const child = spawn(program.file, program.args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      // fd 3: the supervisor's lifeline (never written; closed by the kernel if the runner dies).
      // fd 4: the sandbox's seccomp program, when there is one.
      stdio: launch.input === null ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
    });
    const [, childStdout, childStderr] = child.stdio as unknown as [
      null,
      NodeJS.ReadableStream & { destroy: () => void },
      NodeJS.ReadableStream & { destroy: () => void },
    ];
    const lifeline = child.stdio[3] as (Writable & { unref?: () => void; resume?: () => void }) | null | undefined;
    lifeline?.on('error', () => {}); // the watcher may be gone already; nothing to report
    lifeline?.resume?.(); // nothing is ever sent on it, but its end must be read for 'close' to come
    lifeline?.unref?.();
    if (launch.input !== null) {
      const seccomp = child.stdio[SECCOMP_FD] as Writable | null | undefined;
      seccomp?.on('error', () => {}); // bwrap failed before reading it: its exit code says why
      seccomp?.end(launch.input);
    }
    // Dropping the lifeline makes the watcher SIGKILL the group, so keep it until the group had
    // its grace after the shell exited.
    const releaseLifeline = (): void => {
      lifeline?.destroy();
    };
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
      // The shell is gone and the group was signalled; the lifeline goes after the SIGKILL grace.
      setTimeout(releaseLifeline, pgid !== undefined && groupAlive(pgid) ? options.killGraceMs + 100 : 0).unref();
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
      releaseLifeline();
      child.once('error', (error) => settle(error.message));
      options.onSpawned?.();
      return;
    }

    childStdout.on('data', (data: Buffer) => {
      stdout.push(data);
      options.onOutput?.('stdout', data);
    });
    childStderr.on('data', (data: Buffer) => {
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
          childStdout.destroy();
          childStderr.destroy();
          settle();
        }, options.killGraceMs + 1_000),
      );
    });
    child.once('close', () => settle());
    options.onSpawned?.();
  });
}
