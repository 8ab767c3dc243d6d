// A real `brabo runner` child process (./bin/brabo runner ...), its stdout kept for assertions.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from './fixtures.ts';

const BRABO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/brabo');

export interface RunnerProcess {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  waitForOutput: (text: string, timeoutMs?: number) => Promise<void>;
  stop: () => Promise<number | null>;
}

/** The flags that point a runner at a gateway and a project: `startRunner([...runnerArgs(...), ...extra])`. */
export function runnerArgs(options: {
  url: string;
  token: string;
  project: string;
  root: string;
  journal: string;
}): string[] {
  return [
    '--url',
    options.url,
    '--token',
    options.token,
    '--project',
    options.project,
    '--root',
    options.root,
    '--journal',
    options.journal,
  ];
}

export function startRunner(args: string[]): RunnerProcess {
  const child = spawn(BRABO, ['runner', ...args], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (data: Buffer) => (out += data.toString()));
  child.stderr.on('data', (data: Buffer) => (err += data.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForOutput: (text, timeoutMs = 15_000) =>
      waitFor(
        () => {
          if (out.includes(text)) return true;
          if (exitCode !== undefined)
            throw new Error(`runner exited (${exitCode}) before printing "${text}"\nstdout:\n${out}\nstderr:\n${err}`);
          return false;
        },
        timeoutMs,
        `runner output "${text}"\nstdout so far:\n${out}\nstderr:\n${err}`,
      ),
    stop: async () => {
      if (exitCode === undefined) child.kill('SIGTERM');
      return exited;
    },
  };
}
