// Group commit for the one SQLite writer. node:sqlite is synchronous, so with synchronous=FULL
// every COMMIT blocks the event loop for an fsync. Units of work queued while a batch runs are
// executed one after the other (serial semantics: each sees the previous ones' writes) inside one
// BEGIN IMMEDIATE ... COMMIT, each in its own SAVEPOINT so a failing unit rolls back alone. A
// unit's promise resolves only after the COMMIT that contains it: durable when it resolves.
import type { DatabaseSync } from 'node:sqlite';
import type { Repositories } from '../types.ts';

interface Unit {
  work: (tx: Repositories) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class GroupCommitWriter {
  readonly #db: DatabaseSync;
  readonly #tx: Repositories;
  readonly #maxBatch: number;
  #queue: Unit[] = [];
  /** Set and cleared synchronously with the queue checks, so no unit is ever stranded. */
  #running = false;
  #drained: Promise<void> = Promise.resolve();

  constructor(db: DatabaseSync, tx: Repositories, maxBatch = 64) {
    this.#db = db;
    this.#tx = tx;
    this.#maxBatch = maxBatch;
  }

  submit<T>(work: (tx: Repositories) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#running) {
        this.#running = true;
        this.#drained = this.#drain();
      }
    });
  }

  /** Resolves when everything submitted so far is committed or rejected. */
  async idle(): Promise<void> {
    while (this.#running) await this.#drained;
  }

  async #drain(): Promise<void> {
    try {
      // The batch window is the rest of this event-loop turn: every request whose data is already
      // read (one I/O callback each, e.g. the backlog after a slow fsync) submits its unit first,
      // and they share one COMMIT instead of paying one fsync each. No timer: an idle server
      // commits as soon as the current callbacks are done.
      await nextTurn();
      while (this.#queue.length > 0) {
        await this.#runBatch();
        // Let I/O callbacks run: requests that arrive meanwhile form the next batch.
        if (this.#queue.length > 0) await nextTurn();
      }
    } catch (error) {
      // Only reachable if SQLite refuses a SAVEPOINT/RELEASE: fail what is queued, keep no transaction.
      rollbackIfOpen(this.#db);
      for (const unit of this.#queue.splice(0)) unit.reject(error);
    } finally {
      this.#running = false;
    }
  }

  async #runBatch(): Promise<void> {
    const db = this.#db;
    const done: Array<{ unit: Unit; value: unknown }> = [];
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      for (const unit of this.#queue.splice(0, this.#maxBatch)) unit.reject(error);
      return;
    }
    for (let taken = 0; taken < this.#maxBatch && this.#queue.length > 0; taken++) {
      const unit = this.#queue.shift() as Unit;
      db.exec('SAVEPOINT unit');
      try {
        const value = await unit.work(this.#tx);
        db.exec('RELEASE unit');
        done.push({ unit, value });
      } catch (error) {
        db.exec('ROLLBACK TO unit');
        db.exec('RELEASE unit');
        unit.reject(error);
      }
    }
    try {
      db.exec('COMMIT');
    } catch (error) {
      // A failed COMMIT (disk full, I/O error) may leave the transaction open: never keep it.
      rollbackIfOpen(db);
      for (const { unit } of done) unit.reject(error);
      return;
    }
    for (const { unit, value } of done) unit.resolve(value);
  }
}

/**
 * Rolls back the connection's transaction when one is open. `isTransaction` exists from Node
 * 22.16; before, it is undefined, so ROLLBACK is tried and SQLite's "no transaction is active"
 * (nothing was open) is the one refusal ignored.
 */
export function rollbackIfOpen(db: DatabaseSync): void {
  if (db.isTransaction === false) return;
  if (db.isTransaction === true) {
    db.exec('ROLLBACK');
    return;
  }
  try {
    db.exec('ROLLBACK');
  } catch (error) {
    if (!/no transaction is active/.test((error as Error).message)) throw error;
  }
}
