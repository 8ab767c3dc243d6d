// WAL checkpoints off the event loop. A checkpoint copies committed pages from the WAL back into
// the database file and fsyncs it; run by the writer connection (SQLite's automatic checkpoint
// after a COMMIT) it blocks the event loop for milliseconds every few hundred commits. Here a
// worker thread with its own connection checkpoints (PASSIVE: it never waits for, or blocks, the
// writer) every `intervalMs`. Durability does not depend on it: every COMMIT is already fsynced in
// the WAL. The writer keeps a large automatic-checkpoint threshold as the safety net should this
// worker fail or fall behind.
import { Worker } from 'node:worker_threads';
import { MODULE_EXT } from '../../package-info.ts';

/** Pages of WAL after which the writer checkpoints itself (only if the worker did not). */
export const WRITER_AUTOCHECKPOINT_PAGES = 8192;

export class Checkpointer {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;

  constructor(file: string, intervalMs = 250) {
    this.#worker = new Worker(new URL(`./checkpoint-worker${MODULE_EXT}`, import.meta.url), {
      workerData: { file, intervalMs },
    });
    this.#exited = new Promise((resolve) => this.#worker.once('exit', () => resolve()));
    // A worker that cannot start or fails leaves checkpoints to the writer's safety net.
    this.#worker.on('error', () => undefined);
    this.#worker.unref();
  }

  /** Stops checkpointing and closes the worker's connection. */
  async close(): Promise<void> {
    this.#worker.ref(); // keep the process up until the worker has closed its connection
    this.#worker.postMessage('close');
    await this.#exited;
  }
}
