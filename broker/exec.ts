// One command inside a running container: in-exec cwd check, own process group, byte-exact
// stdout/stderr with caps, a real kill path on timeout, OOM and interruption detection.
//
// The Engine API cannot kill an exec, so the wrapper below starts the command as the leader of its
// own session (setsid), reports its pid (= process group id) as the first stdout line, and arms an
// in-container watchdog. On timeout the broker kills the group from a second exec; the watchdog is
// the fallback when that exec cannot start (a fork bomb has used up the pids limit).
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import type { Logger } from 'pino';
import { OutputCollector, StdoutHeaderSplitter, type ExecHeader } from './exec-output.ts';
import {
  brokerError, classifyDockerError, commandTimeout, containerNotRunning, cwdOutsideWorkspace,
  dockerErrorFacts, execInterrupted, failed, isConnectionError, oomKilled, succeeded,
} from './failures.ts';
import type { BrokerResult, ExecOutcome } from './port.ts';

/** The wrapper's arguments: $1 nonce, $2 cwd, $3 watchdog seconds, $4 the command line. */
const WRAPPER = [
  'n=$1',
  // `cd -P` resolves every symlink; $PWD is then the kernel's physical path of the directory.
  'cd -P -- "$2" 2>/dev/null || { printf "%s missing\\n" "$n"; exit 0; }',
  'case "$PWD" in /work|/work/*) ;; *) printf "%s outside %s\\n" "$n" "$PWD"; exit 0;; esac',
  // Under memory pressure the kernel kills the command first, the wrapper next, the idle loop last.
  'echo 500 > /proc/self/oom_score_adj 2>/dev/null',
  'setsid sh -c \'echo 1000 > /proc/self/oom_score_adj 2>/dev/null; printf "%s pid %s\\n" "$1" "$$"; exec sh -c "$2"\' brabo-cmd "$n" "$4" &',
  'c=$!',
  // Its own session too, and detached from the output pipes so it never holds the stream open.
  'setsid sh -c \'sleep "$1"; kill -KILL -- "-$2"\' brabo-watchdog "$3" "$c" </dev/null >/dev/null 2>&1 &',
  'w=$!',
  'wait "$c"; s=$?',
  'kill -KILL -- "-$w" 2>/dev/null',
  'exit "$s"',
].join('\n');

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

/** The in-container watchdog fires this long after the broker's own timer. */
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

