// The runner's local journal: dispatch id -> final result, as append-only JSON lines. A final
// result is fsynced before it is reported, so a re-delivery after a crash or reconnect is answered
// from here instead of running the command a second time. Acknowledgements (the server replied ok)
// are appended too, so results the server never confirmed are re-sent after a restart.
// A `started` line is written just before a command is spawned: a dispatch found started but never
// finished on open was interrupted by the runner's death, and must not be run again.
// A torn last line (crash mid-write) is cut off on open; other unreadable lines are skipped.
import { writeSync } from 'node:fs';
import { mkdir, open, readFile, rename, truncate, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Result } from '../../runner-protocol/index.ts';

type Entry =
  | { kind: 'result'; at: string; result: Result }
  | { kind: 'ack'; at: string; dispatchId: string; attempt: number }
  | ({ kind: 'started'; at: string } & StartedRun);

/** A run whose command was spawned (or whose container action began). */
export interface StartedRun {
  dispatchId: string;
  attempt: number;
  startedAt: string;
}

export interface JournalOpenReport {
  results: number;
  /** Dispatches started by an earlier runner process that never got a final result. */
  interrupted: number;
  /** Lines that could not be read (a torn tail counts here, once). */
  skippedLines: number;
  tornTail: boolean;
}

export class JournalError extends Error {
  override name = 'JournalError';
}

/** Dispatch ids past this are forgotten on the next open (the file is compacted). */
const DEFAULT_RETAIN = 10_000;

export class Journal {
  readonly file: string;
  readonly #retain: number;
  readonly #results = new Map<string, Result>();
  readonly #acked = new Set<string>();
  /** Started runs without a final result (in this process: the ones running). */
  readonly #started = new Map<string, StartedRun>();
  /** Found on open: started by an earlier process, never finished. */
  #interrupted: StartedRun[] = [];
  #handle: FileHandle | null = null;
  #tail: Promise<unknown> = Promise.resolve();

  private constructor(file: string, retain: number) {
    this.file = file;
    this.#retain = retain;
  }

  static async open(file: string, retain = DEFAULT_RETAIN): Promise<{ journal: Journal; report: JournalOpenReport }> {
    const journal = new Journal(file, retain);
    const report = await journal.#load();
    journal.#handle = await open(file, 'a', 0o600);
    return { journal, report };
  }

  get(dispatchId: string): Result | undefined {
    return this.#results.get(dispatchId);
  }

