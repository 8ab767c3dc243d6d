// Handles every `execute` the server pushes: validates it, answers a re-delivery from the journal
// (or from the run already in flight) instead of running twice, journals the start right before the
// spawn (fsynced right after it), runs it, journals the final result durably and only then hands it
// to the outbox. Runs an earlier process started and never finished are settled as
// runner_interrupted, never run again. Never throws: every path ends in a Result or a log.
import {
  ContainerAction,
  Execute,
  RUNNER_FAILURES,
  RUNNER_REFUSALS,
  TerminalAction,
} from '../../runner-protocol/index.ts';
import type { ExecuteAck, Output, Result } from '../../runner-protocol/index.ts';
import { executeContainer } from './container-action.ts';
import type { ContainerContext } from './container-action.ts';
import { interruptedResult } from './interrupted.ts';
import type { Journal } from './journal.ts';
import type { RunnerObserver } from './observer.ts';
import { executeTerminal } from './terminal-action.ts';
import type { SandboxSettings, TerminalLimits } from './terminal-action.ts';

export interface DispatcherOptions {
  root: string;
  projectId: string;
  journal: Journal;
  limits: TerminalLimits & { maxConcurrent: number };
  broker: ContainerContext['broker'];
  env: NodeJS.ProcessEnv;
  /** --sandbox and what this machine offers; absent: nothing is sandboxed. */
  sandbox?: SandboxSettings;
  observer: RunnerObserver;
  /** Final results go here (the outbox re-sends until the server acknowledges). */
  deliver: (result: Result) => void;
  sendOutput: (message: Output) => void;
  /** "I have it": sent on every execute whose dispatchId and attempt can be read (a run: once spawned). */
  acknowledge: (ack: ExecuteAck) => void;
}

/**
 * Test-only fault point (chaos suites), never set in production: BRABO_RUNNER_FAULT=
 * `kill_after_spawn:N` SIGKILLs this runner right after its N-th command is spawned and before its
 * ack goes out: the window in which the gateway cannot know whether the command started.
 */
function killAfterSpawn(env: NodeJS.ProcessEnv = process.env): (() => void) | null {
  const match = /^kill_after_spawn:(\d+)$/.exec(env.BRABO_RUNNER_FAULT ?? '');
  if (!match) return null;
  let left = Number(match[1]);
  return () => {
    if (--left === 0) process.kill(process.pid, 'SIGKILL');
  };
}

const KNOWN_ACTIONS: ReadonlySet<string> = new Set([
  TerminalAction.shape.type.value,
  ...ContainerAction.shape.type.options,
]);

export class Dispatcher {
  readonly #options: DispatcherOptions;
  /** dispatchId -> attempts re-delivered while the first run is still going. */
  readonly #inFlight = new Map<string, Set<number>>();
  readonly #shutdown = new AbortController();
  readonly #running = new Set<Promise<void>>();
  readonly #fault = killAfterSpawn();

  constructor(options: DispatcherOptions) {
    this.#options = options;
  }

