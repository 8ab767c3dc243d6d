// One command inside a running container: in-exec cwd check, byte-exact stdout/stderr with caps,
// a kill path that needs no new process in the container, OOM and interruption detection.
//
// Every exec runs under the supervisor of exec-supervisor.ts (tini as a subreaper plus a
// builtins-only shell loop): nothing the command starts outlives the exec, however it detaches,
// and a command that used up the pids limit is still killed at its timeout. The broker drives the
// supervisor through the exec's stdin (ticks, `kill`); losing the connection closes that stdin,
// which kills the command too. A second "kill exec" is only the fallback for a supervisor that
// did not answer (the command killed it: it runs as the same user).
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { OutputCollector, StdoutHeaderSplitter, type ExecHeader } from './exec-output.ts';
import { supervisorCmd, TICK_MS } from './exec-supervisor.ts';
import {
  brokerError,
  classifyDockerError,
  commandTimeout,
  containerNotRunning,
  cwdOutsideWorkspace,
  dockerErrorFacts,
  execInterrupted,
  failed,
  isConnectionError,
  oomKilled,
  succeeded,
} from './failures.ts';
import type { BrokerFailure, BrokerResult, ExecOutcome } from './port.ts';

/** $1 process group (0 = unknown), $2 nonce: kills the group, then anything still tagged. */
const KILL_SCRIPT = [
  '[ "$1" != 0 ] && kill -KILL -- "-$1" 2>/dev/null',
  'i=0',
  'while [ $i -lt 5 ]; do',
  '  f=0',
  '  for p in /proc/[0-9]*; do',
  '    grep -qxz "BRABO_EXEC_ID=$2" "$p/environ" 2>/dev/null && { kill -KILL "${p#/proc/}" 2>/dev/null; f=1; }',
  '  done',
  '  [ $f = 0 ] && exit 0',
  '  i=$((i+1))',
  'done',
  'exit 3',
].join('\n');

/** The in-container backstop deadline fires this long after the broker's own timer. */
const WATCHDOG_GRACE_MS = 1000;
/** After a kill, how long the output stream gets to close before the broker drops it. */
const KILL_GRACE_MS = 5000;
/** Docker may report the exec as running for a moment after its stream closed. */
const EXIT_POLL_DELAYS_MS = [0, 10, 25, 50, 100, 200, 300, 400, 500, 600];
const KILL_ATTEMPT_DELAYS_MS = [0, 250, 750, 1500, 2500];

export interface ExecTarget {
  docker: Docker;
  containerId: string;
  projectId: string;
  memoryMb?: number;
}

export interface ExecPlan {
  command: string;
  /** Lexically checked, normalized. */
  cwd: string;
  timeoutMs: number;
  maxOutputBytes: number;
  /** Live output tap (ExecRequest.onOutput). */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
}

export interface ExecEnvironment {
  endpoint: string;
  logger: Logger;
}

type ExitState = { kind: 'exited'; exitCode: number } | { kind: 'running' } | { kind: 'unreachable'; cause: string };