  /** Ids with a final result, newest last, at most `limit` (for the join payload). */
  dispatchIds(limit = DEFAULT_RETAIN): string[] {
    const ids = [...this.#results.keys()];
    return ids.slice(Math.max(0, ids.length - limit));
  }

  /** Final results the server has not acknowledged yet. */
  unacknowledged(): Result[] {
    return [...this.#results.values()].filter((result) => !this.#acked.has(ackKey(result.dispatchId, result.attempt)));
  }

  /** Runs an earlier runner process started and never finished (as found on open). */
  interrupted(): StartedRun[] {
    return [...this.#interrupted];
  }

  /**
   * Writes the `started` line synchronously, without fsync, so the command can be spawned right
   * after: a runner killed from then on leaves the line in the page cache. Call `syncStarted()`
   * once spawned. Throws a JournalError when the line cannot be written (then do not spawn).
   */
  recordStarted(dispatchId: string, attempt: number, startedAt = new Date()): void {
    const handle = this.#handle;
    if (handle === null) throw new JournalError(`the journal ${this.file} is closed`);
    const run: StartedRun = { dispatchId, attempt, startedAt: startedAt.toISOString() };
    const line = JSON.stringify({ kind: 'started', at: run.startedAt, ...run } satisfies Entry) + '\n';
    try {
      // O_APPEND: one write() per line, so it never interleaves with a queued async append.
      writeSync(handle.fd, line);
    } catch (error) {
      throw new JournalError(`cannot write to the journal ${this.file}: ${(error as Error).message}`);
    }
    this.#started.set(dispatchId, run);
  }

  /** fsyncs what recordStarted wrote (queued behind earlier appends). */
  syncStarted(): Promise<void> {
    const sync = this.#tail.then(async () => {
      const handle = this.#handle;
      if (handle === null) throw new JournalError(`the journal ${this.file} is closed`);
      await handle.sync();
    });
    this.#tail = sync.catch(() => {});
    return sync;
  }

  /** Durable: resolves once the line is fsynced. */
  async recordResult(result: Result): Promise<void> {
    this.#results.set(result.dispatchId, result);
    this.#started.delete(result.dispatchId);
    await this.#append({ kind: 'result', at: new Date().toISOString(), result }, true);
  }

  /** Not fsynced: losing an ack only costs a re-send the server answers idempotently. */
  async recordAck(dispatchId: string, attempt: number): Promise<void> {
    const key = ackKey(dispatchId, attempt);
    if (this.#acked.has(key)) return;
    this.#acked.add(key);
    await this.#append({ kind: 'ack', at: new Date().toISOString(), dispatchId, attempt }, false);
  }

  async close(): Promise<void> {
    await this.#tail.catch(() => {});
    await this.#handle?.close();
    this.#handle = null;
  }

  #append(entry: Entry, sync: boolean): Promise<void> {
    const line = JSON.stringify(entry) + '\n';
    const write = this.#tail.then(async () => {
      const handle = this.#handle;
      if (handle === null) throw new JournalError(`the journal ${this.file} is closed`);
      await handle.write(line);
      if (sync) await handle.sync();
    });
    this.#tail = write.catch(() => {});
    return write;
  }

  async #load(): Promise<JournalOpenReport> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return { results: 0, interrupted: 0, skippedLines: 0, tornTail: false };
      throw new JournalError(`cannot read the journal ${this.file}: ${(error as Error).message}`);
    }
    const lastNewline = text.lastIndexOf('\n');
    const tornTail = lastNewline !== text.length - 1;
    if (tornTail) {
      // Cut the partial line so the next append starts on a clean line.
      await truncate(this.file, Buffer.byteLength(text.slice(0, lastNewline + 1)));
    }
    let skippedLines = tornTail ? 1 : 0;
    const lines = text.slice(0, lastNewline + 1).split('\n');
    for (const line of lines) {
      if (line.length === 0) continue;
      if (!this.#apply(line)) skippedLines += 1;
    }
    for (const id of this.#results.keys()) this.#started.delete(id); // a final result settles it, whatever the line order
    this.#interrupted = [...this.#started.values()];
    if (this.#results.size > this.#retain) await this.#compact();
    return { results: this.#results.size, interrupted: this.#interrupted.length, skippedLines, tornTail };
  }

  #apply(line: string): boolean {
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      return false;
    }
    if (typeof entry !== 'object' || entry === null) return false;
    const candidate = entry as Partial<Entry>;
    if (candidate.kind === 'result') {
      const parsed = Result.safeParse(candidate.result);
      if (!parsed.success) return false;
      this.#results.delete(parsed.data.dispatchId); // re-insert: Map order = recency
      this.#results.set(parsed.data.dispatchId, parsed.data);
      return true;
    }
    if (candidate.kind === 'ack' && typeof candidate.dispatchId === 'string' && typeof candidate.attempt === 'number') {
      this.#acked.add(ackKey(candidate.dispatchId, candidate.attempt));
      return true;
    }
    const started = entry as Record<string, unknown>;
    if (candidate.kind === 'started' && isStartedRun(started)) {
      this.#started.set(started.dispatchId, {
        dispatchId: started.dispatchId,
        attempt: started.attempt,
        startedAt: started.startedAt,
      });
      return true;
    }
    return false;
  }

  /**
   * Keeps the newest `retain` results (and their acks) and every started run without a result
   * (forgetting one would let its re-delivery run again); atomic via write-then-rename.
   */
  async #compact(): Promise<void> {
    const keep = [...this.#results.values()].slice(this.#results.size - this.#retain);
    this.#results.clear();
    const at = new Date().toISOString();
    const lines = [...this.#started.values()].map((run) =>
      JSON.stringify({ kind: 'started', at, ...run } satisfies Entry),
    );
    for (const result of keep) {
      this.#results.set(result.dispatchId, result);
      lines.push(JSON.stringify({ kind: 'result', at, result }));
      if (this.#acked.has(ackKey(result.dispatchId, result.attempt))) {
        lines.push(JSON.stringify({ kind: 'ack', at, dispatchId: result.dispatchId, attempt: result.attempt }));
      }
    }
    const temporary = `${this.file}.compact`;
    await writeFile(temporary, lines.join('\n') + '\n', { mode: 0o600, flush: true });
    await rename(temporary, this.file);
  }
}

function isStartedRun(value: Record<string, unknown>): value is Record<string, unknown> & StartedRun {
  const { dispatchId, attempt, startedAt } = value;
  return (
    typeof dispatchId === 'string' &&
    dispatchId.length > 0 &&
    typeof attempt === 'number' &&
    Number.isSafeInteger(attempt) &&
    attempt >= 1 &&
    typeof startedAt === 'string' &&
    !Number.isNaN(Date.parse(startedAt))
  );
}

const ackKey = (dispatchId: string, attempt: number): string => `${attempt}:${dispatchId}`;