  /** Entry point for the raw `execute` payload. Resolves when the dispatch is answered. */
  handle(payload: unknown): Promise<void> {
    const task = this.#handle(payload).catch((error: unknown) => {
      this.#options.observer.warning(
        'dispatch_crashed',
        `unexpected error while handling an execute: ${(error as Error).stack ?? String(error)}`,
      );
    });
    this.#running.add(task);
    void task.finally(() => this.#running.delete(task));
    return task;
  }

  /**
   * Start-up, before joining: every run the journal shows started but unfinished (the runner died
   * while it ran) gets a durable `failed runner_interrupted` result, handed to the outbox so the
   * server learns it on the next join; a re-delivery is then answered from the journal.
   */
  async recoverInterrupted(): Promise<Result[]> {
    const { journal, observer } = this.#options;
    const results: Result[] = [];
    for (const run of journal.interrupted()) {
      if (journal.get(run.dispatchId) !== undefined) continue;
      const result = interruptedResult(run);
      try {
        await journal.recordResult(result);
      } catch (error) {
        observer.warning(
          'journal_write_failed',
          `the interrupted run ${run.dispatchId} could not be journaled as failed (${(error as Error).message}); it is still answered as failed while this runner runs`,
        );
      }
      observer.warning(
        RUNNER_FAILURES.runnerInterrupted,
        `${run.dispatchId} (attempt ${run.attempt}, started at ${run.startedAt}) was running when the runner stopped; it is reported as failed and will not run again`,
      );
      this.#options.deliver(result);
      results.push(result);
    }
    return results;
  }

  /** Kills every running command's process group and waits for their results to be journaled. */
  async shutdown(): Promise<void> {
    this.#shutdown.abort();
    await Promise.allSettled([...this.#running]);
  }

  async #handle(payload: unknown): Promise<void> {
    const { observer, journal } = this.#options;
    const parsed = Execute.safeParse(payload);
    if (!parsed.success) {
      const ids = readIds(payload);
      if (ids !== null) this.#options.acknowledge(ids);
      this.#refuseInvalid(payload, parsed.error.issues);
      return;
    }
    const execute = parsed.data;
    const { dispatchId, attempt } = execute;
    // A run acknowledges once its command is spawned (below); every other answer right away.
    const acknowledge = (): void => this.#options.acknowledge({ dispatchId, attempt });

    const known = journal.get(dispatchId);
    if (known !== undefined) {
      acknowledge();
      const answer: Result = { ...known, attempt, fromJournal: true };
      observer.dispatchReplayed(answer, 'journal');
      this.#options.deliver(answer);
      return;
    }
    const waiting = this.#inFlight.get(dispatchId);
    if (waiting !== undefined) {
      acknowledge();
      waiting.add(attempt); // answered when the running attempt finishes; never started twice
      return;
    }
    if (this.#inFlight.size >= this.#options.limits.maxConcurrent) {
      acknowledge();
      const busy: Result = {
        dispatchId,
        attempt,
        status: 'refused',
        reason: {
          code: RUNNER_REFUSALS.busy,
          message: `the runner is already running ${this.#inFlight.size} commands (its --max-concurrent); retry later`,
        },
      };
      observer.dispatchFinished(busy, 0);
      this.#options.deliver(busy); // not journaled: a later re-delivery may run it
      return;
    }

    this.#inFlight.set(dispatchId, new Set());
    // The ack and the "started" report (terminal and log writes) wait until the command has been
    // spawned: nothing that is not needed to start it sits between `execute` and the spawn.
    let reported = false;
    const reportStarted = (): void => {
      if (reported) return;
      reported = true;
      acknowledge();
      observer.dispatchStarted(execute);
    };
    // Written before the spawn without fsync (latency), fsynced right after it while the command
    // runs: from the spawn on, a runner that dies leaves a record that says "do not run again".
    let journalStart = 'not_yet' as 'not_yet' | 'recorded' | 'failed';
    const recordStart = (): void => {
      try {
        journal.recordStarted(dispatchId, attempt);
        journalStart = 'recorded';
      } catch (error) {
        journalStart = 'failed';
        throw error;
      }
    };
    const onSpawned = (): void => {
      this.#fault?.();
      reportStarted();
      if (journalStart !== 'recorded') return;
      journal.syncStarted().catch((error: unknown) => {
        observer.warning(
          'journal_write_failed',
          `the start of ${dispatchId} could not be fsynced to the journal ${journal.file} (${(error as Error).message}); after a machine crash it might run again`,
        );
      });
    };
    const started = performance.now();
    let result: Result;
    try {
      result = await this.#run(execute, recordStart, onSpawned);
    } catch (error) {
      const message = (error as Error).message;
      result =
        journalStart === 'failed'
          ? {
              dispatchId,
              attempt,
              status: 'failed',
              reason: {
                code: RUNNER_FAILURES.journalUnwritable,
                message: `the command was not run because its start could not be journaled (${message}); without that record a crash could make it run twice. Check the disk and --journal, then propose it again.`,
              },
            }
          : {
              dispatchId,
              attempt,
              status: 'failed',
              reason: { code: RUNNER_FAILURES.runnerError, message: `the runner failed while executing: ${message}` },
            };
    }
    reportStarted(); // refused before any spawn (cwd), or a container action
    try {
      await journal.recordResult(result);
    } catch (error) {
      observer.warning(
        'journal_write_failed',
        `the result of ${dispatchId} could not be written to the journal ${journal.file} (${(error as Error).message}); a re-delivery would run it again`,
      );
    }
    const laterAttempts = this.#inFlight.get(dispatchId) ?? new Set<number>();
    this.#inFlight.delete(dispatchId);
    observer.dispatchFinished(result, Math.round(performance.now() - started));
    this.#options.deliver(result);
    for (const later of laterAttempts) {
      if (later === attempt) continue;
      const answer: Result = { ...result, attempt: later, fromJournal: true };
      observer.dispatchReplayed(answer, 'in_flight');
      this.#options.deliver(answer);
    }
  }

  async #run(execute: Execute, recordStart: () => void, onSpawned: () => void): Promise<Result> {
    const options = this.#options;
    const { action } = execute;
    if (action.type === 'terminal') {
      return executeTerminal(
        { ...execute, action },
        {
          root: options.root,
          limits: options.limits,
          env: options.env,
          ...(options.sandbox ? { sandbox: options.sandbox } : {}),
          sendOutput: options.sendOutput,
          signal: this.#shutdown.signal,
          beforeSpawn: recordStart,
          onSpawned,
          onSandboxRepair: (paths) =>
            options.observer.warning(
              'sandbox_repaired',
              `${execute.dispatchId} changed protected git metadata from inside the sandbox (${paths.join(', ')}); modes were put back and new git redirections deleted`,
            ),
        },
      );
    }
    recordStart();
    onSpawned(); // containers take seconds to start: no reason to hold the ack back
    return executeContainer(
      { ...execute, action },
      { projectId: options.projectId, root: options.root, broker: options.broker },
    );
  }

  #refuseInvalid(payload: unknown, issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): void {
    const record = asRecord(payload);
    const dispatchId = readDispatchId(record);
    const detail = issues
      .slice(0, 3)
      .map((issue) => `${issue.path.map(String).join('.') || '(payload)'}: ${issue.message}`)
      .join('; ');
    this.#options.observer.invalidExecute(detail, dispatchId);
    if (dispatchId === null) return;
    const attempt = readAttempt(record) ?? 1;
    const action = asRecord(record.action);
    const type = typeof action.type === 'string' ? action.type : null;
    const reason =
      type !== null && !KNOWN_ACTIONS.has(type)
        ? {
            code: RUNNER_REFUSALS.unsupportedAction,
            message: `this runner does not know the action type "${type.slice(0, 100)}"`,
          }
        : {
            code: RUNNER_REFUSALS.invalidExecute,
            message: `the execute message is not valid: ${detail}`.slice(0, 4000),
          };
    const refusal: Result = { dispatchId, attempt, status: 'refused', reason };
    this.#options.observer.dispatchFinished(refusal, 0);
    this.#options.deliver(refusal);
  }
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

function readDispatchId(record: Record<string, unknown>): string | null {
  const id = record.dispatchId;
  return typeof id === 'string' && id.length > 0 && id.length <= 100 ? id : null;
}

function readAttempt(record: Record<string, unknown>): number | null {
  const attempt = record.attempt;
  return typeof attempt === 'number' && Number.isSafeInteger(attempt) && attempt >= 1 ? attempt : null;
}

/** dispatchId and attempt of a payload that may be invalid otherwise. */
function readIds(payload: unknown): ExecuteAck | null {
  const record = asRecord(payload);
  const dispatchId = readDispatchId(record);
  const attempt = readAttempt(record);
  return dispatchId === null || attempt === null ? null : { dispatchId, attempt };
}
