// Puts the runner together: journal, dispatcher, result outbox and connection, and runs it until
// it is stopped (SIGINT/SIGTERM) or must give up (token or join refused). Returns the exit code.
import os from 'node:os';
import type { Logger } from 'pino';
import { JOIN_ERRORS, RUNNER_PROTOCOL_VERSION, runnerTopic } from '../../runner-protocol/index.ts';
import { lazyBroker } from './broker-loader.ts';
import type { RunnerConfig } from './config.ts';
import { RunnerConnection } from './connection.ts';
import { Dispatcher } from './dispatcher.ts';
import { Journal } from './journal.ts';
import { logObserver } from './log-observer.ts';
import { combineObservers } from './observer.ts';
import { ResultOutbox } from './result-outbox.ts';
import { probeSandbox } from './sandbox/platform.ts';
import type { Availability } from './sandbox/platform.ts';
import { sandboxState, startupWarning } from './sandbox/policy.ts';
import type { TerminalUi } from './terminal-ui.ts';
import { VERSION } from '../package-info.ts';
import { TOKEN_REFUSED_MESSAGE } from './upgrade-probe.ts';

/** Exit codes: 2 for a usage error, 1 for any other failure (its code is in the message and the log). */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export interface RunnerIo {
  ui: TerminalUi;
  logger: Logger;
  logTarget: string;
  /** Resolves when the process is asked to stop (signals); the runner then shuts down cleanly. */
  stopRequested: Promise<void>;
  /** Replaces the sandbox probe (tests); default: probe this machine. */
  probeSandbox?: () => Promise<Availability>;
}

const PUSH_TIMEOUT_MS = 10_000;
const OUTBOX_RETRY_MS = 15_000;
const DRAIN_ON_STOP_MS = 2_000;