export async function runExec(
  target: ExecTarget,
  plan: ExecPlan,
  env: ExecEnvironment,
): Promise<BrokerResult<ExecOutcome>> {
  const nonce = randomBytes(12).toString('hex');
  const started = Date.now();
  const log = env.logger.child({ projectId: target.projectId, containerId: target.containerId, execTag: nonce });
  const container = target.docker.getContainer(target.containerId);

  let exec: Docker.Exec;
  let socket: Duplex;
  try {
    const backstopSeconds = ((plan.timeoutMs + WATCHDOG_GRACE_MS) / 1000).toFixed(3);
    exec = await container.exec({
      Cmd: supervisorCmd(nonce, plan.cwd, backstopSeconds, plan.command),
      Env: [`BRABO_EXEC_ID=${nonce}`],
      WorkingDir: '/',
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
    });
  } catch (error) {
    // Creating an exec runs nothing: whatever failed here, the command did not run.
    return failed(startFailure(error, target, env.endpoint));
  }
  try {
    socket = await exec.start({ hijack: true, stdin: true });
  } catch (error) {
    return failed(await startNotConfirmed(exec, error, { target, endpoint: env.endpoint, nonce, log }));
  }

  let header: ExecHeader | undefined;
  const stdout = new OutputCollector(plan.maxOutputBytes, tapOf(plan, 'stdout'));
  const stderr = new OutputCollector(plan.maxOutputBytes, tapOf(plan, 'stderr'));
  const stdoutSplitter = new StdoutHeaderSplitter(nonce, stdout, (h) => (header = h));
  let streamError: Error | undefined;
  let ended = false;
  const streamDone = new Promise<void>((resolve) => {
    const done = () => {
      ended = true;
      resolve();
    };
    socket.once('end', done);
    socket.once('close', done);
    // `on`, not `once`: a write (tick) to a socket that is going away can error again, and an
    // unhandled second 'error' would crash the process.
    socket.on('error', (error) => {
      streamError ??= error;
      done();
    });
  });
  target.docker.modem.demuxStream(socket, stdoutSplitter, stderr);
  const tell = (line: string) => {
    if (!ended && !socket.destroyed && socket.writable) socket.write(line + '\n', () => undefined);
  };
  const ticker = setInterval(() => tell('t'), TICK_MS);

  let timer: NodeJS.Timeout | undefined;
  const timedOutSignal = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), plan.timeoutMs);
  });
  const first = await Promise.race([streamDone.then(() => 'stream' as const), timedOutSignal]);
  clearTimeout(timer);

  let fallbackKilled: boolean | undefined;
  if (first === 'timeout') {
    log.warn(
      { timeoutMs: plan.timeoutMs, pid: header?.kind === 'pid' ? header.pid : undefined },
      'exec timed out, asking its supervisor to kill it',
    );
    tell('kill');
    const closed = await Promise.race([streamDone.then(() => true), delay(KILL_GRACE_MS).then(() => false)]);
    if (!closed) {
      log.warn('the supervisor did not end the exec, killing from a second exec');
      fallbackKilled = await killExec(target, header, nonce, log);
      socket.destroy();
    }
  }
  clearInterval(ticker);
  const trailer = stdoutSplitter.finish();
  const durationMs = Date.now() - started;

  if (header?.kind === 'outside') {
    return failed(
      cwdOutsideWorkspace(plan.cwd, `it resolves to "${header.resolved}" inside the container`, header.resolved),
    );
  }
  if (header?.kind === 'missing') {
    return failed(
      brokerError(
        'run the command',
        `the working directory "${plan.cwd}" does not exist or is not accessible in the container; create it or pass an existing directory`,
        { cwd: plan.cwd, reason: 'cwd_not_found' },
      ),
    );
  }
  if (first === 'timeout' || trailer?.reason === 'timeout' || trailer?.reason === 'kill') {
    return failed(commandTimeout(plan.timeoutMs, fallbackKilled ?? trailer?.confirmed === true));
  }
  if (trailer === undefined) return interrupted(target, exec, header, nonce, log, streamError, stderr);
  if (trailer.reason === 'eof') {
    // The supervisor saw the broker's stdin close while this connection still delivered output.
    return failed(execInterrupted(target.projectId, trailer.confirmed, 'the exec input closed early'));
  }
  if (!trailer.confirmed) log.warn('processes the command left behind could not all be killed');
  if (trailer.status === 137 && (await sawOomKill(target, started))) {
    const memoryMb = target.memoryMb ?? (await memoryLimitMb(target));
    log.warn({ memoryMb }, 'exec killed by the OOM killer');
    return failed(oomKilled(target.projectId, memoryMb));
  }
  return succeeded({
    exitCode: trailer.status,
    stdout: stdout.text(),
    stderr: stderr.text(),
    truncated: stdout.truncated || stderr.truncated,
    durationMs,
  });
}

/** The live output tap for one stream; a tap that throws never disturbs the exec. */
function tapOf(plan: ExecPlan, stream: 'stdout' | 'stderr'): ((chunk: Buffer) => void) | undefined {
  const onOutput = plan.onOutput;
  if (!onOutput) return undefined;
  return (chunk) => {
    try {
      onOutput(stream, chunk);
    } catch {
      // The recorded outcome is what counts; a viewer's failure must not change it.
    }
  };
}

/**
 * The stream ended without the supervisor's trailer: the connection was cut, or the supervisor
 * never ran / was killed. The outcome is unknown unless the wrapper never started at all.
 */
async function interrupted(
  target: ExecTarget,
  exec: Docker.Exec,
  header: ExecHeader | undefined,
  nonce: string,
  log: Logger,
  streamError: Error | undefined,
  stderr: OutputCollector,
): Promise<BrokerResult<ExecOutcome>> {
  const exit = await waitForExit(exec);
  // 126/127 with the engine's or the shell's own error message, and no header: docker-init or sh
  // could not be run at all. Without a message it is no proof: a stream cut as the exec started
  // also ends as 126 while the command runs (seen in the proxy chaos test).
  const said = stderr.text().trim().slice(0, 500);
  if (
    header === undefined &&
    streamError === undefined &&
    exit.kind === 'exited' &&
    (exit.exitCode === 126 || exit.exitCode === 127) &&
    said !== ''
  ) {
    return failed(
      brokerError(
        'run the command',
        `the engine could not start the exec supervisor (exit code ${exit.exitCode}: ${said}), so the command did not run`,
        { exitCode: exit.exitCode },
      ),
    );
  }
  if (exit.kind === 'unreachable') {
    log.error({ cause: exit.cause }, 'exec interrupted: engine unreachable');
    return failed(execInterrupted(target.projectId, false, exit.cause));
  }
  const cause = streamError?.message ?? 'the output stream ended before the command reported its end';
  // The supervisor kills everything when its input closes, but it may itself have been killed (it
  // runs as the command's user): only a sweep for the exec's tag from a second exec confirms it.
  const stopped = await killExec(target, header, nonce, log);
  log.error({ cause, stopped, exit }, 'exec interrupted');
  return failed(execInterrupted(target.projectId, stopped, cause));
}

