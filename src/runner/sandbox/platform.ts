// Which sandbox this machine has: bubblewrap on Linux (probed once by running it, since an
// installed bwrap can still be unusable, e.g. without unprivileged user namespaces), Seatbelt on
// macOS, none elsewhere. The answer is one line the runner prints and reports in its join.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { BWRAP } from './bwrap.ts';
import { SANDBOX_EXEC } from './seatbelt.ts';
import { seccompProgram } from './seccomp.ts';

export type SandboxBackend = 'bwrap' | 'seatbelt';

export type Availability =
  { available: true; backend: SandboxBackend; seccomp: boolean } | { available: false; why: string };

export interface ProbeHooks {
  platform?: NodeJS.Platform;
  arch?: string;
  /** Runs the probe command; resolves to its exit code and stderr. */
  run?: (file: string, args: string[], input: Buffer | null) => Promise<{ code: number | null; stderr: string }>;
  canExecute?: (file: string) => boolean;
}

const PROBE_TIMEOUT_MS = 5_000;

export async function probeSandbox(hooks: ProbeHooks = {}): Promise<Availability> {
  const platform = hooks.platform ?? process.platform;
  const run = hooks.run ?? runProbe;
  if (platform === 'darwin') {
    const canExecute = hooks.canExecute ?? executable;
    return canExecute(SANDBOX_EXEC)
      ? { available: true, backend: 'seatbelt', seccomp: false }
      : { available: false, why: `${SANDBOX_EXEC} is missing` };
  }
  if (platform !== 'linux')
    return { available: false, why: `no sandbox back-end for ${platform} (bubblewrap on Linux, Seatbelt on macOS)` };
  let program: Buffer | null = null;
  try {
    program = seccompProgram(hooks.arch ?? process.arch);
  } catch {
    program = null; // another architecture: bwrap still isolates, only unix sockets stay reachable
  }
  const base = [
    '--die-with-parent',
    '--unshare-pid',
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
  ];
  const args = program === null ? [...base, '--', '/bin/true'] : [...base, '--seccomp', '0', '--', '/bin/true'];
  let outcome: { code: number | null; stderr: string };
  try {
    outcome = await run(BWRAP, args, program);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      available: false,
      why:
        code === 'ENOENT'
          ? 'bubblewrap (bwrap) is not installed'
          : `bwrap could not be started (${code ?? (error as Error).message})`,
    };
  }
  if (outcome.code !== 0) {
    const detail = outcome.stderr.trim().split('\n')[0]?.slice(0, 200) ?? '';
    return {
      available: false,
      why: `bwrap is installed but cannot create a sandbox here (${detail || `exit ${String(outcome.code)}`})`,
    };
  }
  return { available: true, backend: 'bwrap', seccomp: program !== null };
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function runProbe(
  file: string,
  args: string[],
  input: Buffer | null,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: [input === null ? 'ignore' : 'pipe', 'ignore', 'pipe'] });
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.stderr?.on('data', (data: Buffer) => {
      stderr += data.toString('utf8');
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
    if (input !== null) child.stdin?.end(input);
  });
}