export async function runRunner(config: RunnerConfig, io: RunnerIo): Promise<number> {
  const { ui, logger } = io;
  let journal: Journal;
  let journalResults: number;
  try {
    const opened = await Journal.open(config.journalFile);
    journal = opened.journal;
    journalResults = opened.report.results;
    if (opened.report.interrupted > 0) {
      logger.warn(
        { event: 'journal_interrupted_runs', interrupted: opened.report.interrupted },
        'the journal has runs that never finished (the runner stopped while they ran)',
      );
    }
    if (opened.report.skippedLines > 0) {
      const torn = opened.report.tornTail ? ' (a torn last line from an interrupted write was cut off)' : '';
      ui.warning(
        'journal_repaired',
        `${opened.report.skippedLines} unreadable line(s) in ${config.journalFile} were skipped${torn}`,
      );
      logger.warn({ event: 'journal_repaired', ...opened.report }, 'journal had unreadable lines');
    }
  } catch (error) {
    ui.fatal(
      `cannot open the journal ${config.journalFile}: ${(error as Error).message}; pass --journal with a writable path`,
    );
    return EXIT.failure;
  }

  // Probed once: a sandbox that works at start-up is used for every command; one that does not is
  // announced here, in one line, instead of on every command.
  const availability: Availability =
    config.sandbox === 'off' ? { available: false, why: '--sandbox off' } : await (io.probeSandbox ?? probeSandbox)();
  const sandbox = sandboxState(config.sandbox, availability, config.sandboxNetwork, config.sandboxGit);
  const sandboxWarning = startupWarning(sandbox);
  if (sandboxWarning !== null) {
    ui.warning('sandbox_unavailable', sandboxWarning);
    logger.warn({ event: 'sandbox_unavailable', sandbox }, sandboxWarning);
  }

  const observer = combineObservers(ui, logObserver(logger));
  const topic = runnerTopic(config.projectId);
  const childEnv = { ...process.env };
  delete childEnv.BRABO_RUNNER_TOKEN; // commands never see the runner's credential

  // The three parts refer to each other through callbacks that only fire once run() is called.
  const connection = new RunnerConnection({
    url: config.url,
    token: config.token,
    projectId: config.projectId,
    joinPayload: () => ({
      protocolVersion: RUNNER_PROTOCOL_VERSION,
      runnerVersion: RUNNER_VERSION,
      hostname: os.hostname(),
      journal: journal.dispatchIds(),
      sandbox,
    }),
    onExecute: (payload) => void dispatcher.handle(payload),
    onJoined: () => observer.joined(topic, outbox.flush()),
    observer,
    logger,
    backoff: { baseMs: config.reconnectBaseMs, maxMs: config.reconnectMaxMs },
    probeAfterErrors: 3,
  });
  const outbox = new ResultOutbox({
    channel: connection,
    pushTimeoutMs: PUSH_TIMEOUT_MS,
    onAcknowledged: (result) => void journal.recordAck(result.dispatchId, result.attempt).catch(() => {}),
    onRejected: (result, reason) => {
      observer.resultRejected(result, reason);
      // The server has settled this attempt otherwise; re-sending it after a restart is pointless.
      void journal.recordAck(result.dispatchId, result.attempt).catch(() => {});
    },
  });
  const deliver = outbox.deliver.bind(outbox);
  const dispatcher = new Dispatcher({
    root: config.root,
    projectId: config.projectId,
    journal,
    limits: {
      defaultTimeoutMs: config.defaultTimeoutMs,
      killGraceMs: config.killGraceMs,
      maxOutputBytes: config.maxOutputBytes,
      maxConcurrent: config.maxConcurrent,
      chunkChars: 16_384,
      flushIntervalMs: 100,
    },
    broker: lazyBroker({ projectId: config.projectId, defaultImage: config.containerImage, logger }),
    env: childEnv,
    sandbox: {
      mode: config.sandbox,
      network: config.sandboxNetwork,
      git: config.sandboxGit,
      availability,
      hide: [config.journalFile, ...(config.logFile === null ? [] : [config.logFile])],
    },
    observer,
    deliver,
    sendOutput: (message) => connection.sendOutput(message),
    acknowledge: (ack) => connection.sendAck(ack),
  });
  for (const result of journal.unacknowledged()) deliver(result);
  await dispatcher.recoverInterrupted(); // before the join: the first flush carries them

  ui.banner({
    version: RUNNER_VERSION,
    url: config.url,
    projectId: config.projectId,
    root: config.root,
    journal: config.journalFile,
    journalResults,
    logTarget: io.logTarget,
    // Unprotected: the warning above is the one line that says so.
    ...(sandboxWarning === null ? { sandbox: describeSandbox(sandbox) } : {}),
  });

  const retry = setInterval(() => outbox.flush(), OUTBOX_RETRY_MS);
  // A stop is bounded by the kill grace (plus the drain): a run that does not end by then (a
  // container start waiting on Docker) is left to the journal, whose `started` line makes the next
  // start report it runner_interrupted; results already journaled are re-sent from there.
  const stopBudgetMs = config.killGraceMs + DRAIN_ON_STOP_MS + 1_000;
  void io.stopRequested.then(async () => {
    ui.info('stopping: killing running commands, sending their results, then disconnecting');
    await within(
      stopBudgetMs,
      (async () => {
        await dispatcher.shutdown();
        await drain(outbox, DRAIN_ON_STOP_MS);
      })(),
    );
    connection.stop();
  });

  const reason = await connection.run();
  clearInterval(retry);
  await within(stopBudgetMs, dispatcher.shutdown());
  await journal.close();
  switch (reason.kind) {
    case 'token_refused':
      ui.fatal(TOKEN_REFUSED_MESSAGE);
      logger.error({ event: 'token_refused', status: reason.status }, TOKEN_REFUSED_MESSAGE);
      return EXIT.failure;
    case 'bad_url':
      ui.fatal(badUrlMessage(config.url, reason.status));
      logger.error({ event: 'bad_url', status: reason.status }, badUrlMessage(config.url, reason.status));
      return EXIT.usage;
    case 'join_refused':
      ui.fatal(`giving up: the server refused the join with ${reason.code}${joinAdvice(reason.code)}`);
      return EXIT.failure;
    case 'stopped':
      ui.info(
        outbox.size > 0
          ? `stopped; ${outbox.size} result(s) not yet acknowledged stay in the journal and are re-sent on the next start`
          : 'stopped',
      );
      return EXIT.ok;
  }
}

function describeSandbox(state: ReturnType<typeof sandboxState>): string {
  const network = state.network ? 'network on' : 'network off';
  if (!state.available)
    return `none (${state.reason ?? 'unavailable'}): ${state.mode === 'all' ? 'every command is' : 'auto-approved commands are'} refused (--sandbox ${state.mode})`;
  const scope = state.mode === 'all' ? 'every command' : 'auto-approved commands';
  return `${state.backend ?? 'sandbox'} for ${scope}, ${network}, .git ${state.git} (--sandbox ${state.mode})`;
}

function badUrlMessage(url: string, status: number): string {
  return `giving up: ${url} is not a brabo socket (the WebSocket upgrade got HTTP ${status}); pass --url ws://HOST:PORT/socket, the gateway's socket mount`;
}

function joinAdvice(code: string): string {
  if (code === JOIN_ERRORS.forbiddenTopic)
    return ': this token does not belong to the --project given; check the project id or create a token for it';
  if (code === JOIN_ERRORS.protocolVersionMismatch)
    return `: this runner speaks protocol ${RUNNER_PROTOCOL_VERSION}; update brabo on this machine to match the gateway`;
  return '';
}

/** Waits for `work`, at most `ms` (issue 10.8: a runner always exits on SIGTERM within its kill grace). */
async function within(ms: number, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

async function drain(outbox: ResultOutbox, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (outbox.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** This runner's version: its package's (brabo-runner installed, brabo-gateway from a checkout). */
export const RUNNER_VERSION: string = VERSION;