export async function runExec(target: ExecTarget, plan: ExecPlan, env: ExecEnvironment): Promise<BrokerResult<ExecOutcome>> {
  const nonce = randomBytes(12).toString('hex');
  const started = Date.now();
  const log = env.logger.child({ projectId: target.projectId, containerId: target.containerId, execTag: nonce });
  const container = target.docker.getContainer(target.containerId);

  let exec: Docker.Exec;
  let socket: Duplex;
  try {
    const watchdogSeconds = ((plan.timeoutMs + WATCHDOG_GRACE_MS) / 1000).toFixed(3);
    exec = await container.exec({
      Cmd: ['sh', '-c', WRAPPER, 'brabo-exec', nonce, plan.cwd, watchdogSeconds, plan.command],
      Env: [`BRABO_EXEC_ID=${nonce}`],
      WorkingDir: '/',
      AttachStdin: false,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
    });
    socket = await exec.start({ hijack: true, stdin: false });
  } catch (error) {
    return failed(startFailure(error, target, env.endpoint));
  }

  let header: ExecHeader | undefined;
  const stdout = new OutputCollector(plan.maxOutputBytes, tapOf(plan, 'stdout'));
  const stderr = new OutputCollector(plan.maxOutputBytes, tapOf(plan, 'stderr'));
  const stdoutSplitter = new StdoutHeaderSplitter(nonce, stdout, (h) => (header = h));
  let streamError: Error | undefined;
  const streamDone = new Promise<void>((resolve) => {
    socket.once('end', resolve);
    socket.once('close', resolve);
    socket.once('error', (error) => {
      streamError = error;
      resolve();
    });
  });
  target.docker.modem.demuxStream(socket, stdoutSplitter, stderr);

  let timer: NodeJS.Timeout | undefined;
  const timedOutSignal = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), plan.timeoutMs);
  });
  const first = await Promise.race([streamDone.then(() => 'stream' as const), timedOutSignal]);
  clearTimeout(timer);

  let killed = false;
  if (first === 'timeout') {
    log.warn({ timeoutMs: plan.timeoutMs, pgid: header?.kind === 'pid' ? header.pid : undefined }, 'exec timed out, killing its process group');
    killed = await killExec(target, header, nonce, log);
    const closed = await Promise.race([streamDone.then(() => true), delay(KILL_GRACE_MS).then(() => false)]);
    if (!closed) socket.destroy();
  }

  const exit = await waitForExit(exec);
  const durationMs = Date.now() - started;

  if (header?.kind === 'outside') {
    return failed(cwdOutsideWorkspace(plan.cwd, `it resolves to "${header.resolved}" inside the container`, header.resolved));
  }
  if (header?.kind === 'missing') {
    return failed(brokerError('run the command', `the working directory "${plan.cwd}" does not exist or is not accessible in the container; create it or pass an existing directory`, { cwd: plan.cwd, reason: 'cwd_not_found' }));
  }
  if (first === 'timeout') {
    return failed(commandTimeout(plan.timeoutMs, killed && exit.kind === 'exited'));
  }
  if (exit.kind === 'unreachable') {
    log.error({ cause: exit.cause }, 'exec interrupted: engine unreachable');
    return failed(execInterrupted(target.projectId, false, exit.cause));
  }
  if (exit.kind === 'running' || streamError !== undefined) {
    const cause = streamError?.message ?? 'the output stream closed while the command was still running';
    const stopped = exit.kind === 'running' ? await killExec(target, header, nonce, log) : true;
    log.error({ cause, stopped }, 'exec interrupted');
    return failed(execInterrupted(target.projectId, stopped, cause));
  }
  if (header === undefined) {
    return failed(brokerError('run the command', `the exec wrapper did not start (exit code ${exit.exitCode}): ${stderr.text().slice(0, 500)}`, { exitCode: exit.exitCode }));
  }
  if (exit.exitCode === 137 && (await sawOomKill(target, started))) {
    const memoryMb = target.memoryMb ?? (await memoryLimitMb(target));
    log.warn({ memoryMb }, 'exec killed by the OOM killer');
    return failed(oomKilled(target.projectId, memoryMb));
  }
  return succeeded({
    exitCode: exit.exitCode,
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

function startFailure(error: unknown, target: ExecTarget, endpoint: string) {
  const facts = dockerErrorFacts(error);
  if (facts.statusCode === 409) return containerNotRunning(target.projectId, 'not running');
  if (facts.statusCode === 404) return containerNotRunning(target.projectId, 'absent');
  return classifyDockerError(error, { endpoint, action: `run a command in the container of project ${target.projectId}` });
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
async function killExec(target: ExecTarget, header: ExecHeader | undefined, nonce: string, log: Logger): Promise<boolean> {
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
        stream.once('error', () => resolve());
      });
      const exit = await waitForExit(killer);
      if (exit.kind === 'exited' && exit.exitCode === 0) return true;
      log.warn({ exit, pgid }, 'kill exec did not confirm, retrying');
    } catch (error) {
      log.warn({ err: dockerErrorFacts(error), pgid }, 'kill exec failed, retrying');
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
      const info = await target.docker.getContainer(target.containerId).inspect().catch(() => undefined);
      return info?.State.OOMKilled === true;
    }
  }
  return false;
}

async function memoryLimitMb(target: ExecTarget): Promise<number | undefined> {
  const info = await target.docker.getContainer(target.containerId).inspect().catch(() => undefined);
  const bytes = info?.HostConfig.Memory;
  return typeof bytes === 'number' && bytes > 0 ? Math.round(bytes / (1024 * 1024)) : undefined;
}

function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.once('error', reject);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