/** Errors raised before a request could reach the engine: nothing was started. */
const NEVER_CONNECTED = new Set([
  'ENOENT',
  'ECONNREFUSED',
  'EACCES',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTSOCK',
  'ENOTDIR',
]);

/**
 * The start request failed. "Not run" only when that is certain: the engine answered with an
 * error, or the connection was never made. Otherwise the request may have reached the engine and
 * the command may have started (its closed input then makes the supervisor kill it): unknown.
 */
async function startNotConfirmed(
  exec: Docker.Exec,
  error: unknown,
  context: { target: ExecTarget; endpoint: string; nonce: string; log: Logger },
): Promise<BrokerFailure> {
  const { target, endpoint, nonce, log } = context;
  const facts = dockerErrorFacts(error);
  if (facts.statusCode !== undefined || (facts.errno !== undefined && NEVER_CONNECTED.has(facts.errno)))
    return startFailure(error, target, endpoint);
  const info = await exec.inspect().catch(() => undefined);
  const exited = info !== undefined && !info.Running && typeof info.ExitCode === 'number';
  // Running with no attached connection: its input may never close, so kill it by its tag.
  const stopped = exited || (info?.Running === true && (await killExec(target, undefined, nonce, log)));
  log.error(
    { err: facts, started: info === undefined ? 'unknown' : Boolean(info.Pid) || info.Running || exited, stopped },
    'exec start interrupted',
  );
  return execInterrupted(
    target.projectId,
    stopped,
    `the connection broke while the command was being started (${facts.errno ?? facts.message})`,
  );
}

function startFailure(error: unknown, target: ExecTarget, endpoint: string) {
  const facts = dockerErrorFacts(error);
  if (facts.statusCode === 409) return containerNotRunning(target.projectId, 'not running');
  if (facts.statusCode === 404) return containerNotRunning(target.projectId, 'absent');
  return classifyDockerError(error, {
    endpoint,
    action: `run a command in the container of project ${target.projectId}`,
  });
}

async function waitForExit(exec: Docker.Exec): Promise<ExitState> {
  for (const wait of EXIT_POLL_DELAYS_MS) {
    if (wait > 0) await delay(wait);
    try {
      const info = await exec.inspect();
      if (!info.Running && typeof info.ExitCode === 'number') return { kind: 'exited', exitCode: info.ExitCode };
    } catch (error) {
      // Connection refused, or 404 because a restarted engine forgot the exec: either way unknown.
      return { kind: 'unreachable', cause: dockerErrorFacts(error).message };
    }
  }
  return { kind: 'running' };
}

/** Kills the command's process group (and anything carrying its tag) from a second exec. */
async function killExec(
  target: ExecTarget,
  header: ExecHeader | undefined,
  nonce: string,
  log: Logger,
): Promise<boolean> {
  const pgid = header?.kind === 'pid' ? header.pid : 0;
  const container = target.docker.getContainer(target.containerId);
  for (const wait of KILL_ATTEMPT_DELAYS_MS) {
    if (wait > 0) await delay(wait);
    try {
      const killer = await container.exec({
        Cmd: ['sh', '-c', KILL_SCRIPT, 'brabo-kill', String(pgid), nonce],
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
      });
      const stream = await killer.start({ hijack: true, stdin: false });
      stream.resume();
      await new Promise<void>((resolve) => {
        stream.once('end', resolve);
        stream.once('close', resolve);
        stream.on('error', () => resolve());
      });
      const exit = await waitForExit(killer);
      if (exit.kind === 'exited' && exit.exitCode === 0) return true;
      log.warn({ exit, pgid }, 'kill exec did not confirm, retrying');
    } catch (error) {
      const facts = dockerErrorFacts(error);
      // A stopped container runs nothing: every process of the exec is gone.
      if (facts.statusCode === 409 && /is not running/i.test(facts.message)) return true;
      log.warn({ err: facts, pgid }, 'kill exec failed, retrying');
      if (isConnectionError(error)) return false;
    }
  }
  return false;
}

/** Exit 137 is SIGKILL; it is an OOM kill when the engine saw an `oom` event in this window. */
async function sawOomKill(target: ExecTarget, startedMs: number): Promise<boolean> {
  // Only events since this exec started count (an earlier OOM is not this command's). The oom
  // event can trail the exit by a moment: look twice.
  for (const wait of [0, 300]) {
    if (wait > 0) await delay(wait);
    try {
      const events = await target.docker.getEvents({
        since: startedMs / 1000,
        until: Date.now() / 1000,
        filters: { container: [target.containerId], event: ['oom'] },
      });
      if ((await readAll(events)).trim().length > 0) return true;
    } catch {
      const info = await target.docker
        .getContainer(target.containerId)
        .inspect()
        .catch(() => undefined);
      return info?.State.OOMKilled === true;
    }
  }
  return false;
}

async function memoryLimitMb(target: ExecTarget): Promise<number | undefined> {
  const info = await target.docker
    .getContainer(target.containerId)
    .inspect()
    .catch(() => undefined);
  const bytes = info?.HostConfig.Memory;
  return typeof bytes === 'number' && bytes > 0 ? Math.round(bytes / (1024 * 1024)) : undefined;
}

function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
